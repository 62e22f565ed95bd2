import type { TSchema } from "typebox";
import { AbortFanOut } from "../dispatch/abort-fan-out.js";
import { readCall } from "../dispatch/call-fields.js";
import { type PrepareContext, type PreparedCall, prepareCall, type RegisteredTool, type RepairReport } from "../dispatch/prepare.js";
import { RepeatedFailures } from "../dispatch/repeated-failures.js";
import { runCall } from "../dispatch/run.js";
import { milliseconds, oneOf, optionalFunction, optionalSignal, positiveInteger } from "../options.js";
import { modelNamesOf } from "../text/model-names.js";
import { toFailure } from "../text/results.js";
import type { CacheStats, CompileStats, DispatchAllOptions, FailureStats, DispatchOptions, ToolCallContent, ToolDefinition, ToolHandler, ToolResult } from "../types.js";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "../validation/arguments.js";
import { type CacheKey, type CompiledValidator, DEFAULT_CACHE_SIZE, ValidatorCache } from "../validation/cache.js";
import type { PrecompiledValidators } from "../validation/precompiled.js";
import { type RegisterOptions, ToolDefinitions } from "./definitions.js";

export type { RegisterOptions } from "./definitions.js";
export type { RepairReport } from "../dispatch/prepare.js";

/** Options of a {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /**
   * How many compiled validators the LRU keeps; `Infinity` for no bound.
   * @default 1024
   */
  cacheSize?: number;
  /**
   * How validators are keyed: by schema object (`"identity"`), or by the
   * schema's canonical JSON (`"content"`), so that fresh copies of the same
   * schema share one validator.
   * @default "identity"
   */
  cacheKey?: CacheKey;
  /**
   * How long a handler may run before its signal is aborted and the call fails
   * with a `ToolTimeoutError`, in milliseconds. No limit when unset.
   */
  timeoutMs?: number;
  /**
   * The largest JSON arguments text accepted, in UTF-8 bytes; larger text is
   * refused before it is parsed. (Object arguments were parsed by the caller.)
   * @default 16777216 (16 MiB)
   */
  maxArgumentBytes?: number;
  /**
   * Validators generated ahead of time with `precompileValidators`, for
   * environments that forbid code generation. Schemas not found there
   * compile as usual (interpreted, where code generation is forbidden).
   */
  precompiled?: PrecompiledValidators;
  /**
   * Turns on model-friendly repair and receives every repair made. Off by
   * default: arguments are strict. With it, arguments that fail the check are
   * repaired where the intent is unambiguous (`"20"` where the schema says
   * number or integer, `"true"`/`"false"` where it says boolean), checked
   * again, and, if they now pass, the handler runs on the repaired copy. Each
   * such call is reported here first (and in `dispatchAll`'s result as
   * `repairs`), never silently. Nothing else is ever converted.
   */
  onRepair?: (report: RepairReport) => void;
}

/** A change to a registry's tools, as {@link ToolRegistry.onChange} listeners receive it. */
export interface ToolRegistryChange {
  /** `"register"` when the tool was added, `"unregister"` when it was removed. */
  readonly type: "register" | "unregister";
  /** The tool's name. */
  readonly name: string;
}

/**
 * Tools registered at startup, and the one door a model's tool calls go
 * through: look-up by name, a private copy of the arguments, a strict check
 * against the tool's schema with a cached validator, then the handler.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * const parameters = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })) });
 * registry.register({ name: "read", description: "Read a file", parameters }, async ({ path, offset }) =>
 *   (await readFile(path, "utf8")).slice(offset ?? 0),
 * );
 * const results = await registry.dispatchAll(toolCallsFromTheModel);
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #definitions = new ToolDefinitions();
  readonly #validators: ValidatorCache;
  readonly #timeoutMs: number | undefined;
  /** What the prepare step reads of this registry: made once, shared by every call. */
  readonly #prepareContext: PrepareContext;
  readonly #failures = new RepeatedFailures();
  // Created by the first onChange: a registry nobody listens to pays one field check per change.
  #changeListeners: Set<(change: ToolRegistryChange) => void> | undefined;

  /** @throws TypeError for an option of the wrong kind, naming it */
  constructor(options: ToolRegistryOptions = {}) {
    const key = options.cacheKey === undefined ? undefined : oneOf("cacheKey", options.cacheKey, ["identity", "content"]);
    this.#validators = new ValidatorCache(positiveInteger("cacheSize", options.cacheSize ?? DEFAULT_CACHE_SIZE, true), {
      ...(key === undefined ? {} : { key }),
      ...(options.precompiled === undefined ? {} : { precompiled: options.precompiled }),
    });
    this.#timeoutMs = milliseconds("timeoutMs", options.timeoutMs);
    const validators = this.#validators;
    this.#prepareContext = {
      tools: this.#tools,
      validator: (tool: RegisteredTool): CompiledValidator => validators.get(tool.name, tool.definition.parameters),
      maxArgumentBytes: positiveInteger("maxArgumentBytes", options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES),
      onRepair: optionalFunction<(report: RepairReport) => void>("onRepair", options.onRepair),
      failures: this.#failures,
    };
  }

  /**
   * Adds a tool. Its schema is snapshot (later changes to the object passed in change nothing)
   * and checked now; nothing is compiled yet: the schema compiles on first use (or in
   * {@link ToolRegistry.compileAll}).
   * @throws ToolDefinitionError for an empty, invalid or taken name, a missing description, a
   * handler that is not a function, or a `parameters` that is not a sound JSON Schema (checked
   * against the draft-07 or 2020-12 meta-schema, with every `$ref` resolvable and every pattern
   * runnable in linear time; `problems` lists each, with its location)
   * @throws TypeError for a bad `timeoutMs` option
   */
  register<TParameters extends TSchema>(definition: ToolDefinition<TParameters>, handler: NoInfer<ToolHandler<TParameters>>, options: RegisterOptions = {}): this {
    const tool = this.#definitions.prepare(definition as ToolDefinition, handler, options, (name) => this.#tools.has(name));
    this.#tools.set(tool.name, tool);
    if (this.#changeListeners !== undefined) this.#changed("register", tool.name);
    return this;
  }

  /** Removes a tool; returns whether it was registered. */
  unregister(name: string): boolean {
    const tool = this.#tools.get(name);
    if (tool !== undefined) this.#failures.forget(tool);
    const removed = this.#tools.delete(name);
    if (removed && this.#changeListeners !== undefined) this.#changed("unregister", name);
    return removed;
  }

  /**
   * Calls `listener` after every `register` and every `unregister` that
   * removed a tool, synchronously, with `{ type, name }`. An MCP server made
   * by `createMcpServer` listens this way to tell its clients that the tool
   * list changed. A listener should not throw: what it throws reaches the
   * caller of `register`/`unregister` (the change is made all the same) and
   * the listeners after it are skipped.
   * @returns a function that removes the listener
   * @throws TypeError when `listener` is not a function
   */
  onChange(listener: (change: ToolRegistryChange) => void): () => void {
    if (typeof listener !== "function") throw new TypeError(`listener must be a function, got ${typeof listener}`);
    const listeners = (this.#changeListeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  #changed(type: ToolRegistryChange["type"], name: string): void {
    for (const listener of this.#changeListeners!) listener({ type, name });
  }

  /** Whether a tool of this name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The definition registered under `name` (the registry's frozen copy, with its schema's snapshot), or `undefined`. */
  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.definition;
  }

  /** Every registered definition, in registration order. */
  list(): ToolDefinition[] {
    return Array.from(this.#tools.values(), (tool) => tool.definition);
  }

  /**
   * Compiles every registered schema now, so that a schema problem surfaces
   * at startup instead of at the first call.
   * @throws ToolDefinitionError for the first schema that cannot compile
   */
  compileAll(): void {
    for (const tool of this.#tools.values()) this.#prepareContext.validator(tool);
  }

  /** The validator cache's figures: `{ size, max, hits, misses, evictions }`. */
  cacheStats(): CacheStats {
    return this.#validators.stats();
  }

  /**
   * The calls refused for their arguments: `{ argumentFailures, repeatedFailures }`. A repeated
   * failure is a tool refusing the same arguments (the same JSON text, or an equal object) with the
   * same issues as its previous refusal, with no accepted call of the tool in between; its text for
   * the model says so (see `ToolArgumentsValidationError.repeats`).
   */
  failureStats(): FailureStats {
    return this.#failures.stats();
  }

  /**
   * What compiling has cost: `{ compileMs, codeGeneration, interpreted }`.
   * `codeGeneration` is false where the runtime forbids it (a
   * Content-Security-Policy without `unsafe-eval`); validation goes on there,
   * on TypeBox's slower interpreter (`interpreted` counts such validators)
   * unless precompiled validators were given.
   */
  compileStats(): CompileStats {
    return this.#validators.compileStats();
  }

  /**
   * Runs one tool call: look-up, private copy (or parse of JSON text), strict
   * check, then the handler.
   * @returns what the handler returned, awaited
   * @throws UnknownToolError when no tool has the call's name
   * @throws ToolArgumentsValidationError when the arguments do not match (the handler did not run)
   * @throws ToolExecutionError when the handler threw or rejected (`ToolTimeoutError` when it ran out of time)
   * @throws ToolAbortedError when `options.signal` aborted
   * @throws ToolDefinitionError when the tool's schema cannot compile
   * @throws TypeError when `options.signal` is not an AbortSignal (nothing runs)
   */
  dispatch(call: ToolCallContent, options?: DispatchOptions): Promise<unknown> {
    // Not an async function: a handler that returns a plain value costs no extra microtask turn.
    let prepared: PreparedCall;
    let caller: AbortFanOut | undefined;
    try {
      const signal = options === undefined ? undefined : optionalSignal("signal", options.signal);
      caller = signal === undefined ? undefined : new AbortFanOut(signal);
      prepared = prepareCall(readCall(call), this.#prepareContext);
    } catch (error) {
      return Promise.reject(error);
    }
    return runCall(prepared, caller, this.#timeoutOf(prepared.tool));
  }

  /** The tool's time limit, else the registry's; `undefined` for none. */
  #timeoutOf(tool: RegisteredTool): number | undefined {
    const timeoutMs = tool.timeoutMs ?? this.#timeoutMs;
    return timeoutMs === Infinity ? undefined : timeoutMs;
  }

  /**
   * Runs many tool calls, at most `concurrency` at a time, and never rejects
   * for a failed call: each gets a {@link ToolResult}, in input order, failures
   * with `content` written for the model.
   * @throws TypeError before any call runs, when `calls` is not an array, `concurrency` is not a
   * positive integer or `Infinity`, or `signal` is not an AbortSignal
   */
  async dispatchAll(calls: readonly ToolCallContent[], options: DispatchAllOptions = {}): Promise<ToolResult[]> {
    if (!Array.isArray(calls)) throw new TypeError(`calls must be an array of tool calls, got ${calls === null ? "null" : typeof calls}`);
    options ??= {};
    const concurrency = positiveInteger("concurrency", options.concurrency ?? Infinity, true);
    const signal = optionalSignal("signal", options.signal);
    // One listener on the caller's signal for all the calls, however many run at once.
    const caller = signal === undefined ? undefined : new AbortFanOut(signal);
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < calls.length) {
        const index = next++;
        results[index] = await this.#settle(calls[index]!, caller);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, work));
    return results;
  }

  /** One call of `dispatchAll`, prepared and run, as a result that is never a rejection. */
  async #settle(call: ToolCallContent, caller: AbortFanOut | undefined): Promise<ToolResult> {
    const fields = readCall(call);
    let prepared: PreparedCall;
    try {
      prepared = prepareCall(fields, this.#prepareContext);
      const value = await runCall(prepared, caller, this.#timeoutOf(prepared.tool));
      const success: ToolResult = { toolCallId: fields.id, toolName: fields.shownName, isError: false, value };
      return prepared.repairs === undefined ? success : { ...success, repairs: prepared.repairs };
    } catch (error) {
      // A call read through a name map is answered in the names the model was sent.
      return toFailure(fields.id, fields.shownName, error, modelNamesOf(call));
    }
  }
}
