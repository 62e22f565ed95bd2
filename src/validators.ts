import { LRUCache } from "lru-cache";
import type { TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { canonicalJson } from "./canonical.js";
import { ToolDefinitionError } from "./errors.js";
import type { CacheStats } from "./types.js";

/**
 * The default bound of a validator cache: enough for every tool of a large
 * agent (hundreds of tools over several MCP servers) while bounding memory.
 */
export const DEFAULT_CACHE_SIZE = 1024;

/**
 * How validators are keyed:
 * - `"identity"`: by the schema object; tools sharing one schema object share one validator.
 * - `"content"`: by the schema's canonical JSON text, so that structurally identical
 *   copies (a tool list rebuilt from JSON on every request, as MCP clients do) share
 *   one validator. A schema that is not plain JSON falls back to its identity.
 */
export type CacheKey = "identity" | "content";

/** Options of a {@link ValidatorCache}. */
export interface ValidatorCacheOptions {
  /** @default "identity" */
  key?: CacheKey;
}

/**
 * Compiled validators in an LRU: compiled on first use, shared by every tool
 * whose schema has the same key, and evicted least recently used first once
 * `max` is reached.
 */
export class ValidatorCache {
  readonly #validators: LRUCache<object | string, Validator>;
  readonly #contentKeys: WeakMap<object, object | string> | undefined;
  #hits = 0;
  #misses = 0;
  #evictions = 0;
  #compileMs = 0;

  /** @param max the bound: a positive integer, or `Infinity` for no bound. */
  constructor(max: number = DEFAULT_CACHE_SIZE, options: ValidatorCacheOptions = {}) {
    if (!(max === Infinity || (Number.isInteger(max) && max > 0))) {
      throw new TypeError(`cacheSize must be a positive integer or Infinity, got ${String(max)}`);
    }
    const key = options.key ?? "identity";
    if (key !== "identity" && key !== "content") throw new TypeError(`cacheKey must be "identity" or "content", got ${String(key)}`);
    this.#contentKeys = key === "content" ? new WeakMap() : undefined;
    const onDispose = (_value: Validator, _key: object | string, reason: LRUCache.DisposeReason): void => {
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
    const key = this.#contentKeys === undefined ? schema : this.#contentKeyOf(schema, this.#contentKeys);
    const cached = this.#validators.get(key);
    if (cached !== undefined) {
      this.#hits++;
      return cached;
    }
    this.#misses++;
    const validator = this.#compile(toolName, schema);
    this.#validators.set(key, validator);
    return validator;
  }

  #contentKeyOf(schema: TSchema, memo: WeakMap<object, object | string>): object | string {
    let key = memo.get(schema);
    if (key === undefined) {
      key = canonicalJson(schema) ?? schema;
      memo.set(schema, key);
    }
    return key;
  }

  /** Whether a validator for `schema` is cached now (does not touch recency or figures). */
  has(schema: TSchema): boolean {
    return this.#validators.has(this.#contentKeys === undefined ? schema : this.#contentKeyOf(schema, this.#contentKeys));
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
