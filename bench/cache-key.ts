import type { CacheKey, TSchema } from "../src/index.js";
import { DEFAULT_CACHE_SIZE, ValidatorCache } from "../src/validation/cache.js";
import { zipfCallOrder, type Population } from "./population.js";

/** One way of bringing schemas to the cache, and what it cost. */
export interface CacheKeyRow {
  readonly label: string;
  readonly key: CacheKey;
  /** Whether each call brought a fresh structural copy of its schema. */
  readonly freshCopies: boolean;
  readonly misses: number;
  readonly hitRate: number;
  readonly microsecondsPerCall: number;
}

/** The identity-vs-content comparison. */
export interface CacheKeyResult {
  readonly cacheSize: number;
  readonly calls: number;
  readonly rows: readonly CacheKeyRow[];
}

/**
 * MCP clients receive tool schemas as fresh JSON on every listing, so the same
 * schema arrives as a new object again and again. This feeds the population's
 * Zipf call sequence to a ValidatorCache where every call brings a fresh
 * structural copy of its schema (prepared in advance), keyed by identity and
 * by content, next to the identity key with the registered schema objects.
 */
export function runCacheKeyComparison(population: Population, callCount: number): CacheKeyResult {
  const order = zipfCallOrder(population.tools.length, callCount, 29);
  // A first pass compiles every schema once, so V8's code cache and the library's memo of
  // already-checked schema objects are equally warm for every row, whatever ran before.
  measure(population, order, "identity", false);
  const rows = [measure(population, order, "identity", false), measure(population, order, "identity", true), measure(population, order, "content", true)];
  return { cacheSize: DEFAULT_CACHE_SIZE, calls: callCount, rows };
}

function measure(population: Population, order: Int32Array, key: CacheKey, freshCopies: boolean): CacheKeyRow {
  const schemas = Array.from(order, (index): TSchema => {
    const schema = population.tools[index]!.parameters;
    return freshCopies ? (JSON.parse(JSON.stringify(schema)) as TSchema) : schema;
  });
  const cache = new ValidatorCache(DEFAULT_CACHE_SIZE, { key });
  const started = process.hrtime.bigint();
  for (let call = 0; call < order.length; call++) {
    const index = order[call]!;
    cache.get(population.tools[index]!.name, schemas[call]!).Check(population.calls[index]!.arguments);
  }
  const microseconds = Number(process.hrtime.bigint() - started) / 1e3;
  const { hits, misses } = cache.stats();
  const label = `${key} key, ${freshCopies ? "fresh schema copy per call" : "registered schema objects"}`;
  return { label, key, freshCopies, misses, hitRate: hits / (hits + misses), microsecondsPerCall: microseconds / order.length };
}
