import { LRUCache } from "lru-cache";
import type { TSchema } from "typebox";
import { Environment } from "typebox/system";
import { canonicalJson } from "../schema/canonical.js";
import { objectPrototypePolluted } from "../objects.js";
import { beginCheck, endCheck } from "../schema/equality.js";
import { ToolDefinitionError } from "../errors.js";
import { issueLines, MAX_ISSUES } from "../text/issues.js";
import { SchemaExplainer } from "./explainer.js";
import { type FusedCopy, fusedFromSource, fusedSource } from "./fused.js";
import { type JsonReader, jsonReaderFromSource, jsonReaderSource } from "./json-reader.js";
import { fromPrecompiled, type PrecompiledValidators } from "./precompiled.js";
import { assertSoundSchema, checkNeedsOf } from "../schema/soundness.js";
import { compileSchema } from "./compile.js";
import { CompiledOnSecondUse, type TypeBoxCheck } from "./second-use.js";
import { transformSchema } from "./transform.js";
import type { CacheStats, CompileStats } from "../types.js";

/**
 * The default bound of a validator cache: enough for every tool of a large
 * agent (hundreds of tools over several MCP servers) while bounding memory.
 */
export const DEFAULT_CACHE_SIZE = 1024;

/** One schema's entry in the cache: its compiled check, and the explanation of a failed check. */
export interface CompiledValidator {
  /** Whether `value` matches the schema. */
  Check(value: unknown): boolean;
  /**
   * Why `value` does not match, as `<JSON Pointer>: <message>` lines (at most `MAX_ISSUES`, at
   * least one), at a cost bounded by the value's size. Only for a value `Check` refused.
   */
  explain(value: unknown): string[];
  /** Whether `Check` runs generated code (false: TypeBox's slower interpreter). */
  IsAccelerated(): boolean;
  /**
   * The schema's fused copy-and-check, where code generation is allowed and the schema's root is
   * a typed object schema; `undefined` otherwise (the plain copy, then `Check`).
   */
  readonly fused: FusedCopy | undefined;
  /**
   * The schema's JSON reader (see `JsonReader`), where code generation is allowed and the schema's
   * root is an object schema (`type: "object"`); `undefined` otherwise (`JSON.parse`, then `Check`).
   */
  readonly reader: JsonReader | undefined;
  /**
   * Compiles the check now, where it would compile on its second use (see `CompiledOnSecondUse`).
   * @throws ToolDefinitionError when the schema cannot compile
   */
  compile(): void;
}

/** What a schema is to the tool that asks for its validator: its `parameters`, or its `outputSchema`. */
export type SchemaRole = "parameters" | "outputSchema";

/**
 * Where a caller of {@link ValidatorCache.getFor} (a registered tool) keeps the validator it was
 * given, so that its next calls need not look it up: the cache fills it in and empties it when the
 * validator leaves the cache. Make it with {@link validatorSlot}; only the cache writes it.
 */
export interface ValidatorSlot {
  /** The validator while it is cached; `undefined` before the first use and after its eviction. */
  validator: CompiledValidator | undefined;
  /** The validator's key in the cache. */
  key: object | string | undefined;
  /** When the slot's validator was last used, on the cache's clock of uses. */
  lastUse: number;
}

/** An empty {@link ValidatorSlot}. */
export function validatorSlot(): ValidatorSlot {
  return { validator: undefined, key: undefined, lastUse: 0 };
}

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
  key?: CacheKey | undefined;
  /**
   * Validators generated ahead of time by `precompileValidators`, for
   * environments that forbid code generation (a Content-Security-Policy
   * without `unsafe-eval`). Schemas not found there compile as usual.
   */
  precompiled?: PrecompiledValidators | undefined;
}

/**
 * Compiled validators in an LRU: compiled on first use, shared by every tool
 * whose schema has the same key, and evicted least recently used first once
 * `max` is reached.
 */
export class ValidatorCache {
  readonly #validators: LRUCache<object | string, CompiledValidator>;
  readonly #contentKeys: WeakMap<object, object | string> | undefined;
  readonly #precompiled: PrecompiledValidators | undefined;
  #hits = 0;
  #misses = 0;
  #evictions = 0;
  #compileMs = 0;
  #interpreted = 0;
  #lastKey: object | string | undefined;
  #lastValidator: CompiledValidator | undefined;
  /** The slots holding each cached key's validator, emptied when it leaves the cache. */
  readonly #slots = new Map<object | string, Set<ValidatorSlot>>();
  /** Slots used since the LRU last heard of their uses, to be replayed in order before it next reorders. */
  #pending: ValidatorSlot[] = [];
  /** Counts uses through slots, for their order. */
  #clock = 0;
  /** The clock when the pending uses were last replayed: a slot used since then is pending. */
  #replayedAt = 0;
  /** The slot used last, when nothing has asked the LRU since: its next use changes no order. */
  #lastSlot: ValidatorSlot | undefined;

  /** @param max the bound: a positive integer, or `Infinity` for no bound. */
  constructor(max: number = DEFAULT_CACHE_SIZE, options: ValidatorCacheOptions = {}) {
    if (!(max === Infinity || (Number.isInteger(max) && max > 0))) {
      throw new TypeError(`cacheSize must be a positive integer or Infinity, got ${String(max)}`);
    }
    const key = options.key ?? "identity";
    if (key !== "identity" && key !== "content") throw new TypeError(`cacheKey must be "identity" or "content", got ${String(key)}`);
    this.#contentKeys = key === "content" ? new WeakMap() : undefined;
    this.#precompiled = options.precompiled;
    const onDispose = (_value: CompiledValidator, key: object | string, reason: LRUCache.DisposeReason): void => {
      if (reason === "evict") this.#evictions++;
      if (key === this.#lastKey) this.#lastValidator = undefined;
      const slots = this.#slots.get(key);
      if (slots !== undefined) {
        for (const slot of slots) slot.validator = undefined;
        this.#slots.delete(key);
      }
    };
    this.#validators =
      max === Infinity
        ? new LRUCache({ maxSize: Number.MAX_SAFE_INTEGER, sizeCalculation: () => 1, dispose: onDispose })
        : new LRUCache({ max, dispose: onDispose });
  }

  /**
   * The validator of `schema`, compiled now if it is not cached.
   * @param role what the schema is to `toolName`, for the error when it cannot compile (a cached
   * validator keeps the name and role of the tool that first asked for it)
   * @throws ToolDefinitionError when the schema cannot compile.
   */
  get(toolName: string, schema: TSchema, role: SchemaRole = "parameters"): CompiledValidator {
    return this.#lookUp(this.#keyOf(schema), toolName, schema, role);
  }

  /** {@link ValidatorCache.get} by `key`, the schema's key in the LRU. */
  #lookUp(key: object | string, toolName: string, schema: TSchema, role: SchemaRole): CompiledValidator {
    // Before the LRU is asked (and may reorder or evict): the uses made through slots, in order.
    if (this.#pending.length > 0) this.#replay();
    this.#lastSlot = undefined;
    // The key looked up last is already the most recent in the LRU: a repeat needs no reordering.
    if (key === this.#lastKey && this.#lastValidator !== undefined) {
      this.#hits++;
      return this.#lastValidator;
    }
    let validator = this.#validators.get(key);
    if (validator !== undefined) {
      this.#hits++;
    } else {
      this.#misses++;
      validator = this.#compile(toolName, schema, role);
      this.#validators.set(key, validator);
    }
    this.#lastKey = key;
    this.#lastValidator = validator;
    return validator;
  }

  /**
   * {@link ValidatorCache.get} for a caller that keeps the validator in `slot` (a registered
   * tool's): while the validator stays cached, the slot gives it and the LRU is not asked, which
   * with many tools called in turn is most of a lookup's cost. Each such use is counted as a hit
   * and replayed into the LRU's order, in the order the uses were made, before the LRU is next
   * asked for anything: so the LRU evicts what it would have evicted had every use asked it.
   * @throws ToolDefinitionError when the schema cannot compile
   */
  getFor(slot: ValidatorSlot, toolName: string, schema: TSchema, role: SchemaRole = "parameters"): CompiledValidator {
    const held = slot.validator;
    if (held !== undefined) {
      this.#hits++;
      // The same tool again (one tool called in a loop, say): its last use is already the latest.
      if (slot !== this.#lastSlot) this.#used(slot);
      return held;
    }
    const key = this.#keyOf(schema);
    const validator = this.#lookUp(key, toolName, schema, role);
    let slots = this.#slots.get(key);
    if (slots === undefined) this.#slots.set(key, (slots = new Set()));
    slots.add(slot);
    slot.validator = validator;
    slot.key = key;
    // Just used through the LRU: no use to replay.
    slot.lastUse = this.#clock;
    this.#lastSlot = slot;
    return validator;
  }

  /** Records a use through `slot`, to be replayed into the LRU's order. */
  #used(slot: ValidatorSlot): void {
    if (slot.lastUse <= this.#replayedAt) this.#pending.push(slot);
    slot.lastUse = ++this.#clock;
    this.#lastSlot = slot;
  }

  /** Forgets `slot` (its tool was removed): the cache no longer fills it in, nor keeps it; its uses so far still count. */
  release(slot: ValidatorSlot): void {
    if (slot.validator !== undefined && slot.lastUse > this.#replayedAt) this.#replay();
    if (slot.key !== undefined) this.#slots.get(slot.key)?.delete(slot);
    if (slot === this.#lastSlot) this.#lastSlot = undefined;
    slot.validator = undefined;
    slot.key = undefined;
  }

  /** Tells the LRU of the uses made through slots since the last replay, oldest first: each moves its key to the most recent place. */
  #replay(): void {
    const pending = this.#pending;
    this.#pending = [];
    this.#replayedAt = this.#clock;
    // Every pending slot is filled: the LRU evicts only in `#lookUp`, after a replay, and `release`
    // replays a pending slot before emptying it.
    pending.sort((left, right) => left.lastUse - right.lastUse);
    for (const slot of pending) this.#validators.get(slot.key!);
    const latest = pending.at(-1);
    if (latest !== undefined) {
      this.#lastKey = latest.key;
      this.#lastValidator = latest.validator;
    }
  }

  /** The cache's figures: size, bound, hits, misses and evictions. */
  stats(): CacheStats {
    return {
      size: this.#validators.size,
      max: this.#validators.max === 0 ? Infinity : this.#validators.max,
      hits: this.#hits,
      misses: this.#misses,
      evictions: this.#evictions,
    };
  }

  /** What compiling has cost, whether code generation is allowed, and how many validators run interpreted. */
  compileStats(): CompileStats {
    return { compileMs: this.#compileMs, codeGeneration: Environment.CanEvaluate(), interpreted: this.#interpreted };
  }

  /** The schema's key in the LRU: the schema itself, or its canonical text under the content key. */
  #keyOf(schema: TSchema): object | string {
    return this.#contentKeys === undefined ? schema : this.#contentKeyOf(schema, this.#contentKeys);
  }

  #contentKeyOf(schema: TSchema, memo: WeakMap<object, object | string>): object | string {
    let key = memo.get(schema);
    if (key === undefined) {
      key = canonicalJson(schema) ?? schema;
      memo.set(schema, key);
    }
    return key;
  }

  #compile(toolName: string, schema: TSchema, role: SchemaRole): CompiledValidator {
    assertSoundSchema(toolName, schema);
    const started = performance.now();
    try {
      const precompiled = this.#precompiled === undefined ? undefined : fromPrecompiled(this.#precompiled, schema);
      // Where code generation is allowed, TypeBox compiles on the schema's second use (its first is interpreted).
      const compiled: TypeBoxCheck =
        precompiled ??
        (Environment.CanEvaluate()
          ? new CompiledOnSecondUse(transformSchema(schema), { took: (milliseconds) => (this.#compileMs += milliseconds), failed: (error) => cannotCompile(toolName, role, error) })
          : compileSchema(schema, true));
      if (!compiled.IsAccelerated()) this.#interpreted++;
      // Precompiled code brings its generated functions; else each is generated on a later use, where code generation is allowed.
      const generate = precompiled === undefined && Environment.CanEvaluate();
      const fused = new GeneratedOnUse(precompiled?.fused, generate ? () => fusedOf(schema) : undefined);
      const reader = new GeneratedOnUse(precompiled?.reader, generate ? () => readerOf(schema) : undefined);
      const needs = checkNeedsOf(schema);
      const Entry = needs.namesInheritedProperties ? OwnPropertiesEntry : ValidatorEntry;
      return new Entry(compiled, schema, fused, reader, needs.uniqueItems);
    } catch (error) {
      throw cannotCompile(toolName, role, error);
    } finally {
      this.#compileMs += performance.now() - started;
    }
  }
}

/** A compiled TypeBox validator beside its explainer (made on the first refusal); TypeBox's own object is never modified. */
class ValidatorEntry implements CompiledValidator {
  readonly #validator: TypeBoxCheck;
  readonly #schema: object;
  #explainer: SchemaExplainer | undefined;
  readonly #fused: GeneratedOnUse<FusedCopy>;
  readonly #reader: GeneratedOnUse<JsonReader>;
  /** Whether a check shares its items' identities among its `uniqueItems` arrays (see beginCheck). */
  readonly #sharesIdentities: boolean;

  /**
   * @param fused the fused copy-and-check (see {@link GeneratedOnUse})
   * @param reader the JSON reader
   * @param uniqueItems whether the schema has `uniqueItems: true`
   */
  constructor(validator: TypeBoxCheck, schema: object, fused: GeneratedOnUse<FusedCopy>, reader: GeneratedOnUse<JsonReader>, uniqueItems: boolean) {
    this.#validator = validator;
    this.#schema = schema;
    this.#fused = fused;
    this.#reader = reader;
    this.#sharesIdentities = uniqueItems;
  }

  /** The fused copy-and-check, counting a use of it (calls with object arguments). */
  get fused(): FusedCopy | undefined {
    return this.#fused.use();
  }

  /** The JSON reader, counting a use of it (calls with JSON text). */
  get reader(): JsonReader | undefined {
    return this.#reader.use();
  }

  Check(value: unknown): boolean {
    // TypeBox tests a property's presence with `in`: once polluting code has given Object.prototype
    // a property, every object would seem to have it (a required `isAdmin` met by an inherited
    // one), so only own properties are checked then.
    return this.checkAsGiven(objectPrototypePolluted() ? withNullPrototypes(value, new Map()) : value);
  }

  /** The compiled check of `value` itself. */
  protected checkAsGiven(value: unknown): boolean {
    if (!this.#sharesIdentities) return this.#validator.Check(value);
    // One check of one value: its unique arrays share what they learn of it (see beginCheck).
    beginCheck();
    try {
      return this.#validator.Check(value);
    } finally {
      endCheck();
    }
  }

  compile(): void {
    if (this.#validator instanceof CompiledOnSecondUse) this.#validator.compile();
  }

  explain(value: unknown): string[] {
    // One more than shown, to learn whether there are more.
    this.#explainer ??= new SchemaExplainer(this.#schema);
    return issueLines(this.#explainer.explain(value, { maxIssues: MAX_ISSUES + 1 }));
  }

  IsAccelerated(): boolean {
    return this.#validator.IsAccelerated();
  }
}

/**
 * Checks null-prototype copies of the value, for schemas that name inherited
 * properties: TypeBox tests presence with `in`, which would otherwise find
 * `toString` or `constructor` on every object.
 */
class OwnPropertiesEntry extends ValidatorEntry {
  override Check(value: unknown): boolean {
    return this.checkAsGiven(withNullPrototypes(value, new Map()));
  }
}

function withNullPrototypes(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(withNullPrototypes(item, copies));
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  copies.set(value, copy);
  for (const key of Object.keys(value)) copy[key] = withNullPrototypes((value as Record<string, unknown>)[key], copies);
  return copy;
}

/** The error of a schema TypeBox cannot compile, for the tool that first used it, in the role it had there. */
function cannotCompile(toolName: string, role: SchemaRole, error: unknown): ToolDefinitionError {
  const schema = role === "parameters" ? "its parameters schema" : "its outputSchema";
  return new ToolDefinitionError(toolName, `${schema} cannot compile (${error instanceof Error ? error.message : String(error)})`, { cause: error });
}

/**
 * The use of a schema on which its fused copy-and-check is generated, counting calls with object
 * arguments; and its JSON reader, counting calls with JSON text. Measured on this project's
 * bench schemas and 300 generated tools: generating costs 70 µs (small) to 600 µs (large, or a
 * typical generated tool with its first run), and pays back after a few hundred to a few thousand
 * calls.
 */
export const FUSED_FROM_USE = 64;

/**
 * A function generated for a schema (its fused copy-and-check, its JSON reader), given at hand
 * (precompiled) or generated on its {@link FUSED_FROM_USE}th use, so that a tool called a few times
 * never pays for it, and its first calls cost what the plain path costs.
 */
class GeneratedOnUse<T> {
  #generated: T | undefined;
  #generate: (() => T | undefined) | undefined;
  #uses = 0;

  /**
   * @param generated the function, when it is at hand (precompiled)
   * @param generate what generates it on a later use, where code generation is allowed
   */
  constructor(generated: T | undefined, generate: (() => T | undefined) | undefined) {
    this.#generated = generated;
    this.#generate = generate;
  }

  /** The function, once it is generated; `undefined` before, and for a schema that has none. */
  use(): T | undefined {
    const generated = this.#generated;
    if (generated !== undefined || this.#generate === undefined) return generated;
    if (++this.#uses < FUSED_FROM_USE) return undefined;
    this.#generated = this.#generate();
    this.#generate = undefined;
    return this.#generated;
  }
}

/** The fused copy-and-check of a schema (generated code), or `undefined` when its root is not a schema it can check. */
function fusedOf(schema: object): FusedCopy | undefined {
  const source = fusedSource(schema);
  return source === undefined ? undefined : fusedFromSource(source);
}

/** The JSON reader of a schema (generated code), or `undefined` when its root is not an object schema. */
function readerOf(schema: object): JsonReader | undefined {
  const source = jsonReaderSource(schema);
  return source === undefined ? undefined : jsonReaderFromSource(source);
}
