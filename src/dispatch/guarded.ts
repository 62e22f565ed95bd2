import type { TSchema } from "typebox";
import { ToolAbortedError, ToolExecutionError, ToolTimeoutError } from "../errors.js";
import type { ToolHandler } from "../types.js";

/**
 * A caller's signal watched by one listener, however many calls share it: `dispatchAll` runs up
 * to `concurrency` calls under one signal, and a listener per call on the caller's signal would
 * pile up there (Node warns past ten). Subscribers are kept in a plain Set and told in turn.
 */
export class AbortFanOut {
  readonly #subscribers = new Set<() => void>();
  readonly #onAbort = (): void => {
    for (const subscriber of [...this.#subscribers]) subscriber();
  };

  constructor(readonly signal: AbortSignal) {}

  /** Calls `onAbort` when the signal aborts; returns the unsubscribe. The signal holds a listener only while someone subscribes. */
  subscribe(onAbort: () => void): () => void {
    if (this.#subscribers.size === 0) this.signal.addEventListener("abort", this.#onAbort, { once: true });
    this.#subscribers.add(onAbort);
    return () => {
      this.#subscribers.delete(onAbort);
      if (this.#subscribers.size === 0) this.signal.removeEventListener("abort", this.#onAbort);
    };
  }
}

/**
 * Runs a handler under a caller's signal (through its {@link AbortFanOut}) and/or a time limit,
 * aborting its `context.signal` when either fires.
 * @throws ToolAbortedError when the caller's signal aborts (or already has)
 * @throws ToolTimeoutError when the time limit runs out
 * @throws ToolExecutionError when the handler throws or rejects
 */
export async function runGuarded(
  handler: ToolHandler<TSchema>,
  args: unknown,
  toolName: string,
  toolCallId: string,
  caller: AbortFanOut | undefined,
  timeoutMs: number | undefined,
): Promise<unknown> {
  const callerSignal = caller?.signal;
  if (callerSignal?.aborted) throw new ToolAbortedError(toolName, toolCallId, callerSignal.reason);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(toolName, toolCallId, timeoutMs);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    }
    if (caller !== undefined) {
      unsubscribe = caller.subscribe(() => {
        controller.abort(caller.signal.reason);
        reject(new ToolAbortedError(toolName, toolCallId, caller.signal.reason));
      });
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
    unsubscribe?.();
  }
}
