import { ValidatorCache } from "../src/validation/cache.js";
import { sampleValue } from "./json-schema.js";
import { heapUsedAfterGc } from "./measure.js";
import { seededRandom } from "./random.js";
import { generateTools } from "./tool-generator.js";

/** Heap held by validators. */
export interface MemoryResult {
  readonly perValidator: PerValidator;
  readonly churn: ChurnResult;
}

/** Heap per validator in an unbounded cache of distinct schemas. */
export interface PerValidator {
  readonly schemas: number;
  /** (heap after - heap before) / schemas, each after a full GC. */
  readonly growthBytes: number;
  /** What a full GC frees when the cache is dropped, per validator: the cache's own share of the growth. */
  readonly heldBytes: number;
}

/** Heap while distinct schemas stream through a bounded and an unbounded cache. */
export interface ChurnResult {
  readonly schemas: number;
  readonly cacheSize: number;
  /** Heap growth since each cache was created, after a full GC. */
  readonly checkpoints: ReadonlyArray<{ readonly schemasSeen: number; readonly boundedBytes: number; readonly unboundedBytes: number }>;
  /** At the end, what a full GC frees when each cache is dropped: the cache's own share of the growth. */
  readonly boundedHeldBytes: number;
  readonly unboundedHeldBytes: number;
}

interface Workload {
  readonly names: readonly string[];
  readonly schemas: readonly object[];
  readonly arguments: readonly unknown[];
}

interface Growth {
  readonly samples: ReadonlyArray<{ readonly schemasSeen: number; readonly bytes: number }>;
  readonly heldBytes: number;
}

/** Heap per cached validator, then heap under churn of distinct schemas. */
export function runMemory(schemaCount: number, churnSchemas: number, churnCacheSize: number, checkpointCount: number): MemoryResult {
  const { samples, heldBytes } = heapGrowth(workload(schemaCount, 101, "memory_"), Infinity, 1);
  return {
    perValidator: { schemas: schemaCount, growthBytes: samples[0]!.bytes / schemaCount, heldBytes: heldBytes / schemaCount },
    churn: churn(workload(churnSchemas, 202, "churn_"), churnCacheSize, checkpointCount),
  };
}

function workload(count: number, seed: number, prefix: string): Workload {
  const tools = generateTools(count, seed, prefix);
  const random = seededRandom(seed);
  return {
    names: tools.map((tool) => tool.name),
    schemas: tools.map((tool) => tool.parameters),
    arguments: tools.map((tool) => sampleValue(tool.parameters, random)),
  };
}

function churn(load: Workload, cacheSize: number, checkpointCount: number): ChurnResult {
  const bounded = heapGrowth(load, cacheSize, checkpointCount);
  const unbounded = heapGrowth(load, Infinity, checkpointCount);
  const checkpoints = bounded.samples.map(({ schemasSeen, bytes }, index) => ({ schemasSeen, boundedBytes: bytes, unboundedBytes: unbounded.samples[index]!.bytes }));
  return { schemas: load.schemas.length, cacheSize, checkpoints, boundedHeldBytes: bounded.heldBytes, unboundedHeldBytes: unbounded.heldBytes };
}

/**
 * Compiles every schema of `load` into one cache, running each validator once
 * (as a cached validator has been), and samples the heap `checkpointCount` times.
 */
function heapGrowth(load: Workload, cacheSize: number, checkpointCount: number): Growth {
  const before = heapUsedAfterGc();
  let cache: ValidatorCache | undefined = new ValidatorCache(cacheSize);
  const step = Math.ceil(load.schemas.length / checkpointCount);
  const samples: Array<{ schemasSeen: number; bytes: number }> = [];
  for (let start = 0; start < load.schemas.length; start += step) {
    const end = Math.min(start + step, load.schemas.length);
    for (let index = start; index < end; index++) cache.get(load.names[index]!, load.schemas[index]!).Check(load.arguments[index]);
    samples.push({ schemasSeen: end, bytes: heapUsedAfterGc() - before });
  }
  if (cache.stats().size !== Math.min(cacheSize, load.schemas.length)) throw new Error("the cache does not hold what its bound allows");
  const heapWithCache = heapUsedAfterGc();
  cache = undefined;
  return { samples, heldBytes: heapWithCache - heapUsedAfterGc() };
}
