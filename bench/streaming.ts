import { readFileSync } from "node:fs";
import { parse as partialJsonParse } from "partial-json";
import { Compile } from "typebox/compile";
import { ToolRegistry } from "../src/index.js";
import { goal, type Goal } from "./goals.js";
import { type BenchCase, type CaseTiming, measureInterleaved, type MeasureSettings, pairedRatio, timeMs } from "./measure.js";
import { repositoryPath } from "./paths.js";
import { fileWritePayload, fixedDeltas, randomDeltas, type StreamingPayload, upsertPayload } from "./streaming-payloads.js";
import { measureLatency, type LatencyResult } from "./streaming-latency.js";

/** How the streaming section measures. */
export interface StreamingSettings extends MeasureSettings {
  /** The size of each payload's arguments text, in bytes (100 KB in a full run). */
  readonly payloadBytes: number;
}

/** One payload's figures: the cases timed together, and partial-json's time over the same deltas. */
export interface PayloadResult {
  readonly name: string;
  readonly bytes: number;
  readonly deltas: number;
  readonly timings: readonly CaseTiming[];
  /** Re-parsing the accumulated prefix with partial-json on every delta, over the whole stream, in ns. */
  readonly partialJsonNs: number;
}

/** Everything the streaming section measured, and its goals. */
export interface StreamingResult {
  readonly payloads: readonly PayloadResult[];
  /** Per push of one 20-byte delta, in ns: inside a long string, and in structured data. */
  readonly perDeltaNs: { readonly insideString: number; readonly structured: number };
  readonly latency: LatencyResult;
  readonly goals: readonly Goal[];
}

const STREAM_OVER_REFERENCE = 3;
const PARTIAL_JSON_OVER_STREAM = 20;

/**
 * Times a 100 KB call's arguments streamed in deltas of 1 to 64 bytes: the stream (a push per delta,
 * its issues read, then `end()`), the same reading the partial value on every delta, against one
 * `JSON.parse` plus compiled check of the whole text, and against re-parsing the prefix on every
 * delta with partial-json; then the cost of one 20-byte delta, and the latency of calls that run
 * while the model still streams.
 */
export async function runStreaming(settings: StreamingSettings): Promise<StreamingResult> {
  const source = readFileSync(repositoryPath("src/validation/explainer.ts"), "utf8");
  const payloads = [upsertPayload(settings.payloadBytes), fileWritePayload(settings.payloadBytes, source)];
  const results: PayloadResult[] = [];
  for (const payload of payloads) results.push(await measurePayload(payload, settings));
  const perDeltaNs = { insideString: await perDeltaCost(payloads[1]!, settings), structured: await perDeltaCost(payloads[0]!, settings) };
  const latency = await measureLatency();
  const upsert = results[0]!;
  const goals = [
    measured(`stream / (JSON.parse + check), ${upsert.name}`, ratio(upsert, "stream", "reference"), "<=", STREAM_OVER_REFERENCE),
    goal(`partial-json / stream, ${upsert.name}`, upsert.partialJsonNs / timingOf(upsert, "stream").medianNs, ">=", PARTIAL_JSON_OVER_STREAM, timingOf(upsert, "stream").spread),
  ];
  return { payloads: results, perDeltaNs, latency, goals };
}

async function measurePayload(payload: StreamingPayload, settings: MeasureSettings): Promise<PayloadResult> {
  const deltas = randomDeltas(payload.text);
  const registry = new ToolRegistry().register({ name: "tool", description: "streaming benchmark", parameters: payload.schema }, () => 1);
  const validator = Compile(payload.schema);
  const text = payload.text;
  const cases: BenchCase[] = [
    {
      id: "reference",
      label: "JSON.parse + check of the complete text",
      run: async (n) => {
        for (let i = 0; i < n; i++) if (!validator.Check(JSON.parse(text))) throw new Error("the payload must be valid");
      },
    },
    {
      id: "stream",
      label: "argumentStream: push every delta (issues), end()",
      run: async (n) => {
        for (let i = 0; i < n; i++) streamOnce(registry, deltas, false);
      },
    },
    {
      id: "stream-value",
      label: "the same, reading the partial value on every delta",
      run: async (n) => {
        for (let i = 0; i < n; i++) streamOnce(registry, deltas, true);
      },
    },
  ];
  // The value case is timed on its own: building values gives the parser's shared code other types to
  // handle, which would slow the stream it is compared with (an application does one or the other).
  const timings = [...(await measureInterleaved(cases.slice(0, 2), settings)), ...(await measureInterleaved(cases.slice(2), settings))];
  // Quadratic, so timed once (after a warm-up on a tenth of the stream): it takes seconds.
  partialJsonStream(deltas.slice(0, Math.ceil(deltas.length / 10)));
  const partialJsonNs = (await timeMs(() => partialJsonStream(deltas))) * 1e6;
  return { name: payload.name, bytes: text.length, deltas: deltas.length, timings, partialJsonNs };
}

/** One stream: every delta pushed, its issues read (and its value, if asked), then the final check. */
function streamOnce(registry: ToolRegistry, deltas: readonly string[], readValue: boolean): void {
  const stream = registry.argumentStream("tool");
  for (const delta of deltas) {
    const state = stream.push(delta);
    if (state.issues.length > 0) throw new Error("the payload must be valid");
    if (readValue && state.value === undefined && delta !== deltas[0]) throw new Error("the value must be there");
  }
  stream.end();
}

/** The common approach: accumulate the text and re-parse the whole prefix with partial-json on every delta. */
function partialJsonStream(deltas: readonly string[]): unknown {
  let text = "";
  let value: unknown;
  for (const delta of deltas) {
    text += delta;
    value = partialJsonParse(text);
  }
  return value;
}

/** The cost of one push of a 20-byte delta, in ns: a whole stream of them, over their count. */
async function perDeltaCost(payload: StreamingPayload, settings: MeasureSettings): Promise<number> {
  const deltas = fixedDeltas(payload.text, 20);
  const registry = new ToolRegistry().register({ name: "tool", description: "streaming benchmark", parameters: payload.schema }, () => 1);
  const [timing] = await measureInterleaved(
    [
      {
        id: "pushes",
        label: "20-byte pushes",
        run: async (n) => {
          for (let i = 0; i < n; i++) {
            const stream = registry.argumentStream("tool");
            for (const delta of deltas) stream.push(delta);
          }
        },
      },
    ],
    settings,
  );
  return timing!.medianNs / deltas.length;
}

function ratio(result: PayloadResult, numeratorId: string, denominatorId: string): [value: number, spread: number] {
  const { value, spread } = pairedRatio(timingOf(result, numeratorId), timingOf(result, denominatorId));
  return [value, spread];
}

/** A case's timing in a payload's results. */
export function timingOf(result: PayloadResult, id: string): CaseTiming {
  const timing = result.timings.find((candidate) => candidate.id === id);
  if (timing === undefined) throw new Error(`no case ${id} for ${result.name}`);
  return timing;
}

function measured(name: string, [value, spread]: [number, number], comparison: Goal["comparison"], target: number): Goal {
  return goal(name, value, comparison, target, spread);
}
