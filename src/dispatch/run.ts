import { ToolAbortedError, ToolExecutionError, ToolTimeoutError } from "../errors.js";
import type { ToolContext } from "../types.js";
import { AbortFanOut } from "./abort-fan-out.js";
import { NEVER_ABORTED_SIGNAL } from "./context.js";
import { guardedContext } from "./guarded-context.js";
import type { PreparedCall } from "./prepare.js";

/** What a registry's `onLateSettle` receives when a handler it gave up on settles at last. Never the value. */
export interface LateSettleReport {
  toolName: string;
  toolCallId: string;
  /** How the handler settled: `"fulfilled"` (returned) or `"rejected"` (threw). */
  outcome: "fulfilled" | "rejected";
  /** How long after its call was given up (timed out or aborted), in milliseconds. */
  lateByMs: number;
}

/** How a handler given up on finally settled: what a `once` tool's record needs to know. */
export type LateSettlement = { readonly fulfilled: true; readonly value: unknown } | { readonly fulfilled: false };

/** Told when a call is given up while its handler still runs, and again when that handler settles. */
export interface LateWatcher {
  abandoned(): void;
  settled(settlement: LateSettlement): void;
}

/**
 * A registry's count of the handlers it runs, honest about cancellation: a handler that timed out
 * or was aborted and has not settled is still running, and is counted as abandoned until it does.
 */
export class ExecutionTracker {
  /** Handlers running now, abandoned ones included. */
  running = 0;
  /** Handlers whose call was given up (timed out or aborted) and that have not settled yet. */
  abandoned = 0;
  /** Abandoned handlers that settled since. */
  settledLate = 0;

  constructor(readonly onLateSettle: ((report: LateSettleReport) => void) | undefined) {}

  /** An abandoned handler settled: counted, and reported (a throwing `onLateSettle` is ignored: the report is best effort). */
  settled(toolName: string, toolCallId: string, fulfilled: boolean, lateByMs: number): void {
    this.abandoned--;
    this.settledLate++;
    try {
      this.onLateSettle?.({ toolName, toolCallId, outcome: fulfilled ? "fulfilled" : "rejected", lateByMs });
    } catch {
      // Nothing waits for this report; a failing listener must not become an unhandled rejection.
    }
  }
}

/**
 * The run step of a dispatch: calls the handler of a prepared call with its checked arguments.
 *
 * The handler's `context.signal` is the cheapest signal that is honest about the call:
 * - no caller signal and no time limit: the shared signal that never aborts;
 * - a signal the caller gave for this one call ({@link AbortFanOut.forOneCall}: `dispatch`) and
 *   no time limit: that signal itself, as most libraries pass a caller's signal on;
 * - otherwise (a time limit, or a signal shared by the calls of a `dispatchAll` or a stream): a
 *   signal of the call's own, made when the handler first reads it (many never do), which aborts
 *   when the time runs out or the caller's signal aborts, and never once the call has settled, so
 *   that no call's listeners pile up on the shared signal.
 * A handler that returns a plain value is done before an abort or a time limit could matter, and
 * costs no extra microtask turn; the race against the caller's abort and the time limit (a
 * listener, a timer) runs only while a returned promise is pending.
 *
 * Every handler is counted in `tracker` while it runs; one whose call was given up is counted as
 * abandoned until it settles, and then reported (and `watcher` told of both, for a record that waits on it).
 * @param caller the caller's signal, as the calls of one dispatch share it
 * @param data the caller's own data, given to the handler as `context.data`
 * @returns what the handler returned, awaited
 * @throws ToolExecutionError when the handler throws or rejects
 * @throws ToolTimeoutError when the time limit runs out
 * @throws ToolAbortedError when the caller's signal aborts (or already has)
 */
export function runCall(
  prepared: PreparedCall,
  caller: AbortFanOut | undefined,
  timeoutMs: number | undefined,
  tracker: ExecutionTracker,
  data?: unknown,
  watcher?: LateWatcher,
): Promise<unknown> {
  if (caller === undefined && timeoutMs === undefined) return invoke(prepared, tracker, data);
  const { tool, toolCallId } = prepared;
  if (caller?.signal.aborted) return Promise.reject(new ToolAbortedError(tool.name, toolCallId, caller.signal.reason, false));
  let stop: CallStop | undefined;
  let result: unknown;
  let pending: boolean;
  tracker.running++;
  try {
    if (timeoutMs === undefined && caller!.forOneCall) {
      const signal = caller!.signal;
      result = tool.handler(prepared.args, data === undefined ? { toolCallId, toolName: tool.name, signal } : { toolCallId, toolName: tool.name, signal, data });
    } else {
      stop = new CallStop(caller);
      result = tool.handler(prepared.args, stop.context(toolCallId, tool.name, data));
    }
    // Inside the try: a result whose `then` is a throwing getter fails as the handler's own error.
    pending = isThenable(result);
  } catch (error) {
    tracker.running--;
    stop?.release();
    return Promise.reject(new ToolExecutionError(tool.name, toolCallId, error));
  }
  if (!pending) {
    tracker.running--;
    stop?.release();
    return Promise.resolve(result);
  }
  return race(prepared, result as PromiseLike<unknown>, stop ?? new CallStop(caller), timeoutMs, tracker, watcher);
}

/** The fast path: the handler with the shared never-aborting signal, its outcome as a promise. */
function invoke(prepared: PreparedCall, tracker: ExecutionTracker, data: unknown): Promise<unknown> {
  const { tool, toolCallId, args } = prepared;
  let result: unknown;
  tracker.running++;
  try {
    result = tool.handler(args, data === undefined ? { toolCallId, toolName: tool.name, signal: NEVER_ABORTED_SIGNAL } : { toolCallId, toolName: tool.name, signal: NEVER_ABORTED_SIGNAL, data });
  } catch (error) {
    tracker.running--;
    return Promise.reject(new ToolExecutionError(tool.name, toolCallId, error));
  }
  if (typeof result !== "object" || result === null) {
    tracker.running--;
    return Promise.resolve(result);
  }
  return adopt(prepared, result, tracker);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

/** A handler's outcome (a promise, any thenable, or a value), its rejection wrapped like a thrown error; counted as running until it settles. */
function adopt(prepared: PreparedCall, result: unknown, tracker: ExecutionTracker): Promise<unknown> {
  return new Promise<unknown>((resolve) => resolve(result)).then(
    (value) => {
      tracker.running--;
      return value;
    },
    (error: unknown) => {
      tracker.running--;
      return Promise.reject(new ToolExecutionError(prepared.tool.name, prepared.toolCallId, error));
    },
  );
}

/**
 * A pending handler raced against the caller's abort and the time limit. The loser's outcome is
 * ignored: a handler that settles after its call was given up settles unheard.
 */
function race(
  prepared: PreparedCall,
  pending: PromiseLike<unknown>,
  stop: CallStop,
  timeoutMs: number | undefined,
  tracker: ExecutionTracker,
  watcher: LateWatcher | undefined,
): Promise<unknown> {
  const { tool, toolCallId } = prepared;
  const running = adopt(prepared, pending, tracker);
  return new Promise<unknown>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gaveUpAt: number | undefined;
    const giveUp = (error: Error, reason: unknown): void => {
      if (timer !== undefined) clearTimeout(timer);
      if (gaveUpAt !== undefined) return;
      gaveUpAt = performance.now();
      tracker.abandoned++;
      watcher?.abandoned();
      stop.abort(reason);
      reject(error);
    };
    const settledLate = (settlement: LateSettlement): void => {
      tracker.settled(tool.name, toolCallId, settlement.fulfilled, performance.now() - gaveUpAt!);
      watcher?.settled(settlement);
    };
    // Heard first, so that the handler's outcome is always heard, even when the call is given up at once.
    running.then(
      (value) => {
        if (gaveUpAt !== undefined) return settledLate({ fulfilled: true, value });
        if (timer !== undefined) clearTimeout(timer);
        stop.release();
        resolve(value);
      },
      (error: unknown) => {
        if (gaveUpAt !== undefined) return settledLate({ fulfilled: false });
        if (timer !== undefined) clearTimeout(timer);
        stop.release();
        reject(error);
      },
    );
    // The handler may have aborted the caller's signal itself, before it returned.
    const caller = stop.caller;
    if (caller?.signal.aborted) return giveUp(new ToolAbortedError(tool.name, toolCallId, caller.signal.reason), caller.signal.reason);
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(tool.name, toolCallId, timeoutMs);
        giveUp(error, error);
      }, timeoutMs);
    }
    stop.onCallerAbort((reason) => giveUp(new ToolAbortedError(tool.name, toolCallId, reason), reason));
  });
}

/**
 * How one guarded call tells its handler to stop: the handler's `context.signal`, made on its
 * first read and aborted when the call times out or the caller aborts (even when it is first read
 * after that), and the call's one subscription to the caller's signal, held only while needed.
 */
class CallStop {
  #controller: AbortController | undefined;
  #reason: unknown;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;
  #released = false;
  #onCallerAbort: ((reason: unknown) => void) | undefined;

  constructor(readonly caller: AbortFanOut | undefined) {}

  /** The handler's context, whose `signal` is this stop's, made on first read: see {@link guardedContext}. */
  context(toolCallId: string, toolName: string, data: unknown): ToolContext {
    return guardedContext(toolCallId, toolName, this, data);
  }

  /** The handler's signal, made now if it was not yet: see {@link CallStop.context}. */
  signal(): AbortSignal {
    return this.#signal();
  }

  /** Calls `listener` with the reason when the caller's signal aborts, until released. */
  onCallerAbort(listener: (reason: unknown) => void): void {
    this.#onCallerAbort = listener;
    this.#subscribe();
  }

  /** Stops: aborts the handler's signal, if it was made, with `reason`; lets go of the caller's signal. */
  abort(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#reason = reason;
    this.release();
    this.#controller?.abort(reason);
  }

  /** Lets go of the caller's signal: the call is settled (a signal first read after this never aborts). */
  release(): void {
    this.#released = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#reason);
      else if (this.caller?.signal.aborted) this.#controller.abort(this.caller.signal.reason);
      else this.#subscribe();
    }
    return this.#controller.signal;
  }

  #subscribe(): void {
    if (this.#unsubscribe !== undefined || this.caller === undefined || this.#stopped || this.#released) return;
    const caller = this.caller;
    this.#unsubscribe = caller.subscribe(() => {
      const reason: unknown = caller.signal.reason;
      const listener = this.#onCallerAbort;
      this.abort(reason);
      listener?.(reason);
    });
  }
}

/**
 * V8 drops a class's object layouts once no instance of it is left, and with them the optimized
 * code built on them (see `keepLayouts` in the streaming parser): after a full garbage collection
 * with no guarded call running, the next calls with a signal or a time limit would run
 * unoptimized for thousands of calls. A stop under a caller's fan-out, its signal made and its
 * subscription released, and its contexts (with and without `data`), kept for the life of the
 * module, keep those layouts.
 */
export const GUARDED_CALL_LAYOUT_KEEPERS: readonly object[] = (() => {
  const caller = new AbortFanOut(NEVER_ABORTED_SIGNAL);
  const stop = new CallStop(caller);
  const context = stop.context("", "layout", undefined);
  const withData = stop.context("", "layout", "data");
  stop.onCallerAbort(() => undefined);
  void context.signal;
  stop.release();
  return [caller, stop, context, withData];
})();
