import { ToolAbortedError, ToolExecutionError, ToolTimeoutError } from "../errors.js";
import type { AbortFanOut } from "./abort-fan-out.js";
import { NEVER_ABORTED_SIGNAL } from "./context.js";
import type { PreparedCall } from "./prepare.js";

/**
 * The run step of a dispatch: calls the handler of a prepared call with its checked arguments.
 * A call with no caller signal and no time limit takes the fast path: the handler runs at once
 * with the shared signal that never aborts, and a plain value costs no extra microtask turn.
 * Otherwise the handler's `context.signal` aborts when the caller's signal does or the time runs
 * out, and the call settles then, whether or not the handler has.
 * @param caller the caller's signal, as the calls of one dispatch share it
 * @returns what the handler returned, awaited
 * @throws ToolExecutionError when the handler throws or rejects
 * @throws ToolTimeoutError when the time limit runs out
 * @throws ToolAbortedError when the caller's signal aborts (or already has)
 */
export function runCall(prepared: PreparedCall, caller: AbortFanOut | undefined, timeoutMs: number | undefined): Promise<unknown> {
  if (caller === undefined && timeoutMs === undefined) return invoke(prepared, NEVER_ABORTED_SIGNAL);
  return runGuarded(prepared, caller, timeoutMs);
}

/** Calls the handler; a promise of its outcome that rejects only with a {@link ToolExecutionError}. */
function invoke(prepared: PreparedCall, signal: AbortSignal): Promise<unknown> {
  const { tool, toolCallId, args } = prepared;
  let result: unknown;
  try {
    result = tool.handler(args, { toolCallId, toolName: tool.name, signal });
  } catch (error) {
    return Promise.reject(new ToolExecutionError(tool.name, toolCallId, error));
  }
  if (typeof result !== "object" || result === null) return Promise.resolve(result);
  // A promise (or any thenable) is adopted; its rejection is wrapped like a thrown error.
  return new Promise<unknown>((resolve) => resolve(result)).catch((error: unknown) => Promise.reject(new ToolExecutionError(tool.name, toolCallId, error)));
}

async function runGuarded(prepared: PreparedCall, caller: AbortFanOut | undefined, timeoutMs: number | undefined): Promise<unknown> {
  const { tool, toolCallId } = prepared;
  const callerSignal = caller?.signal;
  if (callerSignal?.aborted) throw new ToolAbortedError(tool.name, toolCallId, callerSignal.reason);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(tool.name, toolCallId, timeoutMs);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    }
    if (caller !== undefined) {
      unsubscribe = caller.subscribe(() => {
        controller.abort(caller.signal.reason);
        reject(new ToolAbortedError(tool.name, toolCallId, caller.signal.reason));
      });
    }
  });
  const running = invoke(prepared, controller.signal);
  // The handler may settle after the race is lost; its outcome is then deliberately ignored.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    unsubscribe?.();
  }
}
