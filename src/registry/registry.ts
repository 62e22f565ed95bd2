import type { TSchema } from "typebox";
import { checkArguments, DEFAULT_MAX_ARGUMENT_BYTES, parsedArguments, privateCopy, repairAndCheck } from "../validation/arguments.js";
import {
  ToolArgumentsValidationError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolRegistryError,
  type ToolTimeoutError,
  UnknownToolError,
} from "../errors.js";
import { NEVER_ABORTED_SIGNAL } from "../dispatch/context.js";
import { AbortFanOut, runGuarded } from "../dispatch/guarded.js";
import { ROOT_ISSUES } from "../text/issues.js";
import { modelNamesOf } from "../text/model-names.js";
import { isPlainObject } from "../objects.js";
import type { PrecompiledValidators } from "../validation/precompiled.js";
import type { ArgumentRepair } from "../validation/repair.js";
import { toFailure } from "../text/results.js";
import { canonicalJson } from "../schema/canonical.js";
import { assertSoundSchema } from "../schema/soundness.js";
import { objectRootProblem } from "../schema/plain.js";
import { snapshotSchema } from "../schema/snapshot.js";
import { suggestNames } from "../text/suggest.js";
import type {
  CacheStats,
  CompileStats,
  DispatchAllOptions,
  DispatchOptions,
  ToolCallContent,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from "../types.js";
import { type CacheKey, type CompiledValidator, DEFAULT_CACHE_SIZE, ValidatorCache } from "../validation/cache.js";

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
   * with a {@link ToolTimeoutError}, in milliseconds. No limit when unset.
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
  repair?: (report: RepairReport) => void;
}

/** What a registry's `repair` callback receives for each repaired call. */
export interface RepairReport {
  toolName: string;
  toolCallId: string;
  /** Each repair: its JSON Pointer and the JSON type before and after (never the value). */
  repairs: readonly ArgumentRepair[];
}

/** A change to a registry's tools, as {@link ToolRegistry.onChange} listeners receive it. */
export interface ToolRegistryChange {
  /** `"register"` when the tool was added, `"unregister"` when it was removed. */
  readonly type: "register" | "unregister";
  /** The tool's name. */
  readonly name: string;
}

/** Per-tool options of `register`. */
export interface RegisterOptions {
  /** Overrides the registry's `timeoutMs` for this tool; `Infinity` lifts the registry's limit. */
  timeoutMs?: number;
}

interface RegisteredTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler<TSchema>;
  readonly timeoutMs: number | undefined;
}

/** Letters, digits, `_`, `-`, `.` and `:`; at most 128 characters (what MCP allows, dots included). */
const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

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
  readonly #snapshots = new WeakMap<object, { readonly text: string; readonly snapshot: TSchema }>();
  readonly #validators: ValidatorCache;
  readonly #timeoutMs: number | undefined;
  readonly #maxArgumentBytes: number;
  readonly #repair: ((report: RepairReport) => void) | undefined;
  // Created by the first onChange: a registry nobody listens to pays one field check per change.
  #changeListeners: Set<(change: ToolRegistryChange) => void> | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    this.#validators = new ValidatorCache(options.cacheSize ?? DEFAULT_CACHE_SIZE, {
      ...(options.cacheKey === undefined ? {} : { key: options.cacheKey }),
      ...(options.precompiled === undefined ? {} : { precompiled: options.precompiled }),
    });
    this.#timeoutMs = checkTimeout("timeoutMs", options.timeoutMs);
    const maxArgumentBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    if (!(Number.isSafeInteger(maxArgumentBytes) && maxArgumentBytes > 0)) {
      throw new TypeError(`maxArgumentBytes must be a positive integer, got ${String(maxArgumentBytes)}`);
    }
    this.#maxArgumentBytes = maxArgumentBytes;
    if (options.repair !== undefined && typeof options.repair !== "function") {
      throw new TypeError(`repair must be a function that receives each repair report, got ${typeof options.repair}`);
    }
    this.#repair = options.repair;
  }

  /**
   * Adds a tool. Nothing is compiled yet: the schema compiles on first use
   * (or in {@link ToolRegistry.compileAll}).
   * @throws ToolDefinitionError for an empty or invalid name, a duplicate name,
   * a missing description, a `parameters` that is not a valid JSON Schema
   * (checked against the draft-07 or 2020-12 meta-schema, with every `$ref`
   * resolvable), or a handler that is not a function.
   */
  register<TParameters extends TSchema>(
    definition: ToolDefinition<TParameters>,
    handler: NoInfer<ToolHandler<TParameters>>,
    options: RegisterOptions = {},
  ): this {
    const name = checkDefinition(definition);
    if (this.#tools.has(name)) throw new ToolDefinitionError(name, "a tool with this name is already registered");
    if (typeof handler !== "function") throw new ToolDefinitionError(name, `the handler must be a function, got ${typeof handler}`);
    const timeoutMs = checkTimeout("timeoutMs", options.timeoutMs);
    const parameters = this.#snapshotOf(name, definition.parameters);
    const registered: ToolDefinition = Object.freeze({ ...(definition as ToolDefinition), parameters });
    this.#tools.set(name, { name, definition: registered, handler: handler as ToolHandler<TSchema>, timeoutMs });
    if (this.#changeListeners !== undefined) this.#changed("register", name);
    return this;
  }

  /**
   * The private, frozen snapshot of a tool's schema, checked for soundness. Tools registered
   * with one unchanged schema object share one snapshot, and so one validator.
   */
  #snapshotOf(toolName: string, schema: object): TSchema {
    const text = canonicalJson(schema);
    const known = this.#snapshots.get(schema);
    if (known !== undefined && text !== undefined && known.text === text) return known.snapshot;
    const taken = snapshotSchema(schema);
    if ("problem" in taken) throw new ToolDefinitionError(toolName, `its parameters schema is invalid at ${taken.problem.pointer}: ${taken.problem.problem}`);
    const snapshot = taken.snapshot as TSchema;
    assertSoundSchema(toolName, snapshot);
    const root = objectRootProblem(snapshot);
    if (root !== undefined) throw new ToolDefinitionError(toolName, `its parameters schema is invalid at ${root.pointer}: ${root.problem}`);
    if (text !== undefined) this.#snapshots.set(schema, { text, snapshot });
    return snapshot;
  }

  /** Removes a tool; returns whether it was registered. */
  unregister(name: string): boolean {
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

  /** The definition registered under `name`, or `undefined`. */
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
    for (const { name, definition } of this.#tools.values()) this.#validators.get(name, definition.parameters);
  }

  /** The validator cache's figures: `{ size, max, hits, misses, evictions }`. */
  cacheStats(): CacheStats {
    return this.#validators.stats();
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
   * @throws ToolExecutionError when the handler threw or rejected ({@link ToolTimeoutError} when it ran out of time)
   * @throws ToolAbortedError when `options.signal` aborted
   * @throws ToolDefinitionError when the tool's schema cannot compile
   */
  dispatch(call: ToolCallContent, options?: DispatchOptions): Promise<unknown> {
    return this.#dispatch(call, options, undefined, undefined);
  }

  #dispatch(
    call: ToolCallContent,
    options: DispatchOptions | undefined,
    onRepairs: ((repairs: readonly ArgumentRepair[]) => void) | undefined,
    fanOut: AbortFanOut | undefined,
  ): Promise<unknown> {
    // Not an async function: a handler that returns a plain value costs no extra microtask turn.
    let tool: RegisteredTool | undefined;
    let validator: CompiledValidator | undefined;
    let toolCallId = "";
    let value: object | undefined;
    let args: unknown;
    try {
      // Reading a hostile call object (a throwing getter, a revoked proxy) may throw: see the catch.
      const name = call?.name;
      tool = typeof name === "string" ? this.#tools.get(name) : undefined;
      if (tool === undefined) return Promise.reject(this.#unknownTool(name));
      toolCallId = idText(call.id);
      validator = this.#validators.get(tool.name, tool.definition.parameters);
      const raw = call.arguments;
      // Every gate (size, JSON, plain object, copy) comes before the check; only a value that passed them may be repaired.
      value = typeof raw === "string" ? parsedArguments(tool.name, raw, this.#maxArgumentBytes) : privateCopy(tool.name, raw);
      args = checkArguments(tool.name, validator, value);
    } catch (error) {
      // Everything above throws typed errors, except reading the call itself: a malformed call is typed here.
      if (!(error instanceof ToolRegistryError)) {
        return Promise.reject(tool === undefined ? this.#unknownTool(undefined) : new ToolArgumentsValidationError(tool.name, [ROOT_ISSUES.notPlainObject]));
      }
      if (tool === undefined || validator === undefined || value === undefined || this.#repair === undefined || !(error instanceof ToolArgumentsValidationError)) {
        return Promise.reject(error);
      }
      return this.#repairAndRun(tool, validator, toolCallId, value, options, error, onRepairs, fanOut);
    }
    return this.#run(tool, toolCallId, args, options, fanOut);
  }

  /** The failure path with repair on: repair what is unambiguous, report it, and run; or reject with the original error. */
  #repairAndRun(
    tool: RegisteredTool,
    validator: CompiledValidator,
    toolCallId: string,
    value: object,
    options: DispatchOptions | undefined,
    error: ToolArgumentsValidationError,
    onRepairs: ((repairs: readonly ArgumentRepair[]) => void) | undefined,
    fanOut: AbortFanOut | undefined,
  ): Promise<unknown> {
    try {
      const repaired = repairAndCheck(validator, tool.definition.parameters, value);
      if (repaired === undefined) return Promise.reject(error);
      const repairs = Object.freeze(repaired.repairs);
      this.#repair!({ toolName: tool.name, toolCallId, repairs });
      onRepairs?.(repairs);
      return this.#run(tool, toolCallId, repaired.value, options, fanOut);
    } catch (failure) {
      return Promise.reject(failure);
    }
  }

  /**
   * Calls the handler with checked arguments, under the caller's signal and the tool's time limit if any.
   * `fanOut` is the caller's signal as `dispatchAll` shares it among its calls.
   */
  #run(tool: RegisteredTool, toolCallId: string, args: unknown, options: DispatchOptions | undefined, fanOut: AbortFanOut | undefined): Promise<unknown> {
    const toolName = tool.name;
    const signal = options?.signal;
    const timeoutMs = tool.timeoutMs ?? this.#timeoutMs;
    if (signal !== undefined || (timeoutMs !== undefined && timeoutMs !== Infinity)) {
      if (signal !== undefined && !(signal instanceof AbortSignal)) {
        return Promise.reject(new TypeError(`signal must be an AbortSignal, got ${typeof signal}`));
      }
      const caller = signal === undefined ? undefined : (fanOut ?? new AbortFanOut(signal));
      return runGuarded(tool.handler, args, toolName, toolCallId, caller, timeoutMs === Infinity ? undefined : timeoutMs);
    }
    let result: unknown;
    try {
      result = tool.handler(args, { toolCallId, toolName, signal: NEVER_ABORTED_SIGNAL });
    } catch (error) {
      return Promise.reject(new ToolExecutionError(toolName, toolCallId, error));
    }
    if (typeof result !== "object" || result === null) return Promise.resolve(result);
    // A promise (or any thenable) is adopted; its rejection is wrapped like a thrown error.
    return new Promise<unknown>((resolve) => resolve(result)).catch((error: unknown) =>
      Promise.reject(new ToolExecutionError(toolName, toolCallId, error)),
    );
  }

  /**
   * Runs many tool calls, at most `concurrency` at a time, and never rejects
   * for a failed call: each gets a {@link ToolResult}, in input order, failures
   * with `content` written for the model.
   * @throws TypeError when `calls` is not an array, or `concurrency` is not a positive integer or `Infinity`
   */
  async dispatchAll(calls: readonly ToolCallContent[], options: DispatchAllOptions = {}): Promise<ToolResult[]> {
    if (!Array.isArray(calls)) throw new TypeError(`calls must be an array of tool calls, got ${calls === null ? "null" : typeof calls}`);
    options ??= {};
    const concurrency = options.concurrency ?? Infinity;
    if (!(concurrency === Infinity || (Number.isInteger(concurrency) && concurrency > 0))) {
      throw new TypeError(`concurrency must be a positive integer or Infinity, got ${String(concurrency)}`);
    }
    const dispatchOptions: DispatchOptions = options.signal === undefined ? {} : { signal: options.signal };
    // One listener on the caller's signal for all the calls, however many run at once.
    const fanOut = options.signal instanceof AbortSignal ? new AbortFanOut(options.signal) : undefined;
    const results = new Array<ToolResult>(calls.length);
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < calls.length) {
        const index = next++;
        results[index] = await this.#settle(calls[index]!, dispatchOptions, fanOut);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, work));
    return results;
  }

  async #settle(call: ToolCallContent, options: DispatchOptions, fanOut: AbortFanOut | undefined): Promise<ToolResult> {
    const toolCallId = idText(readSafely(call, "id"));
    const name = readSafely(call, "name");
    const toolName = typeof name === "string" ? name : "";
    let repairs: readonly ArgumentRepair[] | undefined;
    try {
      const value = await this.#dispatch(
        call,
        options,
        (made) => {
          repairs = made;
        },
        fanOut,
      );
      return repairs === undefined ? { toolCallId, toolName, isError: false, value } : { toolCallId, toolName, isError: false, value, repairs };
    } catch (error) {
      // A call read through a name map is answered in the names the model was sent.
      return toFailure(toolCallId, toolName, error, modelNamesOf(call));
    }
  }

  #unknownTool(name: unknown): UnknownToolError {
    const shown = typeof name === "string" ? name : name === undefined || name === null ? "" : String(name);
    const names = [...this.#tools.keys()];
    return new UnknownToolError(shown, suggestNames(shown, names), names);
  }
}

/** A call id as text: a string as is, a number (some clients number their calls) as its digits, else "". */
function idText(id: unknown): string {
  return typeof id === "string" ? id : typeof id === "number" && Number.isFinite(id) ? String(id) : "";
}

/** A field of a call for a result: a throwing getter or a revoked proxy reads as nothing. */
function readSafely(call: ToolCallContent, field: "name" | "id"): unknown {
  try {
    return (call as unknown as Record<string, unknown> | null | undefined)?.[field];
  } catch {
    return undefined;
  }
}

function checkDefinition(definition: ToolDefinition): string {
  if (typeof definition !== "object" || definition === null) {
    throw new ToolDefinitionError("", `the definition must be an object, got ${definition === null ? "null" : typeof definition}`);
  }
  const { name, description, parameters } = definition;
  if (typeof name !== "string" || name.length === 0) throw new ToolDefinitionError(String(name ?? ""), "the name must be a non-empty string");
  if (!TOOL_NAME.test(name)) {
    throw new ToolDefinitionError(name, "the name must be 1 to 128 letters, digits, '_', '-', '.' or ':'");
  }
  if (typeof description !== "string") throw new ToolDefinitionError(name, "the description must be a string");
  const vendor = schemaLibraryVendor(parameters);
  if (vendor !== undefined) throw new ToolDefinitionError(name, schemaLibraryProblem(vendor));
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new ToolDefinitionError(name, "parameters must be a JSON Schema object");
  }
  return name;
}

/**
 * The vendor of a schema object from another library (Zod, Valibot, ArkType…:
 * all carry Standard Schema's `~standard`): `""` when it names none,
 * `undefined` when `value` is not one. JSON Schema that carries `~standard`
 * hidden (what Zod 4's `z.toJSONSchema` returns) is plain data, and welcome.
 */
function schemaLibraryVendor(value: unknown): string | undefined {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return undefined;
  try {
    if (!("~standard" in value)) return undefined;
    if (isPlainObject(value) && !Object.prototype.propertyIsEnumerable.call(value, "~standard")) return undefined;
    const vendor: unknown = (value as { "~standard"?: { vendor?: unknown } })["~standard"]?.vendor;
    return typeof vendor === "string" && /^[\w.@/-]{1,40}$/.test(vendor) ? vendor : "";
  } catch {
    return undefined; // a hostile object (a revoked proxy): the checks after this one refuse it
  }
}

/** What to say about another library's schema passed as `parameters`: it is not JSON Schema, and how to get JSON Schema from it. */
function schemaLibraryProblem(vendor: string): string {
  const how = new Map([
    ["zod", "for Zod 4, z.toJSONSchema(schema)"],
    ["valibot", "for Valibot, toJsonSchema(schema) from @valibot/to-json-schema"],
    ["arktype", "for ArkType, schema.toJsonSchema()"],
  ]);
  const library = vendor === "" ? "a Standard Schema object" : `a ${vendor} schema (a Standard Schema object)`;
  const example = how.get(vendor) ?? "your schema library's JSON Schema output; for Zod 4, z.toJSONSchema(schema)";
  return `parameters is ${library}, not a JSON Schema: pass its JSON Schema instead (${example})`;
}

function checkTimeout(option: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === "number" && value > 0 && (value <= 2_147_483_647 || value === Infinity))) {
    throw new TypeError(`${option} must be a positive number of milliseconds (at most 2147483647, or Infinity for none), got ${String(value)}`);
  }
  return value;
}
