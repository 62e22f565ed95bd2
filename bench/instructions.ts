import { formatCount, formatRatio, printTable } from "./format.js";
import { GOALS, type GoalSpec } from "./goals.js";

/*
 * What `npm run bench:instructions` reads and works out: valgrind's count of the instructions a
 * process ran, the cost of one call from two such counts, and the speed goals' ratios in
 * instructions. Instructions are not time (a cache miss or a slow division costs more than an
 * addition), but on a shared machine whose timings spread by 20% to 40% they repeat within a few
 * percent, so they tell whether a change made a path cheaper, and by how much, where timings cannot.
 */

/** The instructions valgrind's callgrind counted, from its report; `undefined` when the report has no count. */
export function collectedInstructions(report: string): number | undefined {
  const match = /Collected\s*:\s*(\d+)/.exec(report);
  return match === null ? undefined : Number(match[1]);
}

/** One process's count: how many calls it made, and the instructions it ran in all. */
export interface InstructionCount {
  readonly calls: number;
  readonly instructions: number;
}

/**
 * The instructions of one call: the difference of two processes' counts over the difference of
 * their calls, so that start-up, compiling and warming up, the same in both, cancel out.
 * @throws RangeError when both made the same number of calls
 */
export function instructionsPerCall(fewer: InstructionCount, more: InstructionCount): number {
  if (more.calls === fewer.calls) throw new RangeError("two counts of the same number of calls cannot tell one call's cost");
  return (more.instructions - fewer.instructions) / (more.calls - fewer.calls);
}

/** A speed goal's ratio in instructions per call. */
export interface InstructionGoal {
  readonly name: string;
  readonly numerator: number;
  readonly denominator: number;
  readonly ratio: number;
  readonly comparison: GoalSpec["comparison"];
  readonly target: number;
  readonly met: boolean;
}

/** The key of a case's count: its group and its id. */
export function caseKey(group: string, id: string): string {
  return `${group} / ${id}`;
}

/**
 * The goals of `specs` whose two cases were counted (by {@link caseKey}), as ratios of their
 * instructions per call.
 */
export function instructionGoals(perCall: ReadonlyMap<string, number>, specs: readonly GoalSpec[] = GOALS): InstructionGoal[] {
  const goals: InstructionGoal[] = [];
  for (const spec of specs) {
    const numerator = perCall.get(caseKey(spec.group, spec.numerator));
    const denominator = perCall.get(caseKey(spec.group, spec.denominator));
    if (numerator === undefined || denominator === undefined) continue;
    const ratio = numerator / denominator;
    const met = spec.comparison === "<=" ? ratio <= spec.target : ratio >= spec.target;
    goals.push({ name: spec.name, numerator, denominator, ratio, comparison: spec.comparison, target: spec.target, met });
  }
  return goals;
}

/** Prints the goals' ratios in instructions as a table. */
export function printInstructionGoals(goals: readonly InstructionGoal[]): void {
  printTable(
    ["goal", "instructions per call", "of", "ratio", "target", "in instructions"],
    goals.map((goal) => [
      goal.name,
      formatCount(Math.round(goal.numerator)),
      formatCount(Math.round(goal.denominator)),
      formatRatio(goal.ratio),
      `${goal.comparison === "<=" ? "≤" : "≥"} ${formatRatio(goal.target)}`,
      goal.met ? "met" : "missed",
    ]),
  );
}
