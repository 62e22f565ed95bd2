import type { BenchCase } from "./measure.js";
import { otelIdleCases } from "./otel-overhead.js";
import { type ArgumentsForm, invalidPathCases, perCallCases, signalCases } from "./per-call-cases.js";
import { fixtures, type SchemaFixture } from "./schemas.js";

/** A group of cases whose per-call instructions `npm run bench:instructions` counts, by the id its goals name. */
export interface InstructionGroup {
  /** The `TimedGroup` id of `npm run bench`, as `GOALS` names it. */
  readonly id: string;
  /** The group's cases, made fresh in the process that runs one. */
  cases(): BenchCase[];
  /**
   * The two call counts one case runs (in two processes): the difference of their instructions over
   * the difference of the counts is the cost of one call, with start-up and warm-up cancelled out.
   * The fewer must be past warm-up (the optimizing compiler's work): with 20,000 small calls, the
   * same dispatch counted 1,400 to 2,600 instructions a call from one group to the next.
   */
  readonly calls: readonly [number, number];
}

function fixture(size: SchemaFixture["size"]): SchemaFixture {
  return fixtures.find((candidate) => candidate.size === size)!;
}

/** The registry's dispatch and the inline reference, without the baselines (a compile per call would take hours under valgrind). */
function againstReference(size: SchemaFixture["size"], form: ArgumentsForm): BenchCase[] {
  return perCallCases(fixture(size), form).filter((benchCase) => benchCase.id === "dispatch" || benchCase.id === "reference");
}

/**
 * The per-call groups of the speed goals whose cases run in this process and call no other library
 * (no rival, no transport, no compile per call): the registry against the inline reference, with a
 * signal or a time limit, refusals, and tracing while it is off. A goal naming a case a group
 * does not have (a rival's) is left to the timed bench.
 */
export const INSTRUCTION_GROUPS: readonly InstructionGroup[] = [
  { id: "small object", cases: () => againstReference("small", "object"), calls: [100_000, 600_000] },
  { id: "large object", cases: () => againstReference("large", "object"), calls: [10_000, 60_000] },
  { id: "small json", cases: () => againstReference("small", "json"), calls: [100_000, 600_000] },
  { id: "large json", cases: () => againstReference("large", "json"), calls: [10_000, 60_000] },
  { id: "small signal", cases: () => signalCases(fixture("small")), calls: [100_000, 600_000] },
  { id: "small invalid", cases: () => invalidPathCases(fixture("small")), calls: [20_000, 120_000] },
  // 2,000 large calls were still warming up: a valid one counted 34,000 instructions, against 12,500 past 10,000.
  { id: "large invalid", cases: () => invalidPathCases(fixture("large")), calls: [10_000, 30_000] },
  { id: "small otel", cases: () => otelIdleCases(), calls: [100_000, 600_000] },
];
