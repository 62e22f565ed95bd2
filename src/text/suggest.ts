const MAX_SUGGESTIONS = 3;

/**
 * Registered names that look like a mistyped `name`, closest first: names
 * within a small edit distance (case-insensitive, a swap of two neighbouring
 * letters counting as one edit), and names that contain it or are contained in it.
 */
export function suggestNames(name: string, candidates: Iterable<string>): string[] {
  if (name.length === 0 || name.length > 256) return [];
  const wanted = name.toLowerCase();
  const limit = wanted.length <= 2 ? 1 : Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    let score = editDistance(wanted, lower, limit);
    if (score > limit && wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) score = limit;
    if (score <= limit) scored.push({ candidate, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map(({ candidate }) => candidate);
}

/** Optimal string alignment distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforePrevious[j - 2]! + 1);
      current.push(value);
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
