import { ToolArgumentsValidationError, ToolRegistry } from "../src/index.js";
import { heapUsedAfterGc } from "./measure.js";
import { zipfCallOrder, ZIPF_EXPONENT, type Population } from "./population.js";

/** One cache size's figures over the whole call sequence. */
export interface SweepRow {
  readonly cacheSize: number;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly hitRate: number;
  readonly compileMs: number;
  /** Calls whose sample arguments the schema refused (messy corpus schemas). */
  readonly rejected: number;
  readonly callsPerSecond: number;
  /** Heap the registry holds after the run: what a full GC frees when it is dropped, in bytes. */
  readonly heapBytes: number;
}

/** The sweep over cache sizes, with the population it ran on. */
export interface CacheSweepResult {
  readonly source: string;
  readonly tools: number;
  readonly calls: number;
  readonly zipfExponent: number;
  readonly rows: readonly SweepRow[];
}

const handler = (): number => 1;

/**
 * Dispatches the same Zipf-distributed call sequence through a fresh registry
 * per cache size (each starts cold) and reads its cache figures. `onSize`
 * hears of each cache size (its index) before it runs.
 */
export async function runCacheSweep(
  population: Population,
  cacheSizes: readonly number[],
  callCount: number,
  onSize: (index: number, cacheSize: number) => void = () => {},
): Promise<CacheSweepResult> {
  const order = zipfCallOrder(population.tools.length, callCount, 23);
  const rows: SweepRow[] = [];
  for (const [index, cacheSize] of cacheSizes.entries()) {
    onSize(index, cacheSize);
    rows.push(await sweepOne(population, order, cacheSize));
  }
  return { source: population.source, tools: population.tools.length, calls: callCount, zipfExponent: ZIPF_EXPONENT, rows };
}

async function sweepOne(population: Population, order: Int32Array, cacheSize: number): Promise<SweepRow> {
  let registry: ToolRegistry | undefined = new ToolRegistry({ cacheSize });
  for (const tool of population.tools) registry.register(tool, handler);
  let rejected = 0;
  const started = process.hrtime.bigint();
  for (const index of order) {
    try {
      await registry.dispatch(population.calls[index]!);
    } catch (error) {
      if (!(error instanceof ToolArgumentsValidationError)) throw error;
      rejected++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { hits, misses, evictions } = registry.cacheStats();
  const { compileMs } = registry.compileStats();
  // What the registry holds is what a full GC frees once it is dropped (process-wide caches stay out of it).
  const heapWithRegistry = heapUsedAfterGc();
  registry = undefined;
  const heapBytes = heapWithRegistry - heapUsedAfterGc();
  return { cacheSize, hits, misses, evictions, hitRate: hits / (hits + misses), compileMs, rejected, callsPerSecond: order.length / seconds, heapBytes };
}
