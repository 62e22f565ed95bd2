import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_DISTANCE_CELLS, suggestNames } from "../src/text/suggest.js";

/** The definition the suggestions follow: optimal string alignment distance, written plainly (a full table). */
function alignmentDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i]![j] = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) table[i]![j] = Math.min(table[i]![j]!, table[i - 2]![j - 2]! + 1);
    }
  }
  return table[a.length]![b.length]!;
}

/** The suggestions by that definition: within the limit, or containing or contained, closest first, at most three. */
function plainSuggestions(name: string, candidates: readonly string[]): string[] {
  if (name.length === 0 || name.length > 256) return [];
  const wanted = name.toLowerCase();
  const limit = wanted.length <= 2 ? 1 : Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      let score = alignmentDistance(wanted, lower);
      if (score > limit && wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) score = limit;
      return { candidate, score };
    })
    .filter(({ score }) => score <= limit)
    .sort((x, y) => x.score - y.score || (x.candidate < y.candidate ? -1 : 1))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

const tools = ["read", "write", "list_files", "search_web", "uber.ride"];

describe("suggestNames", () => {
  it.each([
    ["reed", ["read"]],
    ["raed", ["read"]],
    ["Read", ["read"]],
    ["wirte", ["write"]],
    ["list_file", ["list_files"]],
    ["files", ["list_files"]],
    ["uber_ride", ["uber.ride"]],
  ])("suggests a close name for %j", (typo, expected) => {
    expect(suggestNames(typo, tools)).toEqual(expected);
  });

  it("suggests nothing for a name unlike any tool", () => {
    expect(suggestNames("launch_rocket", tools)).toEqual([]);
    expect(suggestNames("", tools)).toEqual([]);
  });

  it("suggests what the plain definition of the distance suggests, on random names", () => {
    const name = fc.string({ unit: fc.constantFrom("a", "b", "c", "_", "A", "é"), maxLength: 12 });
    fc.assert(
      fc.property(name, fc.uniqueArray(name, { maxLength: 8 }), (typo, candidates) => {
        expect(suggestNames(typo, candidates)).toEqual(plainSuggestions(typo, candidates));
      }),
      { seed: 20261201, numRuns: 2000 },
    );
  });

  it("bounds its work: past a budget of compared characters, later names are only tested for containing the name", () => {
    const typo = `${"x".repeat(40)}abd`;
    const close = `${"x".repeat(40)}abc`;
    const containing = `${typo}_v2`;
    // Two thousand long names with no character in common with the typo: each costs a few hundred cells.
    const unlike = Array.from({ length: 2000 }, (_, index) => index.toString(4).padStart(43, "p").replace(/[0-3]/g, (digit) => "qrst"[Number(digit)]!));
    expect(suggestNames(typo, [close, ...unlike, containing])).toEqual([close, containing]);
    expect(suggestNames(typo, [...unlike, close, containing])).toEqual([containing]);
    expect(MAX_DISTANCE_CELLS).toBeLessThan(unlike.length * 43);
  });

  it("lists at most three names, closest first", () => {
    expect(suggestNames("tool", ["tool1", "tool12", "tool123", "toolx", "tool_"])).toHaveLength(3);
    expect(suggestNames("get", ["gets", "get_all_things"])).toEqual(["gets", "get_all_things"]);
  });
});
