const MAX_SUGGESTIONS = 3;

/**
 * The most cells of distance tables one call of {@link suggestNames} computes (about half a
 * millisecond). Eight tools with ten-character names need about 500; a hundred with 30-character
 * names about 30,000; a thousand with 128-character names would need millions (about 40 ms for one
 * refused call, measured, where a valid call takes a fraction of a microsecond).
 */
export const MAX_DISTANCE_CELLS = 50_000;

/** Cells the current {@link suggestNames} call may still compute. */
let cellsLeft = 0;

/**
 * Registered names that look like a mistyped `name`, closest first: names
 * within a small edit distance (case-insensitive, a swap of two neighbouring
 * letters counting as one edit), and names that contain it or are contained in it.
 * Its cost is bounded: once it has computed {@link MAX_DISTANCE_CELLS} cells of edit distances,
 * the remaining candidates are only tested for containing `name` or being contained in it.
 */
export function suggestNames(name: string, candidates: Iterable<string>): string[] {
  if (name.length === 0 || name.length > 256) return [];
  const wanted = name.toLowerCase();
  const limit = wanted.length <= 2 ? 1 : Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ candidate: string; score: number }> = [];
  cellsLeft = MAX_DISTANCE_CELLS;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    let score = editDistance(wanted, lower, limit);
    if (score > limit && wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) score = limit;
    if (score <= limit) scored.push({ candidate, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map(({ candidate }) => candidate);
}

/**
 * Whether `name` is `intended` misspelt: a different text within `limit` edits of it
 * (case-insensitive, a swap of two neighbouring letters counting as one edit).
 */
export function isMisspelling(name: string, intended: string, limit = 2): boolean {
  if (name === intended || name.length > intended.length + limit) return false;
  cellsLeft = MAX_DISTANCE_CELLS;
  return editDistance(name.toLowerCase(), intended.toLowerCase(), limit) <= limit;
}

/**
 * The three rows of the distance table, reused by every call: the distance is computed
 * synchronously, and a row per call (and a string per character read) cost more than the
 * arithmetic. They grow to the longest name compared.
 */
let beforePreviousRow = new Int32Array(0);
let previousRow = new Int32Array(0);
let currentRow = new Int32Array(0);

/**
 * Optimal string alignment distance, giving up (returning `limit + 1`) once it must exceed `limit`,
 * or once the call's budget of cells is spent.
 * Only the band of cells within `limit` of the diagonal is computed: a cell outside it is already
 * more than `limit`, and reads as `limit + 1`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit || cellsLeft <= 0) return limit + 1;
  const width = b.length + 1;
  if (previousRow.length < width + 1) {
    beforePreviousRow = new Int32Array(width + 1);
    previousRow = new Int32Array(width + 1);
    currentRow = new Int32Array(width + 1);
  }
  const outside = limit + 1;
  let beforePrevious = beforePreviousRow;
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j < width; j++) previous[j] = Math.min(j, outside);
  previous[width] = outside;
  for (let i = 1; i <= a.length; i++) {
    const unit = a.charCodeAt(i - 1);
    const unitBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    const first = Math.max(1, i - limit);
    const last = Math.min(b.length, i + limit);
    // The cells just outside the band, which the band's edges read.
    current[first - 1] = first === 1 ? Math.min(i, outside) : outside;
    current[last + 1] = outside;
    let rowMinimum = current[first - 1]!;
    for (let j = first; j <= last; j++) {
      const other = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (unit === other ? 0 : 1));
      // A swap of two neighbouring characters is one edit.
      if (j > 1 && unitBefore === other && unit === b.charCodeAt(j - 2)) value = Math.min(value, beforePrevious[j - 2]! + 1);
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    // Past the call's budget the distance is not known: the name is not suggested for it.
    cellsLeft -= last - first + 1;
    if (rowMinimum > limit || cellsLeft <= 0) return limit + 1;
    const spare = beforePrevious;
    beforePrevious = previous;
    previous = current;
    current = spare;
  }
  return previous[b.length]!;
}
