import { LRUCache } from "lru-cache";
import type { TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { ToolDefinitionError } from "./errors.js";
import type { CacheStats } from "./types.js";

/**
 * The default bound of a validator cache: enough for every tool of a large
 * agent (hundreds of tools over several MCP servers) while bounding memory.
 */
export const DEFAULT_CACHE_SIZE = 1024;

/**
 * Compiled validators in an LRU keyed by the schema object's identity:
 * compiled on first use, shared by every tool that uses the same schema
 * object, and evicted least recently used first once `max` is reached.
 */
export class ValidatorCache {
  readonly #validators: LRUCache<object, Validator>;
  #hits = 0;
  #misses = 0;
  #evictions = 0;
  #compileMs = 0;

  /** @param max the bound: a positive integer, or `Infinity` for no bound. */
  constructor(max: number = DEFAULT_CACHE_SIZE) {
    if (!(max === Infinity || (Number.isInteger(max) && max > 0))) {
      throw new TypeError(`cacheSize must be a positive integer or Infinity, got ${String(max)}`);
    }
    const onDispose = (_value: Validator, _key: object, reason: LRUCache.DisposeReason): void => {
      if (reason === "evict") this.#evictions++;
    };
    this.#validators =
      max === Infinity
        ? new LRUCache({ maxSize: Number.MAX_SAFE_INTEGER, sizeCalculation: () => 1, dispose: onDispose })
        : new LRUCache({ max, dispose: onDispose });
  }

  /**
   * The validator of `schema`, compiled now if it is not cached.
   * @throws ToolDefinitionError when the schema cannot compile.
   */
  get(toolName: string, schema: TSchema): Validator {
    const cached = this.#validators.get(schema);
    if (cached !== undefined) {
      this.#hits++;
      return cached;
    }
    this.#misses++;
    const validator = this.#compile(toolName, schema);
    this.#validators.set(schema, validator);
    return validator;
  }

  /** Whether a validator for `schema` is cached now (does not touch recency or figures). */
  has(schema: TSchema): boolean {
    return this.#validators.has(schema);
  }

  /** The figures: size, bound, hits, misses, evictions and compile time. */
  stats(): CacheStats {
    return {
      size: this.#validators.size,
      max: this.#validators.max === 0 ? Infinity : this.#validators.max,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
      compileMs: this.#compileMs,
    };
  }

  #compile(toolName: string, schema: TSchema): Validator {
    const started = performance.now();
    try {
      return Compile(schema);
    } catch (error) {
      throw new ToolDefinitionError(toolName, `its parameters schema cannot compile (${error instanceof Error ? error.message : String(error)})`, {
        cause: error,
      });
    } finally {
      this.#compileMs += performance.now() - started;
    }
  }
}
