import { AbortFanOut } from "../dispatch/abort-fan-out.js";
import { ToolAbortedError, ToolArgumentsValidationError } from "../errors.js";
import { describeOption } from "../options.js";
import { type ModelNames, rememberModelNames } from "../text/model-names.js";
import { toFailure } from "../text/results.js";
import type { ToolCallContent, ToolCallDelta, ToolCallDeltaEvent, ToolResult, ToolStreamEvent } from "../types.js";
import { type ArgumentReader, type ArgumentsOf, READER_LAYOUT_KEEPER } from "./argument-reader.js";
import { type StreamDialect, streamDialectOf } from "./call-dialect.js";
import { Mailbox } from "./mailbox.js";
import { INSPECT } from "../inspect.js";
import { definePartialValue } from "./partial-value.js";

/** What the stream dispatcher needs of a registry, for one `dispatchStream`. */
export interface StreamDispatchContext {
  /**
   * A reader of one call's arguments, bound to the tool's schema.
   * @throws UnknownToolError, ToolNotAllowedError, ToolDefinitionError: as dispatch would for that name
   */
  reader(toolName: string, toolCallId: string, argumentsOf: ArgumentsOf | undefined): ArgumentReader;
  /**
   * One call, whole, through `dispatchAll`'s own path (look-up and allow-list, the check,
   * policies, approvals, observers, the handler, the output check): its result, never a rejection.
   * @param caller the signal its handler runs under, in place of the caller's: the stream's own,
   * the same for each of its calls, aborted when the caller's signal aborts or the loop is left
   */
  settle(call: ToolCallContent, caller: AbortFanOut): Promise<ToolResult>;
  /** The registry's `maxArgumentBytes`: arguments that arrive before their tool's name are kept up to it. */
  readonly maxArgumentBytes: number;
}

/** The checked options of one `dispatchStream`. */
export interface StreamDispatchSettings {
  readonly concurrency: number;
  readonly caller: AbortFanOut | undefined;
  /** The controller whose signal the caller gave the SDK: a stream that stops once it is aborted stopped on purpose. */
  readonly abortController: AbortController | undefined;
  /** `onInvalid: "abort"`: abort `abortController` at the first call certain to fail. */
  readonly abortOnInvalid: boolean;
}

/** One call of the stream, from its first delta to its result. */
class StreamedCall {
  /** The registry name, once a delta names it. */
  toolName: string | undefined;
  names: ModelNames | undefined;
  argumentsOf: ArgumentsOf | undefined;
  reader: ArgumentReader | undefined;
  /** Arguments that arrived before the name, up to the first piece past `maxArgumentBytes` (the rest would be too large all the same). */
  readonly early: string[] = [];
  /** The UTF-16 units in `early`: never more than its UTF-8 bytes, so past `maxArgumentBytes` the text is certainly too large. */
  earlyCharacters = 0;
  /** The issues that made it invalid, once certain. */
  invalid: readonly string[] | undefined;
  /** Its arguments are over: it runs, or has failed. */
  finished = false;

  constructor(
    readonly index: number,
    readonly toolCallId: string,
  ) {}

  get shownName(): string {
    return this.toolName ?? "";
  }
}

/** What a finished call that has its result is remembered as, under its id (see `StreamRun.#forget`). */
const FINISHED_CALL: StreamedCall = Object.assign(new StreamedCall(-1, ""), { finished: true });

/**
 * Dispatches a model's tool calls as they stream: each call's arguments are read and checked
 * as they arrive, and each call runs (with `concurrency`, `signal` and time limits as in
 * `dispatchAll`) the moment its own arguments are complete, while the model streams the next.
 * Events are yielded as they happen; results in the order calls settle.
 */
export async function* dispatchStream(deltas: AsyncIterable<ToolCallDelta> | Iterable<ToolCallDelta>, context: StreamDispatchContext, settings: StreamDispatchSettings): AsyncGenerator<ToolStreamEvent, void, undefined> {
  const run = new StreamRun(context, settings);
  const iterator = asyncIterator(deltas);
  let open = true;
  let next: Promise<IteratorResult<ToolCallDelta> | { failure: unknown }> | undefined;
  let failure: { error: unknown } | undefined;
  try {
    for (;;) {
      for (const event of run.mailbox.takeAll()) yield event;
      if (open) {
        next ??= nextStep(iterator);
        const step = await Promise.race([next, run.mailbox.arrival()]);
        if (step === undefined) continue;
        next = undefined;
        if ("failure" in step) {
          open = false;
          failure = { error: step.failure };
          run.endAll();
        } else if (step.done === true) {
          open = false;
          run.endAll();
        } else {
          const events = run.read(step.value);
          // A call refused at its start has its result before the next delta is read.
          await run.refusals();
          for (const event of events) yield event;
        }
      } else if (run.settled) {
        // A result that arrived while the last events were being read is still to be yielded.
        if (run.mailbox.size === 0) break;
      } else {
        await run.mailbox.arrival();
      }
    }
  } finally {
    // Stopped early (the caller broke out of its loop, or a delta was malformed): let the SDK close
    // its request, without waiting for a read that may never come, and stop the calls.
    if (open) closeQuietly(iterator);
    run.close();
  }
  // A stream stopped by an abort stopped on purpose; any other failure of the stream is the caller's to know.
  if (failure !== undefined && !run.stoppedOnPurpose) throw failure.error;
}

/** The state of one `dispatchStream`: its calls, what runs, what waits to be yielded. */
class StreamRun {
  readonly mailbox = new Mailbox<ToolStreamEvent>();
  readonly #context: StreamDispatchContext;
  readonly #settings: StreamDispatchSettings;
  /** The calls by id: the last one with each id (a finished call's id may be used again by a new call). */
  readonly #calls = new Map<string, StreamedCall>();
  /** How many calls the stream has had: the index of the next one. */
  #callCount = 0;
  /** Calls whose arguments are complete, waiting for a place among the `concurrency` that run. */
  readonly #ready: StreamedCall[] = [];
  #running = 0;
  /** Calls whose result is not yet in the mailbox. */
  #unsettled = 0;
  /** Whether the model's stream is still being read. */
  #open = true;
  /** The results of calls refused at their start, not yet in the mailbox. */
  #refusals: Array<Promise<void>> = [];
  /** Aborts the handlers that run when the loop is left (one controller per stream, made when a call first runs). */
  #stop: AbortController | undefined;
  /** The signal every call's handler runs under: the stream's own, told of the caller's abort. */
  #caller: AbortFanOut | undefined;
  /** Lets go of the caller's signal. */
  #unsubscribe: (() => void) | undefined;
  /** Whether the loop was left: no call starts any more. */
  #closed = false;

  constructor(context: StreamDispatchContext, settings: StreamDispatchSettings) {
    this.#context = context;
    this.#settings = settings;
  }

  /**
   * The loop is over, whether every call settled or the caller left it early: calls waiting for a
   * place never start, and the handlers still running have their signal aborted.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready.length = 0;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#running > 0) this.#stop?.abort(new DOMException("the loop over dispatchStream's events was left before the call settled", "AbortError"));
  }

  /** Resolves once every call refused at its start has its result in the mailbox. */
  refusals(): Promise<unknown> | undefined {
    if (this.#refusals.length === 0) return undefined;
    const pending = this.#refusals;
    this.#refusals = [];
    return Promise.all(pending);
  }

  /** Whether every call has its result in the mailbox (or yielded). */
  get settled(): boolean {
    return this.#unsettled === 0;
  }

  /** Whether the stream was stopped by an abort: the caller's signal, or the controller aborted for it. */
  get stoppedOnPurpose(): boolean {
    return this.#settings.caller?.signal.aborted === true || this.#settings.abortController?.signal.aborted === true;
  }

  /** The events of one delta. */
  read(delta: ToolCallDelta): ToolStreamEvent[] {
    const fields = deltaFields(delta);
    const events: ToolStreamEvent[] = [];
    let call = this.#calls.get(fields.toolCallId);
    // A delta that names a tool under the id of a call already finished is a new call (as dispatchAll
    // runs two calls with one id); any other delta for a finished call is left, as it came too late.
    if (call === undefined || (call.finished && fields.toolName !== undefined)) {
      call = new StreamedCall(this.#callCount++, fields.toolCallId);
      this.#calls.set(call.toolCallId, call);
      this.#unsettled++;
    }
    if (call.finished) return events;
    if (fields.error !== undefined) {
      if (call.toolName === undefined) this.#announce(call, fields.toolName ?? "", streamDialectOf(delta), events);
      this.#fail(call, fields.error, events);
      return events;
    }
    if (call.toolName === undefined && fields.toolName !== undefined) {
      this.#start(call, fields.toolName, streamDialectOf(delta), events);
      if (call.finished) return events;
    }
    if (fields.argumentsDelta !== undefined && fields.argumentsDelta !== "") {
      if (call.reader !== undefined) {
        this.#push(call, fields.argumentsDelta, events);
      } else if (call.earlyCharacters <= this.#context.maxArgumentBytes) {
        // Kept while the text may still be within the limit; once it is certainly past it, the pieces
        // kept are enough for the reader to refuse it as too large, whatever else arrives.
        call.early.push(fields.argumentsDelta);
        call.earlyCharacters += fields.argumentsDelta.length;
      }
    }
    if (fields.done) this.#end(call, events);
    return events;
  }

  /** The stream is over: every call still open ends now. */
  endAll(): void {
    this.#open = false;
    const events: ToolStreamEvent[] = [];
    const stopped = this.stoppedOnPurpose;
    for (const call of this.#calls.values()) {
      if (call.finished) continue;
      // Arguments cut short by an abort were not the model's mistake: the call was stopped.
      if (stopped && call.invalid === undefined && call.reader?.complete !== true) {
        if (call.toolName === undefined) this.#announce(call, "", undefined, events);
        this.#fail(call, new ToolAbortedError(call.shownName, call.toolCallId, this.#abortReason(), false), events);
      } else {
        this.#end(call, events, stopped);
      }
    }
    for (const event of events) this.mailbox.put(event);
  }

  /** The call's name is known: its `tool-call-start`. */
  #announce(call: StreamedCall, toolName: string, dialect: StreamDialect | undefined, events: ToolStreamEvent[]): void {
    call.toolName = toolName;
    call.names = dialect?.names;
    call.argumentsOf = dialect?.argumentsOf;
    events.push({ type: "tool-call-start", index: call.index, toolCallId: call.toolCallId, toolName });
  }

  /** The call's name is known: its start, and the reader of its arguments (or its failure, for an unknown tool). */
  #start(call: StreamedCall, toolName: string, dialect: StreamDialect | undefined, events: ToolStreamEvent[]): void {
    this.#announce(call, toolName, dialect, events);
    try {
      call.reader = this.#context.reader(toolName, call.toolCallId, call.argumentsOf);
    } catch (error) {
      // An unknown tool (one not allowed, or whose schema cannot compile) fails now, before its
      // arguments arrive: dispatch refuses it as dispatchAll would, and observers see it.
      call.finished = true;
      this.#certainFailure(error);
      this.#refusals.push(this.#dispatch(call).then((result) => this.#deliver(call, result)));
      return;
    }
    for (const piece of call.early.splice(0, call.early.length)) this.#push(call, piece, events);
  }

  #push(call: StreamedCall, piece: string, events: ToolStreamEvent[]): void {
    const reader = call.reader!;
    reader.push(piece);
    const issues = reader.issues;
    events.push(new DeltaEvent(call, piece, reader, issues));
    if (call.invalid === undefined && issues.length > 0) this.#invalid(call, issues, events);
  }

  #invalid(call: StreamedCall, issues: readonly string[], events: ToolStreamEvent[]): void {
    call.invalid = issues;
    events.push({ type: "tool-call-invalid", index: call.index, toolCallId: call.toolCallId, toolName: call.shownName, issues });
    this.#certainFailure(new ToolArgumentsValidationError(call.shownName, issues));
  }

  /**
   * The call's arguments are complete: it goes to dispatch (or fails, with a certain problem).
   * @param stopped whether an abort stopped the stream (and perhaps cut these arguments short)
   */
  #end(call: StreamedCall, events: ToolStreamEvent[], stopped = false): void {
    if (call.toolName === undefined) {
      // A call that never named its tool fails as dispatch fails a call with no name.
      this.#start(call, "", undefined, events);
      if (call.finished) return;
    }
    if (call.invalid !== undefined) {
      // A certain problem: the call does not run. Its answer is the final check's (every issue), or,
      // for arguments an abort cut short, the certain issues: those, not the cut, are what is wrong.
      // (A later repeated key can hide them from JSON.parse: they stand all the same.)
      // Never repaired: `onRepair` is told only of calls that run.
      const refusal = !stopped || call.reader!.complete ? call.reader!.refusal() : undefined;
      this.#fail(call, refusal ?? new ToolArgumentsValidationError(call.shownName, call.invalid), events);
      return;
    }
    call.finished = true;
    this.#ready.push(call);
    this.#startReady();
  }

  #fail(call: StreamedCall, error: unknown, events: ToolStreamEvent[]): void {
    call.finished = true;
    this.#unsettled--;
    events.push(this.#resultEvent(call, toFailure(call.toolCallId, call.shownName, error, call.names)));
    this.#forget(call);
  }

  /**
   * A call that has its result is remembered by its id alone (a late delta for it is left; one that
   * names a tool starts a new call): its reader and text are let go, so that a stream of many calls
   * holds a few dozen bytes for each finished one, where it held the whole call.
   */
  #forget(call: StreamedCall): void {
    if (this.#calls.get(call.toolCallId) === call) this.#calls.set(call.toolCallId, FINISHED_CALL);
  }

  /** Starts ready calls while fewer than `concurrency` run, until the loop is left. */
  #startReady(): void {
    while (!this.#closed && this.#running < this.#settings.concurrency && this.#ready.length > 0) {
      const call = this.#ready.shift()!;
      this.#running++;
      this.#dispatch(call).then((result) => {
        this.#running--;
        this.#deliver(call, result);
        this.#startReady();
      });
    }
  }

  /** The call, whole, through dispatchAll's own path; a rejection (which that path never gives) is a failure too. */
  #dispatch(call: StreamedCall): Promise<ToolResult> {
    const content: ToolCallContent = { type: "tool_call", id: call.toolCallId, name: call.shownName, arguments: call.reader?.dispatchArguments() ?? "" };
    // Text for the model names tools as the model knows them.
    if (call.names !== undefined) rememberModelNames(content, call.names);
    return this.#context.settle(content, this.#callerSignal()).then(undefined, (error: unknown) => toFailure(call.toolCallId, call.shownName, error, call.names));
  }

  /** The stream's own signal, made when a call first runs: the caller's abort passes to it. */
  #callerSignal(): AbortFanOut {
    if (this.#caller !== undefined) return this.#caller;
    const stop = (this.#stop = new AbortController());
    const caller = this.#settings.caller;
    if (caller?.signal.aborted) stop.abort(caller.signal.reason);
    else if (caller !== undefined) this.#unsubscribe = caller.subscribe(() => stop.abort(caller.signal.reason));
    return (this.#caller = new AbortFanOut(stop.signal));
  }

  /** A call's result, after the `tool-call-invalid` its final check's refusal makes. */
  #deliver(call: StreamedCall, result: ToolResult): void {
    this.#unsettled--;
    if (call.invalid === undefined && result.isError && result.error instanceof ToolArgumentsValidationError) {
      call.invalid = result.error.issues;
      this.mailbox.put({ type: "tool-call-invalid", index: call.index, toolCallId: call.toolCallId, toolName: call.shownName, issues: call.invalid });
      this.#certainFailure(result.error);
    }
    this.mailbox.put(this.#resultEvent(call, result));
    this.#forget(call);
  }

  #resultEvent(call: StreamedCall, result: ToolResult): ToolStreamEvent {
    return { type: "tool-result", index: call.index, toolCallId: call.toolCallId, toolName: call.shownName, result };
  }

  /** With `onInvalid: "abort"`, aborts the caller's controller (once), with the error as its reason. */
  #certainFailure(reason: unknown): void {
    const controller = this.#settings.abortController;
    if (this.#open && this.#settings.abortOnInvalid && controller !== undefined && !controller.signal.aborted) controller.abort(reason);
  }

  #abortReason(): unknown {
    const signal = this.#settings.caller?.signal.aborted === true ? this.#settings.caller.signal : this.#settings.abortController?.signal;
    return signal?.reason;
  }
}

/**
 * A `tool-call-delta` event, as plain data: every field its own enumerable property, so a spread,
 * `JSON.stringify` and deep equality see them all. Its `value` is a getter, which reads the call's
 * one partial value, built when read; Node's `inspect` shows it read at that moment.
 */
class DeltaEvent {
  declare readonly type: "tool-call-delta";
  declare readonly index: number;
  declare readonly toolCallId: string;
  declare readonly toolName: string;
  declare readonly argumentsDelta: string;
  declare readonly value: unknown;
  declare readonly issues: readonly string[];

  constructor(call: StreamedCall, argumentsDelta: string, reader: ArgumentReader, issues: readonly string[]) {
    const event = this as { -readonly [Key in keyof DeltaEvent]: DeltaEvent[Key] };
    event.type = "tool-call-delta";
    event.index = call.index;
    event.toolCallId = call.toolCallId;
    event.toolName = call.shownName;
    event.argumentsDelta = argumentsDelta;
    definePartialValue(this, reader);
    event.issues = issues;
  }

  /** What Node's `console.log` and `util.inspect` show: the same properties, `value` read now (they show a getter as `[Getter]`). */
  [INSPECT](): ToolCallDeltaEvent {
    return { ...this };
  }
}

/**
 * A delta's fields, each read once and checked.
 * @throws TypeError for a delta that is not one (a programmer's mistake in code that makes deltas)
 */
function deltaFields(delta: ToolCallDelta): { toolCallId: string; toolName: string | undefined; argumentsDelta: string | undefined; done: boolean; error: Error | undefined } {
  if (typeof delta !== "object" || delta === null) throw new TypeError(`each delta must be an object, got ${describeOption(delta)}`);
  const { toolCallId, toolName, argumentsDelta, done, error } = delta;
  if (typeof toolCallId !== "string") throw new TypeError(`a delta's toolCallId must be a string, got ${describeOption(toolCallId)}`);
  if (toolName !== undefined && typeof toolName !== "string") throw new TypeError(`a delta's toolName must be a string, got ${describeOption(toolName)}`);
  if (argumentsDelta !== undefined && typeof argumentsDelta !== "string") throw new TypeError(`a delta's argumentsDelta must be a string, got ${describeOption(argumentsDelta)}`);
  if (error !== undefined && !(error instanceof Error)) throw new TypeError(`a delta's error must be an Error, got ${describeOption(error)}`);
  return { toolCallId, toolName: toolName === "" ? undefined : toolName, argumentsDelta, done: done === true, error };
}

/** An async iterator over deltas given as an async or a plain iterable. */
function asyncIterator(deltas: AsyncIterable<ToolCallDelta> | Iterable<ToolCallDelta>): AsyncIterator<ToolCallDelta> {
  if (typeof (deltas as AsyncIterable<ToolCallDelta>)[Symbol.asyncIterator] === "function") return (deltas as AsyncIterable<ToolCallDelta>)[Symbol.asyncIterator]();
  const iterator = (deltas as Iterable<ToolCallDelta>)[Symbol.iterator]();
  return {
    next: () => Promise.resolve(iterator.next()),
    return: () => Promise.resolve(iterator.return?.() ?? { done: true, value: undefined }),
  };
}

/**
 * The iterator's next step, or what it failed with: a rejection, or a throw from `next()` itself (a
 * plain iterable's generator, a hand-written iterator), which is the stream's error all the same.
 */
function nextStep(iterator: AsyncIterator<ToolCallDelta>): Promise<IteratorResult<ToolCallDelta> | { failure: unknown }> {
  try {
    return iterator.next().then(
      (step) => step,
      (error: unknown) => ({ failure: error }),
    );
  } catch (error) {
    return Promise.resolve({ failure: error });
  }
}

/** Asks an iterator to stop, ignoring how it answers. */
function closeQuietly(iterator: AsyncIterator<ToolCallDelta>): void {
  try {
    void iterator.return?.()?.then(undefined, () => undefined);
  } catch {
    // An iterator that cannot stop has nothing more to say.
  }
}

/** A run, a call, an event and a mailbox kept for the life of the module, as a stream holds them: see `keepLayouts`. */
export const DISPATCH_LAYOUT_KEEPERS: readonly object[] = (() => {
  const context: StreamDispatchContext = { reader: () => READER_LAYOUT_KEEPER, settle: (call) => Promise.resolve(toFailure(call.id, call.name, undefined)), maxArgumentBytes: 0 };
  const run = new StreamRun(context, { concurrency: Infinity, caller: undefined, abortController: undefined, abortOnInvalid: false });
  const call = new StreamedCall(0, "");
  call.toolName = "layout";
  call.reader = READER_LAYOUT_KEEPER;
  const event = new DeltaEvent(call, "", READER_LAYOUT_KEEPER, []);
  run.mailbox.put(event);
  return [run, call, event];
})();
