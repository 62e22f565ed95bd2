import { describe, expect, it } from "vitest";
import { goal, verdict } from "../bench/goals.js";
import { checkLine } from "../bench/report.js";

describe("bench goals", () => {
  it("passes a ratio on the right side of its target", () => {
    expect(goal("a", 1.2, "<=", 1.5).pass).toBe(true);
    expect(goal("b", 1.6, "<=", 1.5).pass).toBe(false);
    expect(goal("c", 120, ">=", 100).pass).toBe(true);
  });

  it("trusts a result only when the ratio is farther from its target than its spread", () => {
    expect(goal("clear pass", 1.2, "<=", 1.5, 0.05).trusted).toBe(true); // 20% under the target, ±5%
    expect(goal("noisy pass", 1.45, "<=", 1.5, 0.1).trusted).toBe(false); // 3% under, ±10%
    expect(goal("noisy miss", 95, ">=", 100, 0.2).trusted).toBe(false);
    expect(goal("clear miss", 50, ">=", 100, 0.2).trusted).toBe(true);
  });

  it("fails --check for a missed goal and for a run too noisy to tell, and says which", () => {
    const met = goal("met", 1.2, "<=", 1.5, 0.02);
    const noisy = goal("noisy", 1.45, "<=", 1.5, 0.1);
    const missed = goal("missed", 2, "<=", 1.5, 0.02);
    expect(verdict([met]).ok).toBe(true);
    expect(checkLine([met])).toEqual({ line: "--check: all 1 goals met, each by more than its spread", ok: true });
    expect(checkLine([met, noisy])).toEqual({ line: "--check failed: of 2 goals, 1 too noisy to trust", ok: false });
    expect(checkLine([met, noisy, missed])).toEqual({ line: "--check failed: of 3 goals, 1 missed, 1 too noisy to trust", ok: false });
    expect(checkLine([met], true)).toEqual({ line: "--check failed: of 1 goals, a --quick run is too short to trust", ok: false });
  });
});
