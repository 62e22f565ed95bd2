import { describe, expect, it } from "vitest";
import { GOALS } from "../bench/goals.js";
import { INSTRUCTION_GROUPS } from "../bench/instruction-groups.js";
import { caseKey, collectedInstructions, instructionGoals, instructionsPerCall } from "../bench/instructions.js";

describe("bench instruction counts", () => {
  it("reads the count from callgrind's report, and nothing from a report without one", () => {
    const report = "==123== Events    : Ir\n==123== Collected : 2436656932\n==123==\n==123== I   refs:      2,436,656,932\n";
    expect(collectedInstructions(report)).toBe(2_436_656_932);
    expect(collectedInstructions("valgrind: failed to start tool 'callgrind'")).toBeUndefined();
  });

  it("costs one call as the difference of two counts over the difference of their calls", () => {
    // Start-up (2.1 billion) is the same in both and cancels out: 1,700 instructions a call.
    expect(instructionsPerCall({ calls: 100_000, instructions: 2_170_000_000 }, { calls: 1_100_000, instructions: 3_870_000_000 })).toBe(1_700);
    expect(() => instructionsPerCall({ calls: 10, instructions: 1 }, { calls: 10, instructions: 2 })).toThrow(RangeError);
  });

  it("turns counted cases into the goals' ratios, leaving out goals with a case not counted", () => {
    const perCall = new Map([
      [caseKey("small object", "dispatch"), 1_600],
      [caseKey("small object", "reference"), 2_000],
      [caseKey("small invalid", "valid"), 1_600],
      [caseKey("small invalid", "invalid"), 20_800],
    ]);
    const goals = instructionGoals(perCall);
    expect(goals.map((goal) => goal.name)).toEqual(["dispatch / reference, small object", "invalid / valid dispatch, small"]);
    expect(goals[0]).toMatchObject({ ratio: 0.8, target: 0.7, met: false });
    expect(goals[1]).toMatchObject({ ratio: 13, target: 10, met: false });
    expect(instructionGoals(new Map([[caseKey("small object", "dispatch"), 1_000], [caseKey("small object", "reference"), 2_000]]))[0]).toMatchObject({ ratio: 0.5, met: true });
  });

  it("counts every case the goals of its groups name, with two different call counts", () => {
    for (const group of INSTRUCTION_GROUPS) {
      const ids = new Set(group.cases().map((benchCase) => benchCase.id));
      const named = GOALS.filter((spec) => spec.group === group.id);
      expect(named.length, group.id).toBeGreaterThan(0);
      // The rivals and the compile per call are left to the timed bench: only the registry's own cases are counted.
      expect(ids.has("compile-per-call")).toBe(false);
      for (const spec of named.filter((candidate) => !["pi-ai", "compile-per-call"].includes(candidate.numerator))) {
        expect(ids.has(spec.numerator) && ids.has(spec.denominator), spec.name).toBe(true);
      }
      expect(group.calls[0]).toBeLessThan(group.calls[1]);
    }
  });
});
