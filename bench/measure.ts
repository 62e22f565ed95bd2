/** One thing to time: `run(n)` performs the operation `n` times in its own loop. */
export interface BenchCase {
  /** Stable key, used in results.json and in ratios. */
  readonly id: string;
  /** What the tables show. */
  readonly label: string;
  /**
   * Untimed preparation before each batch of `iterations` (warm-up batches
   * included): a case that consumes fresh inputs, such as new schemas for a
   * cold start, makes them here so that making them is not timed.
   */
  setUp?(iterations: number): void;
  run(iterations: number): Promise<void>;
}

/** How long and how often the cases of one group are timed. */
export interface MeasureSettings {
  /** Rounds; each round times every case once, in a rotating order. */
  readonly rounds: number;
  /** The target duration of one case's batch, in milliseconds. */
  readonly batchMs: number;
  /** Warm-up time per case before the first round, in milliseconds. */
  readonly warmupMs: number;
}

/** A case's cost over all rounds. */
export interface CaseTiming {
  readonly id: string;
  readonly label: string;
  /** Median over rounds of the batch's ns per operation. */
  readonly medianNs: number;
  /** Half the interquartile range of the rounds, relative to the median. */
  readonly spread: number;
  /** The first quartile of the rounds' ns per operation. */
  readonly lowNs: number;
  /** The third quartile of the rounds' ns per operation. */
  readonly highNs: number;
  /** Operations per batch, calibrated during warm-up. */
  readonly iterations: number;
  /**
   * Each round's ns per operation, in round order: the cases of one group share their rounds, so
   * a goal can pair them ({@link pairedRatio}). Absent from timings made before it was kept.
   */
  readonly samples?: readonly number[];
}

/** Where an interleaved measurement is, for a progress display: between batches, never during one. */
export interface MeasureStep {
  readonly phase: "warm-up" | "rounds";
  /** The case about to run. */
  readonly label: string;
  /** Batches done so far, out of `total` (warm-up counts one per case). */
  readonly done: number;
  readonly total: number;
  /** The round under way (0 during warm-up), out of `rounds`. */
  readonly round: number;
  readonly rounds: number;
}

/**
 * Times `cases` in the same run, interleaved: after a warm-up (which also
 * calibrates each case's batch to about `batchMs`), every round runs each
 * case's batch once, starting at a different case each round, so drift in
 * the machine (frequency, GC, other load) falls on all cases alike.
 * Each round begins with a full collection, then a quarter batch of its first
 * case, untimed: the first batch after a collection ran a third slower or more,
 * whichever case it was (V8's caches emptied, its young generation shrunk), and
 * with the order rotating, that spread a ratio of two cases to ±15%.
 * `onStep` hears of each batch before it starts (outside the timing).
 */
export async function measureInterleaved(
  cases: readonly BenchCase[],
  settings: MeasureSettings,
  onStep: (step: MeasureStep) => void = () => {},
): Promise<CaseTiming[]> {
  const total = cases.length * (settings.rounds + 1);
  let done = 0;
  const iterations: number[] = [];
  for (const benchCase of cases) {
    onStep({ phase: "warm-up", label: benchCase.label, done: done++, total, round: 0, rounds: settings.rounds });
    const nsPerOperation = await warmUp(benchCase, settings.warmupMs);
    iterations.push(Math.max(1, Math.round((settings.batchMs * 1e6) / nsPerOperation)));
  }
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < settings.rounds; round++) {
    collectGarbage();
    const first = round % cases.length;
    const settling = Math.max(1, Math.round(iterations[first]! / 4));
    cases[first]!.setUp?.(settling);
    await cases[first]!.run(settling);
    for (let offset = 0; offset < cases.length; offset++) {
      const index = (round + offset) % cases.length;
      onStep({ phase: "rounds", label: cases[index]!.label, done: done++, total, round: round + 1, rounds: settings.rounds });
      samples[index]!.push(await timeBatch(cases[index]!, iterations[index]!));
    }
  }
  return cases.map(({ id, label }, index) => summarize(id, label, samples[index]!, iterations[index]!));
}

/** A case's timing from its rounds' ns per operation: the median, the quartiles and the spread. */
export function summarize(id: string, label: string, samples: readonly number[], iterations: number): CaseTiming {
  const sorted = [...samples].sort((a, b) => a - b);
  const medianNs = quantile(sorted, 0.5);
  const lowNs = quantile(sorted, 0.25);
  const highNs = quantile(sorted, 0.75);
  return { id, label, medianNs, spread: (highNs - lowNs) / 2 / medianNs, lowNs, highNs, iterations, samples: [...samples] };
}

/** A ratio of two cases and its relative spread. */
export interface RatioEstimate {
  readonly value: number;
  readonly spread: number;
}

/** Rounds below which a paired ratio is not computed: too few ratios for quartiles. */
const MIN_PAIRED_ROUNDS = 4;

/**
 * The ratio of two cases timed in the same rounds, round by round: the median of each round's
 * ratio, and half the interquartile range of those ratios over that median. Load that slows a
 * whole round (another process, the CPU's frequency, a collection between rounds) slows both cases
 * of it and leaves its ratio alone, so the paired spread is what the ratio itself varies by,
 * where the sum of the two cases' own spreads counts that shared load twice. Without paired
 * rounds (too few, or timings from before rounds were kept), the ratio of the medians and the
 * sum of the spreads.
 */
export function pairedRatio(numerator: CaseTiming, denominator: CaseTiming): RatioEstimate {
  const above = numerator.samples;
  const below = denominator.samples;
  if (above === undefined || below === undefined || above.length !== below.length || above.length < MIN_PAIRED_ROUNDS) {
    return { value: numerator.medianNs / denominator.medianNs, spread: numerator.spread + denominator.spread };
  }
  const ratios = above.map((ns, round) => ns / below[round]!).sort((a, b) => a - b);
  const value = quantile(ratios, 0.5);
  return { value, spread: (quantile(ratios, 0.75) - quantile(ratios, 0.25)) / 2 / value };
}

/**
 * Runs a case in growing batches for about `warmupMs`; returns the fastest
 * ns per operation among the batches long enough to time well (the last one
 * when none is). The fastest, not the last: a batch slowed by a pause or by
 * another process would size every later batch too small, and short batches
 * are the noisiest.
 */
async function warmUp(benchCase: BenchCase, warmupMs: number): Promise<number> {
  const deadline = performance.now() + warmupMs;
  let batch = 1;
  let nsPerOperation = await timeBatch(benchCase, batch);
  let fastest = Infinity;
  while (performance.now() < deadline) {
    nsPerOperation = await timeBatch(benchCase, batch);
    if (nsPerOperation * batch >= (warmupMs * 1e6) / 20) fastest = Math.min(fastest, nsPerOperation);
    if (nsPerOperation * batch < (warmupMs * 1e6) / 10) batch *= 2;
  }
  return Number.isFinite(fastest) ? fastest : nsPerOperation;
}

async function timeBatch(benchCase: BenchCase, iterations: number): Promise<number> {
  benchCase.setUp?.(iterations);
  const started = process.hrtime.bigint();
  await benchCase.run(iterations);
  return Number(process.hrtime.bigint() - started) / iterations;
}

/** The `q` quantile (0..1) of ascending `sorted` values, interpolated. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/** The median of `values` (in any order). */
export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

/** Milliseconds that `work` takes. */
export async function timeMs(work: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** A full, synchronous garbage collection (node runs with --expose-gc). */
function collectGarbage(): void {
  if (globalThis.gc === undefined) throw new Error("run node with --expose-gc");
  globalThis.gc();
}

/** Heap in use after a full garbage collection, in bytes. */
export function heapUsedAfterGc(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
