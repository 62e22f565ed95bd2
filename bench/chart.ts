import { formatCacheSize, formatCount, formatNs, formatPercent, formatRatio } from "./format.js";
import type { BenchResults } from "./report.js";

const WIDTH = 1080;
const LABEL_WIDTH = 330;
const BAR_WIDTH = 450;
const ROW_HEIGHT = 18;
const BAR_HEIGHT = 12;
const COLORS: Readonly<Record<string, string>> = { dispatch: "#2563eb", valid: "#2563eb", reference: "#16a34a", invalid: "#dc2626" };
const OTHER_COLOR = "#9ca3af";

/**
 * An SVG chart of one run: per-call cost of every case (log scale, one block
 * per group), the goals with PASS/FAIL, and the cache sweep's hit rates.
 */
export function renderChart(results: BenchResults): string {
  const parts: string[] = [];
  let y = 28;
  parts.push(text(16, y, "typebox-tool-registry benchmark: per-call cost (log scale, median ns per call)", 16, "bold"));
  y += 18;
  parts.push(text(16, y, `${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}${results.settings.quick ? " (quick run)" : ""}`, 12));
  y += 14;
  const timings = results.perCall.groups.flatMap((group) => group.timings);
  const axis = logAxis(Math.min(...timings.map((timing) => timing.medianNs)), Math.max(...timings.map((timing) => timing.medianNs)));
  const top = y + 16;
  for (const group of results.perCall.groups) {
    y += 26;
    parts.push(text(16, y, group.title, 13, "bold"));
    const first = group.timings[0]!.medianNs;
    for (const timing of group.timings) {
      y += ROW_HEIGHT;
      const width = Math.max(1, axis(timing.medianNs));
      parts.push(text(24, y, timing.label, 11));
      parts.push(`<rect x="${LABEL_WIDTH}" y="${y - BAR_HEIGHT + 2}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${COLORS[timing.id] ?? OTHER_COLOR}"/>`);
      parts.push(text(LABEL_WIDTH + width + 6, y, `${formatNs(timing.medianNs)}  (${formatRatio(timing.medianNs / first)})`, 11));
    }
  }
  parts.unshift(...decadeGrid(axis, top, y + 6));
  y += 40;
  parts.push(text(16, y, "Goals", 14, "bold"));
  for (const goal of results.perCall.goals) {
    y += ROW_HEIGHT;
    parts.push(text(24, y, goal.name, 11));
    parts.push(text(LABEL_WIDTH, y, `${formatRatio(goal.value)} (target ${goal.comparison === "<=" ? "≤" : "≥"} ${formatRatio(goal.target)})`, 11));
    parts.push(text(LABEL_WIDTH + 220, y, `${goal.pass ? "PASS" : "FAIL"}${goal.trusted ? "" : " (too noisy to trust)"}`, 11, "bold", goal.pass ? "#16a34a" : "#dc2626"));
  }
  y += 40;
  const sweep = results.cacheSweep;
  parts.push(text(16, y, `Cache sweep: hit rate by cache size (${sweep.source}, ${formatCount(sweep.calls)} Zipf calls)`, 14, "bold"));
  for (const row of sweep.rows) {
    y += ROW_HEIGHT + 2;
    const width = Math.max(1, row.hitRate * BAR_WIDTH);
    parts.push(text(24, y, `cacheSize ${formatCacheSize(row.cacheSize)}`, 11));
    parts.push(`<rect x="${LABEL_WIDTH}" y="${y - BAR_HEIGHT + 2}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="#7c3aed"/>`);
    parts.push(text(LABEL_WIDTH + width + 6, y, `${formatPercent(row.hitRate)}, ${formatCount(row.callsPerSecond)} calls/s, ${formatCount(row.misses)} misses`, 11));
  }
  const height = y + 24;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}

interface LogAxis {
  (ns: number): number;
  readonly decades: readonly number[];
}

/** Maps ns to a bar width on a log scale spanning whole decades around [minimum, maximum]. */
function logAxis(minimum: number, maximum: number): LogAxis {
  const low = Math.floor(Math.log10(minimum));
  const high = Math.max(low + 1, Math.ceil(Math.log10(maximum)));
  const scale = (ns: number): number => ((Math.log10(ns) - low) / (high - low)) * BAR_WIDTH;
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

function text(x: number, y: number, content: string, size: number, weight = "normal", color = "#111827"): string {
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${color}">${escapeXml(content)}</text>`;
}

function escapeXml(content: string): string {
  return content.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
