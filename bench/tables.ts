import type { ColdStartRow } from "./cold-start.js";
import { formatNs, formatPercent, formatRatio } from "./format.js";
import type { LatencyResult } from "./streaming-latency.js";
import { type PayloadResult, timingOf } from "./streaming.js";

/** The rows that the terminal report and report.html both show, as plain text cells. */

/** The columns of the start-up table, by number of tools. */
export const COLD_START_COLUMNS = ["tools", "register all", "per tool", "compileAll", "per schema", "1st call mean", "1st call p95", "compile per tool", "2nd call median", "3rd call median"];

/** One row of the start-up table. */
export function coldStartCells(row: ColdStartRow): string[] {
  return [
    String(row.tools),
    formatNs(row.registerMs * 1e6),
    formatNs((row.registerMs * 1e6) / row.tools),
    formatNs(row.compileAllMs * 1e6),
    formatNs((row.compileAllMs * 1e6) / row.tools),
    formatNs(row.firstCallMeanUs * 1e3),
    formatNs(row.firstCallP95Us * 1e3),
    formatNs(row.compileMeanUs * 1e3),
    formatNs(row.secondCallMedianUs * 1e3),
    formatNs(row.thirdCallMedianUs * 1e3),
  ];
}

/** The columns of a streamed payload's table. */
export const PAYLOAD_COLUMNS = ["case", "whole stream", "±", "ratio", "per delta"];

/** A streamed payload's rows: each timed case, then partial-json re-parsing the prefix, against one `JSON.parse` plus check. */
export function payloadRows(payload: PayloadResult): string[][] {
  const reference = timingOf(payload, "reference").medianNs;
  return [
    ...payload.timings.map((timing) => [timing.label, formatNs(timing.medianNs), formatPercent(timing.spread), formatRatio(timing.medianNs / reference), formatNs(timing.medianNs / payload.deltas)]),
    ["partial-json, the prefix re-parsed on every delta (one run)", formatNs(payload.partialJsonNs), "", formatRatio(payload.partialJsonNs / reference), formatNs(payload.partialJsonNs / payload.deltas)],
  ];
}

/** The columns of the streaming latency table. */
export const LATENCY_COLUMNS = ["", "first result", "last result", "results before the stream ended"];

/** The latency table's rows: results as they stream, against collecting the calls for `dispatchAll`. */
export function latencyRows(latency: LatencyResult): string[][] {
  return ([["dispatchStream", latency.dispatchStream], ["collect, then dispatchAll", latency.collectThenDispatchAll]] as const).map(([label, times]) => [
    label,
    `${times.firstResultMs.toFixed(0)} ms`,
    `${times.lastResultMs.toFixed(0)} ms`,
    String(times.beforeStreamEnd),
  ]);
}
