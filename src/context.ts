import type { ToolContext } from "./types.js";

/**
 * The context of a call that has no caller signal and no time limit. Its
 * `signal` never aborts, and is created only if the handler reads it: an
 * `AbortController` costs microseconds, and a signal shared between calls
 * would keep every listener a handler ever added.
 */
export class UnguardedContext implements ToolContext {
  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
  ) {}

  get signal(): AbortSignal {
    const signal = new AbortController().signal;
    // The first read defines the signal on the instance: later reads see the same one.
    Object.defineProperty(this, "signal", { value: signal, enumerable: true });
    return signal;
  }
}
