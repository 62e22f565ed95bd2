/** A duration given in nanoseconds, in the unit that reads best: `293 ns`, `3.47 µs`, `1.23 ms`. */
export function formatNs(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** A ratio as `1.42x`, `13.3x` or `157x`. */
export function formatRatio(ratio: number): string {
  return `${ratio < 100 ? ratio.toPrecision(3) : ratio.toFixed(0)}x`;
}

/** Bytes as `812 B`, `3.4 KiB`, `12.0 MiB` (negative when the heap shrank). */
export function formatBytes(bytes: number): string {
  const size = Math.abs(bytes);
  const sign = bytes < 0 ? "-" : "";
  if (size < 1024) return `${sign}${size.toFixed(0)} B`;
  if (size < 1024 ** 2) return `${sign}${(size / 1024).toFixed(1)} KiB`;
  if (size < 1024 ** 3) return `${sign}${(size / 1024 ** 2).toFixed(1)} MiB`;
  return `${sign}${(size / 1024 ** 3).toFixed(1)} GiB`;
}

/** An integer with thousands separators. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}

/** A percentage with one decimal. */
export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** A cache bound, `unbounded` for Infinity. */
export function formatCacheSize(size: number): string {
  return size === Infinity ? "unbounded" : String(size);
}

/**
 * Prints a table: the first column left-aligned, the others right-aligned,
 * every row indented by two spaces.
 */
export function printTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("   ")}`.trimEnd();
  console.log(line(headers));
  console.log(line(widths.map((width) => "-".repeat(width))));
  for (const row of rows) console.log(line(row));
}
