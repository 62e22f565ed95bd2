import { escapeXml, renderChart } from "./chart.js";
import { formatBytes, formatCacheSize, formatCount, formatNs, formatPercent, formatRatio } from "./format.js";
import { verdict, type Goal } from "./goals.js";
import type { TimedGroup } from "./groups.js";
import type { BenchResults } from "./results.js";
import { COLD_START_COLUMNS, coldStartCells, LATENCY_COLUMNS, latencyRows, PAYLOAD_COLUMNS, payloadRows } from "./tables.js";
import { caseRole, ROLES } from "./roles.js";

/** The sections of the report, in order: their ids are the page's anchors. */
export const REPORT_SECTIONS = [
  ["goals", "Goals"],
  ["chart", "Chart"],
  ["per-call", "Per-call cost"],
  ["behaviour", "What each library does with the arguments"],
  ["mcp", "MCP server"],
  ["cold-start", "Cold start"],
  ["cache", "Validator cache"],
  ["memory", "Memory"],
  ["streaming", "Streaming tool calls"],
  ["tracing", "Tracing while it is off"],
] as const;

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #111827; }
h1 { margin-bottom: 0.2rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid #e5e7eb; padding-bottom: 0.3rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.2rem; font-size: 0.9rem; }
th, td { padding: 0.25rem 0.7rem; border-bottom: 1px solid #f3f4f6; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f9fafb; }
.pass { color: #16a34a; font-weight: bold; }
.fail { color: #dc2626; font-weight: bold; }
.noisy { color: #b45309; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.4rem; vertical-align: middle; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1.4rem; }
.spread { display: inline-block; position: relative; width: 8rem; height: 0.7rem; background: #f3f4f6; vertical-align: middle; }
.spread span { position: absolute; top: 0; bottom: 0; background: #9ca3af; }
figure { margin: 0; overflow-x: auto; }
nav a { margin-right: 1rem; }
.note { color: #4b5563; font-size: 0.9rem; }
`;

/**
 * A self-contained HTML page of one run: the machine, the goals, the chart
 * (inline SVG) with a legend, every table with each case's spread drawn,
 * what each library does with the arguments, the cold start, the cache and memory.
 */
export function renderHtmlReport(results: BenchResults): string {
  const { machine, settings } = results;
  const title = `typebox-tool-registry benchmark${settings.quick ? " (quick run)" : ""}`;
  const body = [
    `<header><h1>${escapeXml(title)}</h1>`,
    paragraph(`${machine.cpu}, ${machine.cores} cores, ${formatBytes(machine.totalMemoryBytes)} RAM, ${machine.platform}; Node ${machine.node} (V8 ${machine.v8})`, "machine"),
    paragraph(`Libraries: ${Object.entries(machine.libraries).map(([name, version]) => `${name} ${version}`).join(", ")}`),
    paragraph(`npm run bench${results.argv.length > 0 ? ` -- ${results.argv.join(" ")}` : ""}: the run took ${results.durationSeconds.toFixed(1)} s${settings.quick ? "; a quick run's numbers are not meaningful" : ""}.`),
    `</header>`,
    `<nav>${REPORT_SECTIONS.map(([id, heading]) => `<a href="#${id}">${escapeXml(heading)}</a>`).join("")}</nav>`,
    `<main>`,
    sectionOf("goals", goalsSection(results.goals)),
    sectionOf("chart", chartSection(results)),
    sectionOf("per-call", [
      paragraph(`Median of ${settings.perCall.rounds} interleaved rounds of about ${settings.perCall.batchMs} ms per case; every case ends in a handler that returns 1. ± is half the interquartile range of the rounds, relative to the median; the bar spans the first to the third quartile. Each rival runs on the forms it takes: the JSON-text tables hold those that take text (a rival that takes objects would add JSON.parse, whose cost the reference's JSON-text row shows).`, "note"),
      ...results.perCall.groups.map(groupTable),
    ]),
    sectionOf("behaviour", [behaviourTable(results)]),
    sectionOf("mcp", [paragraph("One tools/call from the MCP SDK's Client over its InMemoryTransport, answered by each server.", "note"), ...results.mcp.groups.map(groupTable)]),
    sectionOf("cold-start", [groupTable(results.coldStart.group), coldStartTable(results)]),
    sectionOf("cache", cacheTables(results)),
    sectionOf("memory", memoryTables(results)),
    sectionOf("streaming", streamingTables(results)),
    sectionOf("tracing", [paragraph("dispatch on the small schema, plain and after instrument(registry), with @opentelemetry/api loaded and no SDK registered.", "note"), groupTable(results.tracing)]),
    `</main>`,
    `<footer>${paragraph(`Sections: ${Object.entries(results.sectionSeconds).map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(", ")}.`, "note")}</footer>`,
  ];
  return [
    "<!doctype html>",
    `<html lang="en">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeXml(title)}</title><style>${STYLE}</style></head>`,
    `<body>`,
    ...body,
    `</body>`,
    `</html>`,
    "",
  ].join("\n");
}

function sectionOf(id: (typeof REPORT_SECTIONS)[number][0], content: readonly string[]): string {
  const heading = REPORT_SECTIONS.find(([candidate]) => candidate === id)![1];
  return [`<section id="${id}">`, `<h2>${escapeXml(heading)}</h2>`, ...content, `</section>`].join("\n");
}

function goalsSection(goals: readonly Goal[]): string[] {
  const { failed, noisy } = verdict(goals);
  const summary = `${goals.length - failed.length} of ${goals.length} goals met${noisy.length > 0 ? `; ${noisy.length} too noisy to trust (met or missed by less than the ± of the ratio)` : ", each by more than its spread"}.`;
  return [
    paragraph(summary),
    table(
      ["goal", "measured", "±", "target", "result"],
      goals.map((goal) => [
        escapeXml(goal.name),
        formatRatio(goal.value),
        formatPercent(goal.spread),
        escapeXml(`${goal.comparison === "<=" ? "≤" : "≥"} ${formatRatio(goal.target)}`),
        `<span class="${goal.pass ? "pass" : "fail"}">${goal.pass ? "PASS" : "FAIL"}</span>${goal.trusted ? "" : ` <span class="noisy">(too noisy to trust)</span>`}`,
      ]),
    ),
  ];
}

function chartSection(results: BenchResults): string[] {
  const legend = Object.values(ROLES).map((role) => `<li><span class="swatch" style="background:${role.color}"></span>${escapeXml(role.legend)}</li>`);
  return [
    `<ul class="legend">${legend.join("")}<li>a line over a bar: the first to the third quartile of the rounds</li></ul>`,
    `<figure>${renderChart(results).trim()}<figcaption class="note">The same chart is written beside this page as chart.svg.</figcaption></figure>`,
  ];
}

function groupTable(group: TimedGroup): string {
  const first = group.timings[0]!.medianNs;
  const largest = Math.max(...group.timings.map((timing) => timing.highNs));
  return [
    `<h3>${escapeXml(group.title)}</h3>`,
    table(
      ["case", "per call", "±", "spread (first to third quartile)", "ratio"],
      group.timings.map((timing) => [
        `<span class="swatch" style="background:${ROLES[caseRole(timing.id)].color}"></span>${escapeXml(timing.label)}`,
        escapeXml(formatNs(timing.medianNs)),
        formatPercent(timing.spread),
        spreadBar(timing.lowNs / largest, timing.highNs / largest, `${formatNs(timing.lowNs)} to ${formatNs(timing.highNs)}`),
        formatRatio(timing.medianNs / first),
      ]),
    ),
  ].join("\n");
}

/** A small bar showing where the middle half of the rounds lies, on the group's linear scale. */
function spreadBar(low: number, high: number, title: string): string {
  const left = (low * 100).toFixed(1);
  const width = (Math.max(0.5, (high - low) * 100)).toFixed(1);
  return `<span class="spread" title="${escapeXml(title)}"><span style="left:${left}%;width:${width}%"></span></span>`;
}

function behaviourTable(results: BenchResults): string {
  return [
    paragraph("Each library was tried on one small schema (a path, an optional integer ≥ 0, an optional nested object): a valid call, the text \"20\" for the integer, an undeclared property, and a marker string for the integer, looked for in what the refusal carries.", "note"),
    table(
      ["library and path", "version", "takes", "wrong type", "\"20\" for an integer", "unknown key", "handler gets", "values in errors"],
      results.behaviour.map((row) =>
        [row.label, row.version, row.form, row.validates === "yes" ? "refused" : "accepted", row.coercion, row.unknownKeys, row.handlerGets, row.valuesInErrors].map(escapeXml),
      ),
    ),
  ].join("\n");
}

function coldStartTable(results: BenchResults): string {
  return [
    `<h3>Start-up by number of tools</h3>`,
    table(COLD_START_COLUMNS, results.coldStart.rows.map((row) => coldStartCells(row).map(escapeXml))),
  ].join("\n");
}

function cacheTables(results: BenchResults): string[] {
  const { cacheSweep: sweep, cacheKey } = results;
  return [
    `<h3>${escapeXml(`Cache sweep: ${sweep.source}, ${formatCount(sweep.calls)} calls, Zipf s=${sweep.zipfExponent}`)}</h3>`,
    table(
      ["cache size", "hit rate", "misses", "evictions", "compile time", "calls/s", "heap held", "args refused"],
      sweep.rows.map((row) =>
        [formatCacheSize(row.cacheSize), formatPercent(row.hitRate), formatCount(row.misses), formatCount(row.evictions), formatNs(row.compileMs * 1e6), formatCount(row.callsPerSecond), formatBytes(row.heapBytes), formatCount(row.rejected)].map(escapeXml),
      ),
    ),
    `<h3>${escapeXml(`Cache key: ValidatorCache(${cacheKey.cacheSize}), ${formatCount(cacheKey.calls)} Zipf calls`)}</h3>`,
    table(
      ["schemas and key", "compiles (misses)", "hit rate", "per call"],
      cacheKey.rows.map((row) => [row.label, formatCount(row.misses), formatPercent(row.hitRate), formatNs(row.microsecondsPerCall * 1e3)].map(escapeXml)),
    ),
  ];
}

function memoryTables(results: BenchResults): string[] {
  const { perValidator, churn } = results.memory;
  return [
    paragraph(`One cached validator holds ${formatBytes(perValidator.heldBytes)} of heap (${formatCount(perValidator.schemas)} distinct schemas in an unbounded cache; heap growth per schema ${formatBytes(perValidator.growthBytes)}).`),
    `<h3>${escapeXml(`Churn: ${formatCount(churn.schemas)} distinct schemas streamed through each cache (heap growth after a full GC)`)}</h3>`,
    table(
      ["schemas seen", `cacheSize ${churn.cacheSize}`, "unbounded"],
      churn.checkpoints.map((checkpoint) => [formatCount(checkpoint.schemasSeen), formatBytes(checkpoint.boundedBytes), formatBytes(checkpoint.unboundedBytes)].map(escapeXml)),
    ),
    paragraph(`Held by the cache itself (freed when it is dropped): ${formatBytes(churn.boundedHeldBytes)} bounded, ${formatBytes(churn.unboundedHeldBytes)} unbounded.`, "note"),
  ];
}

function streamingTables(results: BenchResults): string[] {
  const { payloads, perDeltaNs, latency } = results.streaming;
  return [
    paragraph("One call's arguments streamed in deltas of 1 to 64 bytes; the ratio is to one JSON.parse plus compiled check of the whole text, and partial-json re-parses the prefix on every delta.", "note"),
    ...payloads.flatMap((payload) => [
      `<h3>${escapeXml(`${payload.name}: ${formatCount(payload.bytes)} bytes in ${formatCount(payload.deltas)} deltas`)}</h3>`,
      table(PAYLOAD_COLUMNS, payloadRows(payload).map((row) => row.map(escapeXml))),
    ]),
    paragraph(`One push of a 20-byte delta: ${formatNs(perDeltaNs.insideString)} inside a long string, ${formatNs(perDeltaNs.structured)} in structured data.`),
    `<h3>${escapeXml(`Latency: ${latency.calls} streamed calls, handlers of ${latency.handlerMs} ms, the model streaming for ${latency.streamMs.toFixed(0)} ms`)}</h3>`,
    table(LATENCY_COLUMNS, latencyRows(latency).map((row) => row.map(escapeXml))),
  ];
}

/** A table; `rows` hold cells already escaped (or markup). */
function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const head = `<thead><tr>${headers.map((header) => `<th>${escapeXml(header)}</th>`).join("")}</tr></thead>`;
  const body = `<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n")}</tbody>`;
  return `<table>${head}\n${body}</table>`;
}

function paragraph(content: string, className?: string): string {
  return `<p${className === undefined ? "" : ` class="${className}"`}>${escapeXml(content)}</p>`;
}
