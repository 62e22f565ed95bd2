/**
 * Sets of Unicode code points as sorted, disjoint, non-adjacent inclusive ranges: what one
 * character of a pattern (a literal, `.`, a class, `\d`) may match under the `u` flag, where a
 * surrogate pair is one code point and a lone surrogate is its own.
 */

/** The largest code point. */
export const MAX_CODE_POINT = 0x10ffff;

/** A set of code points; `ranges` holds `[first, last]` pairs, sorted and merged. */
export interface CodePointSet {
  readonly ranges: readonly (readonly [number, number])[];
  /** The set is not known exactly (a Unicode property escape): treat it as every code point when proving, and never translate it. */
  readonly inexact?: true;
}

/** The set of the given ranges (in any order, overlapping or not). */
export function setOf(ranges: Iterable<readonly [number, number]>, inexact = false): CodePointSet {
  const sorted = [...ranges].filter(([first, last]) => first <= last).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [first, last] of sorted) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return inexact ? { ranges: merged, inexact: true } : { ranges: merged };
}

/** The set of one code point. */
export function single(codePoint: number): CodePointSet {
  return { ranges: [[codePoint, codePoint]] };
}

/** Every code point. */
export const ANY: CodePointSet = { ranges: [[0, MAX_CODE_POINT]] };

/** The union of sets; inexact when any is. */
export function union(sets: readonly CodePointSet[]): CodePointSet {
  return setOf(
    sets.flatMap((set) => set.ranges),
    sets.some((set) => set.inexact === true),
  );
}

/** The code points not in `set`; inexact when `set` is. */
export function complement(set: CodePointSet): CodePointSet {
  const ranges: Array<[number, number]> = [];
  let next = 0;
  for (const [first, last] of set.ranges) {
    if (first > next) ranges.push([next, first - 1]);
    next = last + 1;
  }
  if (next <= MAX_CODE_POINT) ranges.push([next, MAX_CODE_POINT]);
  return set.inexact === true ? { ranges, inexact: true } : { ranges };
}

/** Whether the sets may share a code point: an inexact set is taken as every code point. */
export function mayIntersect(left: CodePointSet, right: CodePointSet): boolean {
  if ((left.ranges.length === 0 && left.inexact !== true) || (right.ranges.length === 0 && right.inexact !== true)) return false;
  if (left.inexact === true || right.inexact === true) return true;
  let i = 0;
  let j = 0;
  while (i < left.ranges.length && j < right.ranges.length) {
    const [a0, a1] = left.ranges[i]!;
    const [b0, b1] = right.ranges[j]!;
    if (a0 <= b1 && b0 <= a1) return true;
    if (a1 < b1) i++;
    else j++;
  }
  return false;
}

// The ECMAScript sets, as the `u` flag (without `i`) defines them.
/** `\d` */
export const DIGIT: CodePointSet = setOf([[0x30, 0x39]]);
/** `\w`: ASCII letters, digits and `_`. */
export const WORD: CodePointSet = setOf([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** `\s`: ECMAScript's WhiteSpace and LineTerminator, Unicode included (RE2's `\s` is ASCII only). */
export const SPACE: CodePointSet = setOf([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** `.` without the `s` flag: every code point but the four line terminators (RE2's `.` excludes only `\n`). */
export const DOT: CodePointSet = complement(
  setOf([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
);
