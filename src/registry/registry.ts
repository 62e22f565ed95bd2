import type { Static, TSchema } from "typebox";
import { AbortFanOut } from "../dispatch/abort-fan-out.js";
import { type CallFields, readCall } from "../dispatch/call-fields.js";
import { lookUpTool, type PrepareContext, type PreparedCall, prepareCall, prepareOrRefuse, type RegisteredTool, type RepairReport } from "../dispatch/prepare.js";
import { RepeatedFailures } from "../dispatch/repeated-failures.js";
import { DISPATCH_ALL_OPTIONS, DISPATCH_STREAM_OPTIONS, refuseUnknownDispatchOptions } from "../dispatch/dispatch-options.js";
import { ExecutionTracker, type LateSettleReport, runCall } from "../dispatch/run.js";
import { ToolAbortedError, ToolApprovalError, ToolApprovalRequiredError, ToolArgumentsValidationError, ToolDeniedError } from "../errors.js";
import { type ApprovalRequest, type ApproveOptions, ApprovalSigner, checkApprovalRequest, DEFAULT_APPROVAL_TTL_MS } from "../execution/approvals.js";
import { CallLedger, type LedgerStats } from "../execution/effects.js";
import { type Delivery, type EnvelopeOptions, type EnvelopeServices, type ExecuteOptions, executeEnvelope, makeEnvelope, type ToolCallEnvelope } from "../execution/envelope.js";
import { callFingerprint } from "../execution/fingerprint.js";
import { Governor, type Outcome } from "../execution/governor.js";
import { CallObservation, type CallObserver, observed, observing, observersTraceparent } from "../execution/observers.js";
import { checkHooks, type ToolHooks } from "../execution/hooks.js";
import { ResourceLocks } from "../policy/locks.js";
import { allowTest } from "../dispatch/allow.js";
import { recordArgumentLimit } from "./argument-limits.js";
import { recheckArguments } from "../validation/arguments.js";
import { type LedgerStore, MemoryLedger } from "../execution/ledger.js";
import { approvalLookup, describeOption, everyOption, milliseconds, oneOf, optionalFunction, optionalSignal, optionalToken, positiveInteger, refuseUnknownOptions } from "../options.js";
import { checkCalls, concurrencyOf, settleAll } from "../dispatch/settle-all.js";
import { resultValue } from "../results/value.js";
import { ArgumentReader, type ArgumentsOf } from "../streaming/argument-reader.js";
import { ArgumentStream, type ArgumentStreamOptions } from "../streaming/argument-stream.js";
import { dispatchStream, type StreamDispatchContext } from "../streaming/stream-dispatch.js";
import { deniedMessage } from "../text/denied.js";
import { modelNamesOf } from "../text/model-names.js";
import { toFailure } from "../text/results.js";
import type { CacheStats, CompileStats, DispatchAllOptions, DispatchOptions, DispatchStreamOptions, FailureStats, ToolCallContent, ToolCallDelta, ToolDefinition, ToolDenial, ToolHandler, ToolResult, ToolStreamEvent } from "../types.js";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "../validation/arguments.js";
import { type CacheKey, type CompiledValidator, DEFAULT_CACHE_SIZE, ValidatorCache } from "../validation/cache.js";
import type { PrecompiledValidators } from "../validation/precompiled.js";
import { type RegisterOptions, ToolDefinitions } from "./definitions.js";

export type { RegisterOptions } from "./definitions.js";
export type { RepairReport } from "../dispatch/prepare.js";
export type { LateSettleReport } from "../dispatch/run.js";
export type { LedgerStats } from "../execution/effects.js";
export type { CallObserver, ObservedCall } from "../execution/observers.js";
export type { ToolCallEnvelope, EnvelopeOptions, ExecuteOptions } from "../execution/envelope.js";

/** Options of a {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /**
   * How many compiled validators the LRU keeps; `Infinity` for no bound.
   * @default 1024
   */
  cacheSize?: number | undefined;
  /**
   * How validators are keyed: by schema object (`"identity"`), or by the
   * schema's canonical JSON (`"content"`), so that fresh copies of the same
   * schema share one validator.
   * @default "identity"
   */
  cacheKey?: CacheKey | undefined;
  /**
   * How long a handler may run before its signal is aborted and the call fails
   * with a `ToolTimeoutError`, in milliseconds. No limit when unset.
   */
  timeoutMs?: number | undefined;
  /**
   * The largest JSON arguments text accepted, in UTF-8 bytes; larger text is
   * refused before it is parsed. (Object arguments were parsed by the caller.)
   * @default 16777216 (16 MiB)
   */
  maxArgumentBytes?: number | undefined;
  /**
   * Validators generated ahead of time with `precompileValidators`, for
   * environments that forbid code generation. Schemas not found there
   * compile as usual (interpreted, where code generation is forbidden).
   */
  precompiled?: PrecompiledValidators | undefined;
  /**
   * Turns on model-friendly repair and receives every repair made. Off by
   * default: arguments are strict. With it, arguments that fail the check are
   * repaired where the intent is unambiguous (`"20"` where the schema says
   * number or integer, `"true"`/`"false"` where it says boolean), checked
   * again, and, if they now pass, the handler runs on the repaired copy. Each
   * such call is reported here first (and in `dispatchAll`'s result as
   * `repairs`), never silently. Nothing else is ever converted.
   */
  onRepair?: ((report: RepairReport) => void) | undefined;
  /**
   * Where `once` results, memoized `read-only` results and used approval tokens are kept. A
   * persistent or shared store lets them survive a restart and hold across processes.
   * @default a new {@link MemoryLedger} (this process only)
   */
  ledger?: LedgerStore | undefined;
  /**
   * The secret approval tokens are signed with (HMAC-SHA256): best 32 random bytes, kept on the
   * server. A registry with the same secret (and a persistent ledger) accepts tokens across
   * restarts. Without one, the registry signs with a random secret of its own: its tokens are then
   * good for this registry only.
   */
  approvalSecret?: string | Uint8Array | undefined;
  /**
   * The largest result that reaches the model, in UTF-8 bytes of its text (base64 bytes for images
   * and audio), its notice included: a larger one is cut to it with a notice, and marked `truncated`.
   * No limit when unset.
   */
  maxResultBytes?: number | undefined;
  /**
   * Called when a handler the registry gave up on (timed out or aborted) settles at last, with its
   * name, call id, how it settled and how late: never its value. See `executionStats()`.
   */
  onLateSettle?: ((report: LateSettleReport) => void) | undefined;
}

/** Figures of the handlers a registry runs: see {@link ToolRegistry.executionStats}. */
export interface ExecutionStats {
  /** Handlers running now, abandoned ones included. */
  running: number;
  /** Handlers whose call timed out or was aborted and that have not settled yet: still running. */
  abandoned: number;
  /** Abandoned handlers that have settled since. */
  settledLate: number;
}

/** Options of {@link ToolRegistry.deny}. */
export interface DenyOptions {
  /** Why, in words for the model (the person's own words, say); at most 1,000 characters reach it. */
  reason?: string | undefined;
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
  /** The changes being told to the listeners now, with those made meanwhile: see {@link ToolRegistry.#changed}. */
  #changesBeingTold: ToolRegistryChange[] | undefined;
  // Created by the first onChange: a registry nobody listens to pays one field check per change.
  #changeListeners: Set<(change: ToolRegistryChange) => void> | undefined;
  readonly #tracker: ExecutionTracker;
  readonly #ledger: CallLedger;
  readonly #signer: ApprovalSigner;
  readonly #governor: Governor;
  /** Whether results are cut to a registry-wide `maxResultBytes`. */
  readonly #limitsResults: boolean;
  /** Whether every call takes the governed path (a registry-wide option or a hook asks for it). */
  #governAll: boolean;
  #observers: readonly CallObserver[] = [];
  #hooks: readonly ToolHooks[] = [];
  readonly #locks = new ResourceLocks();

  /** @throws TypeError for an option of the wrong kind, naming it */
  constructor(options: ToolRegistryOptions = {}) {
    if (typeof options !== "object" || options === null) throw new TypeError(`options must be an object, got ${describeOption(options)}`);
    refuseUnknownOptions(options, REGISTRY_OPTIONS);
    const key = options.cacheKey === undefined ? undefined : oneOf("cacheKey", options.cacheKey, ["identity", "content"]);
    this.#validators = new ValidatorCache(positiveInteger("cacheSize", options.cacheSize ?? DEFAULT_CACHE_SIZE, true), {
      ...(key === undefined ? {} : { key }),
      ...(options.precompiled === undefined ? {} : { precompiled: options.precompiled }),
    });
    this.#timeoutMs = milliseconds("timeoutMs", options.timeoutMs);
    const validators = this.#validators;
    this.#prepareContext = {
      tools: this.#tools,
      validator: (tool: RegisteredTool): CompiledValidator => validators.getFor(tool.validatorSlot, tool.name, tool.definition.parameters),
      maxArgumentBytes: positiveInteger("maxArgumentBytes", options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES),
      onRepair: optionalFunction<(report: RepairReport) => void>("onRepair", options.onRepair),
      failures: this.#failures,
    };
    recordArgumentLimit(this, this.#prepareContext.maxArgumentBytes);
    this.#tracker = new ExecutionTracker(optionalFunction<(report: LateSettleReport) => void>("onLateSettle", options.onLateSettle));
    this.#ledger = new CallLedger(checkLedger(options.ledger) ?? new MemoryLedger());
    this.#signer = new ApprovalSigner(options.approvalSecret);
    const maxResultBytes = options.maxResultBytes === undefined ? undefined : positiveInteger("maxResultBytes", options.maxResultBytes, true);
    this.#limitsResults = maxResultBytes !== undefined && maxResultBytes !== Infinity;
    this.#governAll = this.#limitsResults;
    this.#governor = new Governor({
      ledger: this.#ledger,
      locks: this.#locks,
      signer: this.#signer,
      tracker: this.#tracker,
      hooks: () => this.#hooks,
      recheck: (tool, value) => recheckArguments(tool.name, validators.get(tool.name, tool.definition.parameters), value),
      outputValidator: (tool) => validators.get(tool.name, tool.definition.outputSchema!, "outputSchema"),
      maxResultBytes,
    });
  }

  /**
   * Adds a tool. Its schema is snapshot (later changes to the object passed in change nothing)
   * and checked now; nothing is compiled yet: the schema compiles on first use (or in
   * {@link ToolRegistry.compileAll}).
   * @throws ToolDefinitionError for an empty, invalid or taken name, a missing description, a
   * handler that is not a function, or a `parameters` that is not a sound JSON Schema (checked
   * against the draft-07 or 2020-12 meta-schema, with every `$ref` resolvable and every pattern
   * runnable in linear time; `problems` lists each, with its location)
   * @throws TypeError for an option of the wrong kind, or `cacheTtlMs` on a tool that is not `read-only`
   */
  register<TParameters extends TSchema, TOutput extends TSchema = TSchema>(
    definition: ToolDefinition<TParameters, TOutput>,
    handler: NoInfer<ToolHandler<TParameters, TOutput>>,
    options: RegisterOptions<NoInfer<Static<TParameters>>> = {},
  ): this {
    const tool = this.#definitions.prepare(definition as ToolDefinition, handler, options as RegisterOptions, (name) => this.#tools.has(name));
    this.#tools.set(tool.name, tool);
    if (this.#changeListeners !== undefined) this.#changed("register", tool.name);
    return this;
  }

  /** Removes a tool; returns whether it was registered. */
  unregister(name: string): boolean {
    const tool = this.#tools.get(name);
    if (tool !== undefined) {
      this.#failures.forget(tool);
      this.#validators.release(tool.validatorSlot);
    }
    const removed = this.#tools.delete(name);
    if (removed && this.#changeListeners !== undefined) this.#changed("unregister", name);
    return removed;
  }

  /**
   * Calls `listener` after every `register` and every `unregister` that
   * removed a tool, synchronously, with `{ type, name }`, in the order the changes were made (a
   * change a listener makes is told after the one it hears). An MCP server made
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
    // A change a listener makes (registering a tool) is heard after the one being told, by every
    // listener, so that each hears the changes in the order they were made.
    if (this.#changesBeingTold !== undefined) {
      this.#changesBeingTold.push({ type, name });
      return;
    }
    const changes: ToolRegistryChange[] = [{ type, name }];
    this.#changesBeingTold = changes;
    try {
      for (let index = 0; index < changes.length; index++) for (const listener of this.#changeListeners!) listener(changes[index]!);
    } finally {
      this.#changesBeingTold = undefined;
    }
  }

  /** Whether a tool of this name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The definition registered under `name` (the registry's frozen copy, with its schema's snapshot), or `undefined`. */
  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.definition;
  }

  /** The options `name` was registered with (its `effects`, `timeoutMs`…), frozen, or `undefined` when it is not registered. */
  toolOptions(name: string): Readonly<RegisterOptions> | undefined {
    return this.#tools.get(name)?.options as Readonly<RegisterOptions> | undefined;
  }

  /** Every registered definition, in registration order. */
  list(): ToolDefinition[] {
    return Array.from(this.#tools.values(), (tool) => tool.definition);
  }

  /**
   * Compiles every registered schema now (`parameters`, and `outputSchema` where there is one), so
   * that a schema problem surfaces at startup instead of at a call, and no call pays for compiling
   * (without it, a schema's check compiles on its second use).
   * @throws ToolDefinitionError for the first schema that cannot compile
   */
  compileAll(): void {
    for (const tool of this.#tools.values()) {
      this.#prepareContext.validator(tool).compile();
      const outputSchema = tool.definition.outputSchema;
      if (outputSchema !== undefined) this.#validators.get(tool.name, outputSchema, "outputSchema").compile();
    }
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
   * @returns what the handler returned, awaited (cut to `maxResultBytes` as text, with a notice, when
   * the tool or the registry sets that limit and the result is larger)
   * @throws UnknownToolError when no tool has the call's name
   * @throws ToolArgumentsValidationError when the arguments do not match (the handler did not run)
   * @throws ToolExecutionError when the handler threw or rejected (`ToolTimeoutError` when it ran out of time)
   * @throws ToolAbortedError when `options.signal` aborted
   * @throws ToolDefinitionError when the tool's schema cannot compile
   * @throws ToolApprovalRequiredError when the tool needs approval and no token was given (it did not run)
   * @throws ToolApprovalError when the token given was refused (it did not run)
   * @throws ToolResultValidationError when the tool ran and its result does not match its `outputSchema`
   * @throws ToolLedgerError when a `once` tool's ledger cannot vouch for the call (it did not run)
   * @throws TypeError when an option is of the wrong kind (nothing runs)
   */
  dispatch(call: ToolCallContent, options?: DispatchOptions): Promise<unknown> {
    // Not an async function: a handler that returns a plain value costs no extra microtask turn.
    let prepared: PreparedCall | ToolArgumentsValidationError;
    let run: RunOptions = PLAIN_RUN;
    try {
      // `null` is no options, as for `dispatchAll`.
      if (options !== undefined && options !== null) {
        refuseUnknownDispatchOptions(options);
        run = runOptions(options, optionalToken("approval", options.approval), true);
      }
      // Observed from the start, so that a refused call is observed too.
      if (this.#observers.length > 0 && observing(this.#observers)) return this.#settleObserved(call, run, undefined).then(resultValue);
      const fields = readCall(call);
      // A call whose caller has aborted is not begun, as in dispatchAll: no check, repair report or hook.
      if (run.caller?.signal.aborted) return subscribedRejection(new ToolAbortedError(fields.shownName, fields.id, run.caller.signal.reason, false));
      prepared = prepareOrRefuse(fields, this.#prepareContext, run.allowed);
    } catch (error) {
      return subscribedRejection(error);
    }
    if (prepared instanceof ToolArgumentsValidationError) return subscribedRejection(prepared);
    const timeoutMs = this.#timeoutOf(prepared.tool);
    const approval = run.approvalOf?.(prepared.toolCallId);
    if (prepared.tool.policy === undefined && !this.#governAll && approval === undefined) return runCall(prepared, run.caller, timeoutMs, this.#tracker, run.data);
    return this.#governor.run({ prepared, caller: run.caller, timeoutMs, approval, delivery: undefined, data: run.data }).then(outcomeValue);
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
    checkCalls(calls);
    options ??= {};
    refuseUnknownOptions(options, DISPATCH_ALL_OPTIONS);
    const concurrency = concurrencyOf(options);
    // One listener on the caller's signal for all the calls, however many run at once.
    const run = runOptions(options, approvalLookup(options.approvals));
    return settleAll(calls, concurrency, (call) => this.#settle(call, run, undefined));
  }

  /**
   * A parser of one call's arguments as the model streams them, bound to the tool's schema:
   * `push(delta)` returns the partial value and the problems already certain, `end()` the
   * private checked copy `dispatch` would give the handler (or its error). Linear in the
   * length of the text, however it is split.
   * @typeParam TParameters the tool's schema type, for the type of the value (`registry.argumentStream<typeof parameters>("read")`)
   * @throws UnknownToolError when no tool has this name
   * @throws ToolDefinitionError when the tool's schema cannot compile
   * @throws TypeError when `toolName` is not a string, or `options.toolCallId` is not one
   */
  argumentStream<TParameters extends TSchema = TSchema>(toolName: string, options?: ArgumentStreamOptions): ArgumentStream<Static<TParameters>> {
    if (typeof toolName !== "string") throw new TypeError(`toolName must be a string, got ${describeOption(toolName)}`);
    const toolCallId = options?.toolCallId ?? "";
    if (typeof toolCallId !== "string") throw new TypeError(`toolCallId must be a string, got ${describeOption(toolCallId)}`);
    return new ArgumentStream(this.#argumentReader(toolName, toolCallId, undefined));
  }

  #argumentReader(toolName: string, toolCallId: string, argumentsOf: ArgumentsOf | undefined, allowed?: (toolName: string) => boolean): ArgumentReader {
    const tool = lookUpTool({ name: toolName, shownName: toolName }, this.#prepareContext, allowed);
    return new ArgumentReader(tool, this.#prepareContext, { toolCallId, argumentsOf });
  }

  /**
   * Runs a model's tool calls while it streams them: each call's arguments are checked as they
   * arrive, and each call runs the moment its own arguments are complete, while the model is
   * still streaming the next. Takes the deltas a provider adapter's `deltas(stream)` reads from
   * the SDK's stream, and yields events as they happen: `tool-call-start` (an unknown tool fails
   * here, before its arguments arrive), `tool-call-delta` (the partial value and the issues
   * certain so far), `tool-call-invalid` (the call will not run), and `tool-result` (a
   * {@link ToolResult}, as `dispatchAll` gives), in the order calls settle; `index` is each
   * call's place in the stream. A call whose arguments were cut short fails with `/: arguments
   * must be valid JSON`, and the others still run.
   *
   * Each call whose arguments are complete takes `dispatchAll`'s own path, with `dispatchAll`'s
   * options (`concurrency`, `order`, `signal`, `allow`, `approvals`, `data`): allow-list,
   * policies, approvals, hooks, observers and output checks apply as they do there. A tool the
   * allow-list leaves out fails at its start, as an unknown one does.
   *
   * With `onInvalid: "abort"`, the first call certain to fail aborts `abortController`: pass its
   * signal to the SDK's streaming call, and the model stops generating. The stream's own error
   * (other than that abort) is thrown once every started call has its result.
   * @throws TypeError before anything is read, when `deltas` is not iterable or an option is bad
   * (`dispatchAll`'s, `onInvalid`, or `abortController`, required with `onInvalid: "abort"`)
   */
  dispatchStream(deltas: AsyncIterable<ToolCallDelta> | Iterable<ToolCallDelta>, options: DispatchStreamOptions = {}): AsyncIterable<ToolStreamEvent> {
    const iterable = deltas as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined;
    if (typeof iterable?.[Symbol.asyncIterator] !== "function" && typeof iterable?.[Symbol.iterator] !== "function") {
      throw new TypeError(`deltas must be an async iterable of tool call deltas, got ${describeOption(deltas)}`);
    }
    options ??= {};
    refuseUnknownOptions(options, DISPATCH_STREAM_OPTIONS);
    const concurrency = concurrencyOf(options);
    const run = runOptions(options, approvalLookup(options.approvals));
    const onInvalid = oneOf("onInvalid", options.onInvalid ?? "continue", ["continue", "abort"]);
    const abortController = options.abortController;
    if (abortController !== undefined && !(abortController instanceof AbortController)) {
      throw new TypeError(`abortController must be an AbortController, got ${describeOption(abortController)}`);
    }
    if (onInvalid === "abort" && abortController === undefined) throw new TypeError('abortController must be an AbortController when onInvalid is "abort", got undefined');
    // Each call whose arguments are complete takes dispatchAll's own path, with this stream's options.
    const context: StreamDispatchContext = {
      reader: (toolName, toolCallId, argumentsOf) => this.#argumentReader(toolName, toolCallId, argumentsOf, run.allowed),
      settle: (call, caller) => this.#settle(call, { ...run, caller }, undefined),
      maxArgumentBytes: this.#prepareContext.maxArgumentBytes,
    };
    return dispatchStream(deltas, context, { concurrency, caller: run.caller, abortController, abortOnInvalid: onInvalid === "abort" });
  }

  /**
   * One call, prepared and run, as a result that is never a rejection: what `dispatchAll` gives
   * for each call, and `dispatch` for an observed call.
   * @param traceparent the trace context the call arrived with (an envelope's), for observers
   */
  #settle(call: ToolCallContent, run: RunOptions, traceparent: string | undefined, finish?: (result: ToolResult) => ToolResult): Promise<ToolResult> {
    if (this.#observers.length > 0 && observing(this.#observers)) return this.#settleObserved(call, run, traceparent, finish);
    const settled = this.#settleFields(call, readCall(call), run, undefined);
    return finish === undefined ? settled : settled.then(finish);
  }

  /**
   * {@link ToolRegistry.#settle} for a call its observers observe (the caller asked them).
   * @param finish what the result becomes before the observers see it (an envelope's deadline told as a timeout)
   */
  #settleObserved(call: ToolCallContent, run: RunOptions, traceparent: string | undefined, finish?: (result: ToolResult) => ToolResult): Promise<ToolResult> {
    const fields = readCall(call);
    const observation = new CallObservation(fields.id, fields.shownName, traceparent);
    return observed(this.#observers, observation, () => {
      const settled = this.#settleFields(call, fields, run, observation);
      return finish === undefined ? settled : settled.then(finish);
    });
  }

  async #settleFields(call: ToolCallContent, fields: CallFields, run: RunOptions, observation: CallObservation | undefined): Promise<ToolResult> {
    const toolCallId = fields.id;
    const toolName = fields.shownName;
    const { caller, data } = run;
    let prepared: PreparedCall | ToolArgumentsValidationError;
    try {
      // A call of a turn its caller has aborted is not begun: no check, hook, approval or ledger entry.
      if (caller?.signal.aborted) throw new ToolAbortedError(toolName, toolCallId, caller.signal.reason, false);
      prepared = prepareOrRefuse(fields, this.#prepareContext, run.allowed);
      if (prepared instanceof ToolArgumentsValidationError) return toFailure(toolCallId, toolName, prepared, modelNamesOf(call));
      if (observation !== undefined) observation.arguments = prepared.args;
      const timeoutMs = this.#timeoutOf(prepared.tool);
      const approval = run.approvalOf?.(toolCallId);
      if (prepared.tool.policy === undefined && !this.#governAll && approval === undefined) {
        const value = await runCall(prepared, caller, timeoutMs, this.#tracker, data);
        return prepared.repairs === undefined
          ? { status: "ok", toolCallId, toolName, isError: false, value }
          : { status: "ok", toolCallId, toolName, isError: false, value, repairs: prepared.repairs };
      }
      const outcome = await this.#governor.run({ prepared, caller, timeoutMs, approval, delivery: run.delivery, data });
      return outcomeResult(outcome, toolCallId, toolName, prepared, call);
    } catch (error) {
      // A call read through a name map is answered in the names the model was sent.
      return toFailure(toolCallId, toolName, error, modelNamesOf(call));
    }
  }

  /**
   * A signed approval token for `request` (as a call's `ToolApprovalRequiredError` or
   * `"approval-required"` result gave it), after a person approved it. Dispatch the call again
   * with `{ approval: token }` (or `dispatchAll`'s `approvals`): it then runs once, with exactly
   * these arguments, before the token expires. The request may have been through JSON, a store, a
   * browser and a restart; its arguments must still have its fingerprint.
   * @returns the token: a string, safe to store and send (it holds no secret; it is signed)
   * @throws ToolApprovalError `"mismatch"` when the request's arguments do not have its fingerprint (it was altered)
   * @throws TypeError for a request that is not one, a bad option, or an `approvedBy` (or call id) so long the token would pass 4,096 characters
   */
  async approve(request: ApprovalRequest, options: ApproveOptions = {}): Promise<string> {
    const checked = checkApprovalRequest(request);
    options ??= {};
    refuseUnknownOptions(options, APPROVE_OPTIONS);
    const expiresInMs = milliseconds("expiresInMs", options.expiresInMs) ?? DEFAULT_APPROVAL_TTL_MS;
    if (expiresInMs === Infinity) throw new TypeError("expiresInMs must be finite: an approval that never expires could be replayed forever");
    const approvedBy = options.approvedBy;
    if (approvedBy !== undefined && typeof approvedBy !== "string") throw new TypeError(`approvedBy must be a string, got ${describeOption(approvedBy)}`);
    if ((await callFingerprint(checked.toolName, checked.arguments)) !== checked.fingerprint) throw new ToolApprovalError(checked.toolName, "mismatch");
    return this.#signer.token(checked, expiresInMs, approvedBy);
  }

  /**
   * The result to send the model for a call a person declined: `status: "denied"`, not an
   * error of the tool, with `content` saying the user declined (and why, when `reason` is given).
   * @throws TypeError for a request that is not one, or a reason that is not a string
   */
  deny(request: ApprovalRequest, options: DenyOptions = {}): ToolDenial {
    const checked = checkApprovalRequest(request);
    refuseUnknownOptions(options ?? {}, DENY_OPTIONS);
    const reason = options?.reason;
    if (reason !== undefined && typeof reason !== "string") throw new TypeError(`reason must be a string, got ${describeOption(reason)}`);
    return { status: "denied", toolCallId: checked.toolCallId, toolName: checked.toolName, isError: false, content: deniedMessage(checked.toolName, reason) };
  }

  /**
   * Adds an observer of every call (tracing, metrics): see {@link CallObserver}. Observers wrap
   * calls in the order they were added, the first outermost.
   * @returns a function that removes it
   * @throws TypeError when `observer.observe` is not a function
   */
  observe(observer: CallObserver): () => void {
    if (typeof observer?.observe !== "function") throw new TypeError(`observer must have an observe function, got ${describeOption(observer)}`);
    this.#observers = [...this.#observers, observer];
    return () => {
      this.#observers = this.#observers.filter((known) => known !== observer);
    };
  }

  /**
   * Adds hooks that run around every call, after those added before:
   * - `before(call, context)` runs after the check, before approval and the handler. It returns
   *   nothing (go on), `{ deny: reason }` (the call does not run; the reason reaches the model, and
   *   `dispatchAll` gives a `"denied"` result), or `{ arguments: value }` (the new value is copied
   *   and checked against the schema again before anything else sees it).
   * - `after(call, result, context)` runs after the handler and the output check; it returns
   *   nothing or `{ value }` to replace the value.
   *
   * A hook that throws or rejects fails the call with a `ToolHookError`; nothing crashes.
   * @returns a function that removes the hooks
   * @throws TypeError for anything but an object with `before` and/or `after` functions
   */
  use(hooks: ToolHooks): () => void {
    const checked = checkHooks(hooks);
    this.#setHooks([...this.#hooks, checked]);
    return () => this.#setHooks(this.#hooks.filter((known) => known !== checked));
  }

  #setHooks(hooks: readonly ToolHooks[]): void {
    this.#hooks = hooks;
    this.#governAll = this.#limitsResults || hooks.length > 0;
  }

  /** What the ledger has done: runs of tools that declare `effects`, reuses by kind, calls refused as in doubt, store errors. */
  ledgerStats(): LedgerStats {
    return { ...this.#ledger.stats };
  }

  /**
   * The handlers this registry runs, honestly counted: `running` (abandoned ones included),
   * `abandoned` (timed out or aborted, not settled yet) and `settledLate`.
   */
  executionStats(): ExecutionStats {
    const tracker = this.#tracker;
    return { running: tracker.running, abandoned: tracker.abandoned, settledLate: tracker.settledLate };
  }

  /**
   * Checks `call` here, as `dispatch` would (so a refusal reaches the model at once, with no
   * network hop), and packs it as a {@link ToolCallEnvelope}: plain JSON with the checked
   * arguments, their fingerprint, the schema's fingerprint, the deadline of the tool's time limit
   * and, when tracing is on, the trace context. Run it with `execute` in any process that registers
   * the same tools.
   * @throws UnknownToolError, ToolNotAllowedError, ToolArgumentsValidationError, ToolDefinitionError (as rejections) as `dispatch` does
   * @throws TypeError (as a rejection) for a bad option, or a tool whose schema has no JSON form
   */
  envelope(call: ToolCallContent, options?: EnvelopeOptions): Promise<ToolCallEnvelope> {
    return makeEnvelope(this.#envelopeServices(), call, options);
  }

  /**
   * Runs an envelope made by `envelope` (here or in another process) and resolves to the
   * {@link ToolResult} `dispatchAll` gives for the call: the arguments are checked again, the
   * deadline is the call's time limit, the trace goes on from the sender's. A malformed or altered
   * envelope (`ToolEnvelopeError`), a tool missing here or with another schema (`ToolMismatchError`),
   * or a repeated attempt of a tool not declared safe to repeat is a failure, and nothing runs.
   * @throws TypeError (as a rejection) for a bad option
   */
  execute(envelope: ToolCallEnvelope, options?: ExecuteOptions): Promise<ToolResult> {
    return executeEnvelope(this.#envelopeServices(), envelope, options);
  }

  /** The failure of a call refused before it could run, observed as any call is (when observers observe now). */
  #observedFailure(toolCallId: string, toolName: string, error: unknown, traceparent: string | undefined): Promise<ToolResult> {
    const failure = Promise.resolve(toFailure(toolCallId, toolName, error));
    if (this.#observers.length === 0 || !observing(this.#observers)) return failure;
    return observed(this.#observers, new CallObservation(toolCallId, toolName, traceparent), () => failure);
  }

  /** What `envelope` and `execute` need of this registry. */
  #envelopeServices(): EnvelopeServices {
    return {
      prepare: (call, allowed) => {
        const fields = readCall(call);
        try {
          return prepareCall(fields, this.#prepareContext, allowed);
        } catch (error) {
          // Refused here, never sent: the trace shows the call where it ended, as dispatch's would.
          void this.#observedFailure(fields.id, fields.shownName, error, undefined);
          throw error;
        }
      },
      tool: (name) => this.#tools.get(name),
      timeoutOf: (tool) => this.#timeoutOf(tool),
      traceparent: () => observersTraceparent(this.#observers),
      refuse: (toolCallId, toolName, error, traceparent) => this.#observedFailure(toolCallId, toolName, error, traceparent),
      settle: (call, { signal, approval, delivery, data, traceparent }, finish) =>
        this.#settle(call, { caller: signal === undefined ? undefined : new AbortFanOut(signal), approvalOf: approval === undefined ? undefined : () => approval, delivery, data, allowed: undefined }, traceparent, finish),
    };
  }
}

/** Every option of {@link ToolRegistryOptions}: the constructor refuses any other (a misspelt one). */
const REGISTRY_OPTIONS = everyOption<ToolRegistryOptions>()([
  "cacheSize",
  "cacheKey",
  "timeoutMs",
  "maxArgumentBytes",
  "precompiled",
  "onRepair",
  "ledger",
  "approvalSecret",
  "maxResultBytes",
  "onLateSettle",
]);

/** Every option of `approve`: it refuses any other (a misspelt `expiresInMs` would leave the default lifetime). */
const APPROVE_OPTIONS = everyOption<ApproveOptions>()(["expiresInMs", "approvedBy"]);

/** Every option of `deny`. */
const DENY_OPTIONS = everyOption<DenyOptions>()(["reason"]);

/** What one dispatch asks of each of its calls: its caller's signal, approvals, data and allow-list. */
interface RunOptions {
  readonly caller: AbortFanOut | undefined;
  readonly approvalOf: ((toolCallId: string) => string | undefined) | undefined;
  /** An envelope's delivery, when its transport named it (see `Delivery`); never for a dispatch. */
  readonly delivery: Delivery | undefined;
  readonly data: unknown;
  readonly allowed: ((toolName: string) => boolean) | undefined;
}

const PLAIN_RUN: RunOptions = { caller: undefined, approvalOf: undefined, delivery: undefined, data: undefined, allowed: undefined };

/**
 * The options of `dispatch`, `dispatchAll` or `dispatchStream`, checked (the caller refused the unknown ones).
 * @param forOneCall whether these are the options of one call (`dispatch`), whose signal its handler may be handed as is
 * @throws TypeError naming a bad option
 */
function runOptions(options: DispatchOptions | DispatchAllOptions, approvalOf: RunOptions["approvalOf"] | string | undefined, forOneCall = false): RunOptions {
  const signal = optionalSignal("signal", options.signal);
  return {
    caller: signal === undefined ? undefined : new AbortFanOut(signal, forOneCall),
    approvalOf: typeof approvalOf === "string" ? () => approvalOf : approvalOf,
    delivery: undefined,
    data: options.data,
    allowed: allowTest(options.allow),
  };
}

/**
 * A promise that rejects with `error` one microtask from now, once a caller that awaits it (or
 * attaches a handler at once) has subscribed. A promise rejected before anyone handles it is one
 * Node must track as possibly unhandled, and then untrack when the handler comes (a WeakMap entry
 * and its bookkeeping, about half a microsecond: more than checking a small call). A rejection
 * nobody handles is still reported as unhandled, a microtask later.
 */
function subscribedRejection(error: unknown): Promise<never> {
  // A reaction to a settled promise, rather than queueMicrotask, which makes an async resource per call.
  return new Promise((_resolve, reject) => {
    void SETTLED.then(() => reject(error));
  });
}

const SETTLED: Promise<void> = Promise.resolve();

/** What `dispatch` resolves to for a governed call's outcome, or rejects with. */
function outcomeValue(outcome: Outcome): unknown {
  switch (outcome.kind) {
    case "ok":
      return outcome.value;
    case "approval":
      throw new ToolApprovalRequiredError(outcome.request);
    case "denied":
      throw new ToolDeniedError(outcome.toolName, outcome.content);
    case "error":
      throw outcome.error;
  }
}

/** The `dispatchAll` result of a governed call's outcome. */
function outcomeResult(outcome: Outcome, toolCallId: string, toolName: string, prepared: PreparedCall, call: ToolCallContent): ToolResult {
  switch (outcome.kind) {
    case "ok": {
      const result: ToolResult = { status: "ok", toolCallId, toolName, isError: false, value: outcome.value };
      if (prepared.repairs !== undefined) result.repairs = prepared.repairs;
      if (outcome.reused !== undefined) result.reused = outcome.reused;
      if (outcome.truncated) result.truncated = true;
      return result;
    }
    case "approval":
      return { status: "approval-required", toolCallId, toolName, isError: false, request: outcome.request };
    case "denied":
      return { status: "denied", toolCallId, toolName, isError: false, content: outcome.content };
    case "error":
      return toFailure(toolCallId, toolName, outcome.error, modelNamesOf(call));
  }
}

/** A ledger store: an object with `get`, `set` and `delete` functions, or unset. */
function checkLedger(value: unknown): LedgerStore | undefined {
  if (value === undefined) return undefined;
  const store = value as Partial<LedgerStore> | null;
  if (typeof store === "object" && store !== null && typeof store.get === "function" && typeof store.set === "function" && typeof store.delete === "function") {
    return store as LedgerStore;
  }
  throw new TypeError(`ledger must be a LedgerStore (an object with get, set and delete), got ${describeOption(value)}`);
}
