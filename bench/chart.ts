import { formatBytes, formatCacheSize, formatCount, formatNs, formatPercent, formatRatio } from "./format.js";
import type { TimedGroup } from "./groups.js";
import type { BenchResults } from "./results.js";
import { caseRole, ROLES } from "./roles.js";

const WIDTH = 1100;
const LABEL_WIDTH = 370;
const BAR_WIDTH = 440;
const ROW_HEIGHT = 18;
const BAR_HEIGHT = 12;

/**
 * An SVG chart of one run: every timed case (log scale, one block per group,
 * the middle half of its rounds drawn as a line over the bar's end), the cold
 * start, the goals with PASS/FAIL, memory under churn and the cache sweep's
 * hit rates, with a legend of the colours.
 */
export function renderChart(results: BenchResults): string {
  const parts: string[] = [];
  let y = 28;
  parts.push(text(16, y, "typebox-tool-registry benchmark", 16, "bold"));
  y += 18;
  parts.push(text(16, y, `${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}${results.settings.quick ? " (quick run: numbers not meaningful)" : ""}`, 12));
  y = legend(parts, y + 10);

  const timedGroups = [...results.perCall.groups, ...results.mcp.groups, results.coldStart.group];
  const coldRows = results.coldStart.rows.flatMap((row) => [row.registerMs * 1e6 / row.tools, row.firstCallMeanUs * 1e3, row.firstCallP95Us * 1e3, row.secondCallMedianUs * 1e3]);
  const timings = timedGroups.flatMap((group) => group.timings);
  const axis = logAxis(Math.min(...timings.map((timing) => timing.lowNs), ...coldRows), Math.max(...timings.map((timing) => timing.highNs), ...coldRows));
  y += 24;
  parts.push(text(16, y, "Time per operation (log scale; median of the rounds, the line spans the middle half)", 14, "bold"));
  const top = y + 18;
  y += 6;
  for (const group of timedGroups) y = timedBlock(parts, group, axis, y);
  y += 26;
  parts.push(text(16, y, "Cold start, generated tools (no schema seen before)", 13, "bold"));
  for (const row of results.coldStart.rows) {
    for (const [label, ns] of [
      [`${row.tools} tools: register, per tool`, (row.registerMs * 1e6) / row.tools],
      [`${row.tools} tools: first call, mean`, row.firstCallMeanUs * 1e3],
      [`${row.tools} tools: first call, p95`, row.firstCallP95Us * 1e3],
      [`${row.tools} tools: second call, median`, row.secondCallMedianUs * 1e3],
    ] as const) {
      y += ROW_HEIGHT;
      const width = Math.max(1, axis(ns));
      parts.push(text(24, y, label, 11));
      parts.push(bar(LABEL_WIDTH, y, width, ROLES.registry.color));
      parts.push(text(LABEL_WIDTH + width + 6, y, formatNs(ns), 11));
    }
  }
  parts.unshift(...decadeGrid(axis, top, y + 6));

  y += 40;
  parts.push(text(16, y, "Goals", 14, "bold"));
  for (const goal of results.goals) {
    y += ROW_HEIGHT;
    parts.push(text(24, y, goal.name, 11));
    parts.push(text(LABEL_WIDTH, y, `${formatRatio(goal.value)} ± ${formatPercent(goal.spread)} (target ${goal.comparison === "<=" ? "≤" : "≥"} ${formatRatio(goal.target)})`, 11));
    parts.push(text(LABEL_WIDTH + 260, y, `${goal.pass ? "PASS" : "FAIL"}${goal.trusted ? "" : " (too noisy to trust)"}`, 11, "bold", goal.pass ? "#16a34a" : "#dc2626"));
  }

  y = memoryBlock(parts, results, y + 40);

  y += 40;
  const sweep = results.cacheSweep;
  parts.push(text(16, y, `Cache sweep: hit rate by cache size (${sweep.source}, ${formatCount(sweep.calls)} Zipf calls)`, 14, "bold"));
  for (const row of sweep.rows) {
    y += ROW_HEIGHT + 2;
    const width = Math.max(1, row.hitRate * BAR_WIDTH);
    parts.push(text(24, y, `cacheSize ${formatCacheSize(row.cacheSize)}`, 11));
    parts.push(bar(LABEL_WIDTH, y, width, "#7c3aed"));
    parts.push(text(LABEL_WIDTH + width + 6, y, `${formatPercent(row.hitRate)}, ${formatCount(row.callsPerSecond)} calls/s, ${formatCount(row.misses)} misses`, 11));
  }
  const height = y + 24;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" role="img" aria-label="typebox-tool-registry benchmark chart">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}

/** The colour key, and what the line over a bar means; returns the next y. */
function legend(parts: string[], y: number): number {
  let x = 16;
  y += 14;
  for (const role of Object.values(ROLES)) {
    parts.push(`<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${role.color}"/>`);
    parts.push(text(x + 16, y, role.legend, 11));
    x += 28 + role.legend.length * 6;
    if (x > WIDTH - 200) {
      x = 16;
      y += 16;
    }
  }
  y += 18;
  parts.push(bar(16, y, 40, ROLES.baseline.color));
  parts.push(whisker(36, 64, y));
  parts.push(text(72, y, "bar: median of the rounds; line: first to third quartile (the spread a goal's ± sums)", 11));
  return y;
}

/** One group's bars with their spread; returns the next y. */
function timedBlock(parts: string[], group: TimedGroup, axis: LogAxis, y: number): number {
  y += 26;
  parts.push(text(16, y, group.title, 13, "bold"));
  const first = group.timings[0]!.medianNs;
  for (const timing of group.timings) {
    y += ROW_HEIGHT;
    const width = Math.max(1, axis(timing.medianNs));
    parts.push(text(24, y, timing.label, 11));
    parts.push(bar(LABEL_WIDTH, y, width, ROLES[caseRole(timing.id)].color));
    const high = Math.max(width, axis(timing.highNs));
    parts.push(whisker(LABEL_WIDTH + Math.max(0, axis(timing.lowNs)), LABEL_WIDTH + high, y));
    parts.push(text(LABEL_WIDTH + high + 6, y, `${formatNs(timing.medianNs)} ± ${formatPercent(timing.spread)}  (${formatRatio(timing.medianNs / first)})`, 11));
  }
  return y;
}

/** Heap per validator and the churn checkpoints, on a linear scale; returns the next y. */
function memoryBlock(parts: string[], results: BenchResults, y: number): number {
  const { perValidator, churn } = results.memory;
  parts.push(text(16, y, `Memory: heap growth while ${formatCount(churn.schemas)} distinct schemas stream through a cache`, 14, "bold"));
  y += 16;
  parts.push(text(24, y, `One cached validator: ${formatBytes(perValidator.heldBytes)} of heap (${formatCount(perValidator.schemas)} schemas in an unbounded cache)`, 11));
  const largest = Math.max(1, ...churn.checkpoints.flatMap((checkpoint) => [checkpoint.boundedBytes, checkpoint.unboundedBytes]));
  for (const checkpoint of churn.checkpoints) {
    for (const [label, bytes, color] of [
      [`${formatCount(checkpoint.schemasSeen)} schemas, cacheSize ${churn.cacheSize}`, checkpoint.boundedBytes, ROLES.registry.color],
      [`${formatCount(checkpoint.schemasSeen)} schemas, unbounded`, checkpoint.unboundedBytes, ROLES.baseline.color],
    ] as const) {
      y += ROW_HEIGHT;
      const width = Math.max(1, (Math.max(0, bytes) / largest) * BAR_WIDTH);
      parts.push(text(24, y, label, 11));
      parts.push(bar(LABEL_WIDTH, y, width, color));
      parts.push(text(LABEL_WIDTH + width + 6, y, formatBytes(bytes), 11));
    }
  }
  return y;
}

interface LogAxis {
  (ns: number): number;
  readonly decades: readonly number[];
}

/** Maps ns to a bar width on a log scale spanning whole decades around [minimum, maximum]. */
function logAxis(minimum: number, maximum: number): LogAxis {
  const low = Math.floor(Math.log10(Math.max(1, minimum)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(1, maximum))));
  const scale = (ns: number): number => ((Math.log10(Math.max(1, ns)) - low) / (high - low)) * BAR_WIDTH;
  return Object.assign(scale, { decades: Array.from({ length: high - low + 1 }, (_, index) => 10 ** (low + index)) });
}

function decadeGrid(axis: LogAxis, top: number, bottom: number): string[] {
  return axis.decades.flatMap((ns) => {
    const x = (LABEL_WIDTH + axis(ns)).toFixed(1);
    return [`<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="#e5e7eb"/>`, text(Number(x) - 14, top - 4, decadeLabel(ns), 10, "normal", "#6b7280")];
  });
}

/** `10 ns`, `1 µs`, `100 ms`: a power of ten without decimals. */
function decadeLabel(ns: number): string {
  const [unit, scale] = ns < 1e3 ? ["ns", 1] : ns < 1e6 ? ["µs", 1e3] : ns < 1e9 ? ["ms", 1e6] : ["s", 1e9];
  return `${Math.round(ns / scale)} ${unit}`;
}

function bar(x: number, y: number, width: number, color: string): string {
  return `<rect x="${x}" y="${y - BAR_HEIGHT + 2}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${color}"/>`;
}

/** A horizontal line from x1 to x2 through the middle of a bar at y, with end caps. */
function whisker(x1: number, x2: number, y: number): string {
  const middle = y - BAR_HEIGHT / 2 + 2;
  const [a, b] = [x1.toFixed(1), x2.toFixed(1)];
  return `<path d="M${a} ${middle}H${b}M${a} ${middle - 4}V${middle + 4}M${b} ${middle - 4}V${middle + 4}" stroke="#111827" stroke-width="1.2" fill="none"/>`;
}

function text(x: number, y: number, content: string, size: number, weight = "normal", color = "#111827"): string {
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${color}">${escapeXml(content)}</text>`;
}

/** Text safe inside XML and HTML: `&`, `<`, `>` and `"` escaped. */
export function escapeXml(content: string): string {
  return content.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
