import type { CaseTiming } from "./measure.js";

/** Cases timed together, interleaved, so that their ratios come from one stretch of the run. */
export interface TimedGroup {
  /** Stable key, used by the goals: `small object`, `large json`, `small mcp`, `cold start`… */
  readonly id: string;
  /** What the tables show. */
  readonly title: string;
  readonly timings: readonly CaseTiming[];
}

/** The timing of case `id` in `group`. @throws Error when the group has no such case */
export function timingOf(group: TimedGroup, id: string): CaseTiming {
  const timing = group.timings.find((candidate) => candidate.id === id);
  if (timing === undefined) throw new Error(`no case ${id} in ${group.title}`);
  return timing;
}
