/** One measured configuration of `npm run bench:queue`: a handler, on local dispatch (0 workers) or a queue to N worker processes. */
export interface QueueRow {
  readonly tool: string;
  readonly workers: number;
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The p50 and p99 above local dispatch's, for the same handler. */
  readonly addedP50Ms: number;
  readonly addedP99Ms: number;
}

const BAR_LEFT = 260;
const BAR_SPAN = 520;
const ROW = 20;
const COLOR: Readonly<Record<number, string>> = { 0: "#16a34a", 1: "#93c5fd", 2: "#3b82f6", 4: "#1e40af" };

/**
 * An SVG chart of a queue bench run: calls per second for each handler and configuration (a log
 * scale, since local dispatch of an instant handler is orders of magnitude faster), with the
 * added latency (p50, p99) beside each queue bar.
 */
export function renderQueueChart(rows: readonly QueueRow[], machine: string): string {
  const parts: string[] = [];
  let y = 28;
  parts.push(svgText(16, y, "typebox-tool-registry: tool calls through a BullMQ queue (calls per second, log scale)", 16, "bold"));
  y += 18;
  parts.push(svgText(16, y, machine, 12));
  const top = Math.log10(Math.max(...rows.map((row) => row.callsPerSecond)) * 1.2);
  const bottom = Math.floor(Math.log10(Math.min(...rows.map((row) => row.callsPerSecond))));
  const width = (value: number): number => Math.max(2, ((Math.log10(value) - bottom) / (top - bottom)) * BAR_SPAN);
  for (const tool of [...new Set(rows.map((row) => row.tool))]) {
    y += 30;
    parts.push(svgText(16, y, tool === "instant" ? "handler returns at once" : "handler waits 20 ms", 13, "bold"));
    for (const row of rows.filter((candidate) => candidate.tool === tool)) {
      y += ROW;
      const bar = width(row.callsPerSecond);
      const latency = row.workers === 0 ? `p50 ${formatMs(row.p50Ms)}` : `+${formatMs(row.addedP50Ms)} p50, +${formatMs(row.addedP99Ms)} p99`;
      parts.push(svgText(24, y, row.workers === 0 ? "local dispatch" : `queue, ${row.workers} worker process${row.workers === 1 ? "" : "es"}`, 11));
      parts.push(`<rect x="${BAR_LEFT}" y="${y - 12}" width="${bar.toFixed(1)}" height="13" fill="${COLOR[row.workers] ?? "#9ca3af"}"/>`);
      parts.push(svgText(BAR_LEFT + bar + 6, y, `${Math.round(row.callsPerSecond).toLocaleString("en-US")} calls/s (${latency})`, 11));
    }
  }
  y += 24;
  const height = y;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${parts.join("")}</svg>\n`;
}

/** Milliseconds for a reader: microseconds below one. */
export function formatMs(ms: number): string {
  return Math.abs(ms) < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

function svgText(x: number, y: number, content: string, size: number, weight = "normal"): string {
  const safe = content.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}">${safe}</text>`;
}
