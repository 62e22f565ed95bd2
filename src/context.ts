import type { ToolContext } from "./types.js";

/**
 * The context of a call that has no caller signal and no time limit. Its
 * `signal` never aborts, and is created only if the handler reads it: an
 * `AbortController` costs microseconds, and a signal shared between calls
 * would keep every listener a handler ever added.
 */
export class UnguardedContext implements ToolContext {
  #signal: AbortSignal | undefined;

  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
  ) {}

  get signal(): AbortSignal {
    this.#signal ??= new AbortController().signal;
    return this.#signal;
  }
}
