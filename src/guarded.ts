import type { TSchema } from "typebox";
import { ToolAbortedError, ToolExecutionError, ToolTimeoutError } from "./errors.js";
import type { ToolHandler } from "./types.js";

/**
 * Runs a handler under a caller's signal and/or a time limit, aborting its
 * `context.signal` when either fires.
 * @throws ToolAbortedError when the caller's signal aborts (or already has)
 * @throws ToolTimeoutError when the time limit runs out
 * @throws ToolExecutionError when the handler throws or rejects
 */
export async function runGuarded(
  handler: ToolHandler<TSchema>,
  args: unknown,
  toolName: string,
  toolCallId: string,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<unknown> {
  if (callerSignal?.aborted) throw new ToolAbortedError(toolName, toolCallId, callerSignal.reason);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onCallerAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(toolName, toolCallId, timeoutMs);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    }
    if (callerSignal !== undefined) {
      onCallerAbort = () => {
        controller.abort(callerSignal.reason);
        reject(new ToolAbortedError(toolName, toolCallId, callerSignal.reason));
      };
      callerSignal.addEventListener("abort", onCallerAbort, { once: true });
    }
  });
  const running = (async () => {
    try {
      return await handler(args, { toolCallId, toolName, signal: controller.signal });
    } catch (error) {
      throw new ToolExecutionError(toolName, toolCallId, error);
    }
  })();
  // The handler may settle after the race is lost; its outcome is then deliberately ignored.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onCallerAbort !== undefined) callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}
