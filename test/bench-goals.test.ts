import { describe, expect, it } from "vitest";
import { combineRuns, evaluateGoals, GOALS, goal, verdict } from "../bench/goals.js";
import { GOALS_LINE, goalsOf } from "../bench/goal-runs.js";
import type { TimedGroup } from "../bench/groups.js";
import { checkLine } from "../bench/report.js";
import { type CaseTiming, quantile, summarize } from "../bench/measure.js";

const SMALL_OBJECT = { name: "g", group: "small object", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 0.7 } as const;

/** A case's timing from its rounds' ns per operation. */
function timing(id: string, samples: readonly number[]): CaseTiming {
  return summarize(id, id, samples, 1);
}

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

  it("pairs a goal's two cases round by round: load that slows a whole round leaves the ratio and its spread alone", () => {
    // Every round slowed by its own factor (1x to 1.9x), both cases alike: each case spreads widely, the ratio not at all.
    const load = [1, 1.5, 1.2, 1.9, 1.1, 1.4, 1.7, 1.3];
    const dispatch = timing("dispatch", load.map((factor) => 60 * factor));
    const reference = timing("reference", load.map((factor) => 100 * factor));
    expect(dispatch.spread).toBeGreaterThan(0.1);
    const [paired] = evaluateGoals([{ id: "small object", title: "t", timings: [dispatch, reference] }], [SMALL_OBJECT]);
    expect(paired!.value).toBeCloseTo(0.6);
    expect(paired!.spread).toBeCloseTo(0);
    expect(paired!.trusted).toBe(true);
    // The same medians, but the ratio itself moves from round to round: its spread is the ratios' own.
    const ratios = [0.5, 0.6, 0.7, 0.55, 0.65, 0.6, 0.62, 0.58];
    const moving = timing("dispatch", ratios.map((ratio) => 100 * ratio));
    const [unpaired] = evaluateGoals([{ id: "small object", title: "t", timings: [moving, timing("reference", ratios.map(() => 100))] }], [SMALL_OBJECT]);
    const sorted = [...ratios].sort((a, b) => a - b);
    expect(unpaired!.value).toBeCloseTo(0.6);
    expect(unpaired!.spread).toBeCloseTo((quantile(sorted, 0.75) - quantile(sorted, 0.25)) / 2 / 0.6);
  });

  it("without paired rounds, takes each goal's ratio from two cases' medians, with the sum of their spreads", () => {
    const group: TimedGroup = {
      id: "small object",
      title: "small schema, object arguments",
      timings: [
        { id: "dispatch", label: "registry.dispatch", medianNs: 60, spread: 0.02, lowNs: 59, highNs: 61, iterations: 1 },
        { id: "reference", label: "reference", medianNs: 100, spread: 0.03, lowNs: 97, highNs: 103, iterations: 1 },
      ],
    };
    const [result] = evaluateGoals([group], [{ name: "g", group: "small object", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 0.7 }]);
    expect(result).toMatchObject({ name: "g", value: 0.6, target: 0.7, pass: true, trusted: true });
    expect(result!.spread).toBeCloseTo(0.05);
    expect(() => evaluateGoals([group], [{ name: "h", group: "large object", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 1 }])).toThrow(/no group large object/);
    expect(() => evaluateGoals([group], [{ name: "i", group: "small object", numerator: "pi-ai", denominator: "dispatch", comparison: ">=", target: 15 }])).toThrow(/no case pi-ai/);
  });

  it("combines runs in fresh processes: the median ratio, trusted only when the processes agree on its side", () => {
    const agreeing = combineRuns([[goal("g", 1.2, "<=", 1.5, 0.02)], [goal("g", 1.25, "<=", 1.5, 0.03)], [goal("g", 1.18, "<=", 1.5, 0.01)]]);
    expect(agreeing).toHaveLength(1);
    expect(agreeing[0]).toMatchObject({ name: "g", value: 1.2, pass: true, trusted: true });
    // The larger of the processes' median spread (0.02) and their disagreement (half their range, over the median).
    expect(agreeing[0]!.spread).toBeCloseTo((1.25 - 1.18) / 2 / 1.2);
    expect(combineRuns([[goal("g", 1.2, "<=", 1.5, 0.05)], [goal("g", 1.21, "<=", 1.5, 0.06)], [goal("g", 1.2, "<=", 1.5, 0.04)]])[0]!.spread).toBeCloseTo(0.05);
    // Each process is sure of itself (±2%), and one of them lands on the other side: not trusted.
    const disagreeing = combineRuns([[goal("g", 1.05, "<=", 1.1, 0.02)], [goal("g", 1.2, "<=", 1.1, 0.02)], [goal("g", 1.04, "<=", 1.1, 0.02)]]);
    expect(disagreeing[0]).toMatchObject({ value: 1.05, pass: true, trusted: false });
    expect(disagreeing[0]!.spread).toBeCloseTo((1.2 - 1.04) / 2 / 1.05);
    expect(combineRuns([[goal("only here", 2, ">=", 1)], []])[0]).toMatchObject({ value: 2, pass: true });
    expect(() => combineRuns([])).toThrow(/no runs/);
  });

  it("reads a goal run's goals from its last goals line, whatever else it printed", () => {
    const goals = [goal("g", 1.2, "<=", 1.5, 0.02)];
    expect(goalsOf(`a library's warning\n${GOALS_LINE}[]\n${GOALS_LINE}${JSON.stringify(goals)}\n`)).toEqual(goals);
    expect(() => goalsOf("nothing\n")).toThrow(/no goals/);
  });

  it("holds issue 11's targets: faster than the inline reference, cheap signals, MCP, cold start and refusals", () => {
    const target = (name: string): string => {
      const spec = GOALS.find((candidate) => candidate.name === name);
      if (spec === undefined) throw new Error(`no goal ${name}`);
      return `${spec.comparison} ${spec.target}`;
    };
    expect(target("dispatch / reference, small object")).toBe("<= 0.7");
    expect(target("dispatch / reference, large object")).toBe("<= 0.5");
    expect(target("dispatch / reference, small JSON text")).toBe("<= 1.1");
    expect(target("dispatch / reference, large JSON text")).toBe("<= 1.1");
    expect(target("with a caller's signal / without, small object")).toBe("<= 1.5");
    expect(target("with timeoutMs / without, small object")).toBe("<= 2");
    expect(target("createMcpServer / SDK McpServer (Zod), small")).toBe("<= 0.9");
    expect(target("createMcpServer / SDK McpServer (Zod), large")).toBe("<= 0.9");
    expect(target("register + first dispatch / bare Compile")).toBe("<= 2");
    expect(target("invalid / valid dispatch, small")).toBe("<= 10");
    expect(target("invalid / valid dispatch, large")).toBe("<= 10");
    expect(new Set(GOALS.map((spec) => spec.name)).size).toBe(GOALS.length);
  });
});
