/** A target on a measured ratio, whether this run met it, and whether the run can tell. */
export interface Goal {
  readonly name: string;
  readonly value: number;
  readonly comparison: "<=" | ">=";
  readonly target: number;
  readonly pass: boolean;
  /**
   * The ratio's spread between rounds, relative to it: the sum of its two
   * cases' spreads (half the interquartile range of the rounds, over the median).
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
