import { goal, type Goal } from "./goals.js";
import { measureInterleaved, type CaseTiming, type MeasureSettings } from "./measure.js";
import { invalidPathCases, perCallCases, type ArgumentsForm } from "./per-call-cases.js";
import { fixtures, invalidLargeArguments, type SchemaFixture } from "./schemas.js";

/** One group of cases timed together: a schema size and an arguments form. */
export interface PerCallGroup {
  readonly title: string;
  readonly size: SchemaFixture["size"];
  readonly form: ArgumentsForm | "invalid";
  readonly timings: readonly CaseTiming[];
}

/** Everything the per-call section measured, and its goals. */
export interface PerCallResult {
  readonly groups: readonly PerCallGroup[];
  readonly goals: readonly Goal[];
}

const DISPATCH_OVER_REFERENCE: Readonly<Record<string, number>> = { "small object": 1.5, "small json": 1.25, "large object": 1.3, "large json": 1.1 };
const COMPILE_OVER_DISPATCH: Readonly<Record<string, number>> = { small: 100, large: 60 };
const PI_AI_OVER_DISPATCH: Readonly<Record<string, number>> = { small: 15, large: 30 };
const INVALID_OVER_VALID = 10;

/**
 * Times every per-call case, one interleaved group per schema size and
 * arguments form, then the invalid-arguments path on the large schema.
 */
export async function runPerCall(settings: MeasureSettings): Promise<PerCallResult> {
  const groups: PerCallGroup[] = [];
  for (const fixture of fixtures) {
    for (const form of ["object", "json"] as const) {
      const timings = await measureInterleaved(perCallCases(fixture, form), settings);
      groups.push({ title: `${fixture.size} schema, ${form === "json" ? "JSON-text" : "object"} arguments`, size: fixture.size, form, timings });
    }
  }
  const large = fixtures.find((fixture) => fixture.size === "large")!;
  const invalidTimings = await measureInterleaved(invalidPathCases(large, invalidLargeArguments), settings);
  groups.push({ title: "large schema, valid vs invalid arguments", size: "large", form: "invalid", timings: invalidTimings });
  return { groups, goals: perCallGoals(groups) };
}

/** The ratio of two cases' medians in a group, and its relative spread (the sum of theirs). */
function ratio(group: PerCallGroup, numeratorId: string, denominatorId: string): [value: number, spread: number] {
  const numerator = timingOf(group, numeratorId);
  const denominator = timingOf(group, denominatorId);
  return [numerator.medianNs / denominator.medianNs, numerator.spread + denominator.spread];
}

function timingOf(group: PerCallGroup, id: string): CaseTiming {
  const timing = group.timings.find((candidate) => candidate.id === id);
  if (timing === undefined) throw new Error(`no case ${id} in ${group.title}`);
  return timing;
}

function perCallGoals(groups: readonly PerCallGroup[]): Goal[] {
  const goals: Goal[] = [];
  for (const group of groups) {
    if (group.form === "invalid") continue;
    const key = `${group.size} ${group.form}`;
    goals.push(measured(`dispatch / reference, ${key}`, ratio(group, "dispatch", "reference"), "<=", DISPATCH_OVER_REFERENCE[key]!));
  }
  for (const group of groups) {
    if (group.form !== "object") continue;
    goals.push(measured(`compile-per-call / dispatch, ${group.size} object`, ratio(group, "compile-per-call", "dispatch"), ">=", COMPILE_OVER_DISPATCH[group.size]!));
    goals.push(measured(`pi-ai / dispatch, ${group.size} object`, ratio(group, "pi-ai", "dispatch"), ">=", PI_AI_OVER_DISPATCH[group.size]!));
  }
  const invalid = groups.find((group) => group.form === "invalid");
  if (invalid !== undefined) goals.push(measured("invalid / valid dispatch, large object", ratio(invalid, "invalid", "valid"), "<=", INVALID_OVER_VALID));
  return goals;
}

function measured(name: string, [value, spread]: [number, number], comparison: Goal["comparison"], target: number): Goal {
  return goal(name, value, comparison, target, spread);
}
