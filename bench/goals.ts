/** A target on a measured ratio, and whether this run met it. */
export interface Goal {
  readonly name: string;
  readonly value: number;
  readonly comparison: "<=" | ">=";
  readonly target: number;
  readonly pass: boolean;
}

/** Checks `value` against `target`. */
export function goal(name: string, value: number, comparison: Goal["comparison"], target: number): Goal {
  return { name, value, comparison, target, pass: comparison === "<=" ? value <= target : value >= target };
}
