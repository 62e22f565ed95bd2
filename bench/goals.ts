import { timingOf, type TimedGroup } from "./groups.js";
import { median, pairedRatio } from "./measure.js";

/** A target on a measured ratio, whether this run met it, and whether the run can tell. */
export interface Goal {
  readonly name: string;
  readonly value: number;
  readonly comparison: "<=" | ">=";
  readonly target: number;
  readonly pass: boolean;
  /**
   * The ratio's spread between rounds, relative to it: half the interquartile
   * range of its rounds' ratios, over their median (see `pairedRatio`).
   */
  readonly spread: number;
  /**
   * Whether the run can tell: the ratio is farther from the target than its
   * spread. A goal met or missed by less than that is too noisy to trust.
   */
  readonly trusted: boolean;
}

/** Checks `value` against `target`; `spread` is the ratio's relative spread (0 when not measured). */
export function goal(name: string, value: number, comparison: Goal["comparison"], target: number, spread = 0): Goal {
  const pass = comparison === "<=" ? value <= target : value >= target;
  const margin = Math.abs(value / target - 1);
  return { name, value, comparison, target, pass, spread, trusted: margin > spread };
}

/** What `--check` decides from a run's goals: pass only when every goal was met and the run can tell. */
export interface GoalVerdict {
  readonly failed: readonly Goal[];
  readonly noisy: readonly Goal[];
  readonly ok: boolean;
}

/** The verdict on a run's goals: which were missed, and which were met or missed within the noise. */
export function verdict(goals: readonly Goal[]): GoalVerdict {
  const failed = goals.filter((goal) => !goal.pass);
  const noisy = goals.filter((goal) => !goal.trusted);
  return { failed, noisy, ok: failed.length === 0 && noisy.length === 0 };
}

/** A goal before the run: which two cases of which group, and the target on their ratio. */
export interface GoalSpec {
  readonly name: string;
  /** The `TimedGroup` id both cases belong to. */
  readonly group: string;
  readonly numerator: string;
  readonly denominator: string;
  readonly comparison: Goal["comparison"];
  readonly target: number;
}

/**
 * The speed goals of `npm run bench`. Each is a ratio of two cases timed in
 * the same interleaved group, so that load on the machine falls on both.
 */
export const GOALS: readonly GoalSpec[] = [
  // Faster than the cheapest correct code written inline (copy, then the cached TypeBox check).
  { name: "dispatch / reference, small object", group: "small object", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 0.7 },
  { name: "dispatch / reference, large object", group: "large object", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 0.5 },
  { name: "dispatch / reference, small JSON text", group: "small json", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 1.1 },
  { name: "dispatch / reference, large JSON text", group: "large json", numerator: "dispatch", denominator: "reference", comparison: "<=", target: 1.1 },
  // A signal or a timeout costs little more than a call without.
  { name: "with a caller's signal / without, small object", group: "small signal", numerator: "signal", denominator: "dispatch", comparison: "<=", target: 1.5 },
  { name: "with timeoutMs / without, small object", group: "small signal", numerator: "timeout", denominator: "dispatch", comparison: "<=", target: 2 },
  // Serving the registry over MCP beats the SDK's own server.
  { name: "createMcpServer / SDK McpServer (Zod), small", group: "small mcp", numerator: "registry-mcp", denominator: "mcp-sdk-zod", comparison: "<=", target: 0.9 },
  { name: "createMcpServer / SDK McpServer (Zod), large", group: "large mcp", numerator: "registry-mcp", denominator: "mcp-sdk-zod", comparison: "<=", target: 0.9 },
  // Tracing switched off costs (almost) nothing.
  { name: "instrumented, no SDK / plain dispatch, small object", group: "small otel", numerator: "otel-idle", denominator: "dispatch", comparison: "<=", target: 1.1 },
  // A new tool is ready about as fast as TypeBox compiles its schema.
  { name: "register + first dispatch / bare Compile", group: "cold start", numerator: "register-first-call", denominator: "compile", comparison: "<=", target: 2 },
  // A refusal stays cheap.
  { name: "invalid / valid dispatch, small", group: "small invalid", numerator: "invalid", denominator: "valid", comparison: "<=", target: 10 },
  { name: "invalid / valid dispatch, large", group: "large invalid", numerator: "invalid", denominator: "valid", comparison: "<=", target: 10 },
  // Far ahead of the naive path and of pi-ai.
  { name: "compile-per-call / dispatch, small object", group: "small object", numerator: "compile-per-call", denominator: "dispatch", comparison: ">=", target: 100 },
  { name: "compile-per-call / dispatch, large object", group: "large object", numerator: "compile-per-call", denominator: "dispatch", comparison: ">=", target: 60 },
  { name: "pi-ai / dispatch, small object", group: "small object", numerator: "pi-ai", denominator: "dispatch", comparison: ">=", target: 15 },
  { name: "pi-ai / dispatch, large object", group: "large object", numerator: "pi-ai", denominator: "dispatch", comparison: ">=", target: 30 },
];

/**
 * Each goal of `specs` on the run's groups: the two cases' ratio round by
 * round, its median and spread ({@link pairedRatio}).
 * @throws Error when a goal names a group or a case the run does not have
 */
export function evaluateGoals(groups: readonly TimedGroup[], specs: readonly GoalSpec[] = GOALS): Goal[] {
  return specs.map((spec) => {
    const group = groups.find((candidate) => candidate.id === spec.group);
    if (group === undefined) throw new Error(`goal "${spec.name}": no group ${spec.group}`);
    const numerator = timingOf(group, spec.numerator);
    const denominator = timingOf(group, spec.denominator);
    const ratio = pairedRatio(numerator, denominator);
    return goal(spec.name, ratio.value, spec.comparison, spec.target, ratio.spread);
  });
}

/**
 * The goals of several runs of the same groups, each in a process of its own, as one verdict: each
 * goal's ratio is the median of its runs, and its spread the larger of the runs' median spread and
 * their disagreement (half the range of their ratios, over the median). One process's timings
 * share its compiled code and its heap, so they agree with each other more than with another
 * process's; a goal is trusted only when fresh processes agree on its side of the target.
 * A goal missing from some runs keeps the runs that have it.
 * @throws Error when `runs` is empty
 */
export function combineRuns(runs: ReadonlyArray<readonly Goal[]>): Goal[] {
  if (runs.length === 0) throw new Error("no runs to combine");
  return runs[0]!.map((first) => {
    const same = runs.map((run) => run.find((candidate) => candidate.name === first.name)).filter((found): found is Goal => found !== undefined);
    const values = same.map((found) => found.value);
    const value = median(values);
    const disagreement = (Math.max(...values) - Math.min(...values)) / 2 / value;
    const spread = Math.max(median(same.map((found) => found.spread)), disagreement);
    return goal(first.name, value, first.comparison, first.target, spread);
  });
}
