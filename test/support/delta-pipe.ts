import type { ToolCallDelta } from "../../src/index.js";

/**
 * An async iterable of deltas the test writes to as it goes, standing in for a model that is
 * still streaming: `write` hands a delta to the reader, `end` ends the stream, `fail` makes the
 * reader's next read throw. `closed` says whether the reader stopped it early (`return()`).
 */
export class DeltaPipe implements AsyncIterable<ToolCallDelta> {
  readonly #queue: Array<IteratorResult<ToolCallDelta> | { error: unknown }> = [];
  #waiting: ((item: IteratorResult<ToolCallDelta> | { error: unknown }) => void) | undefined;
  closed = false;
  /** How many deltas the reader has taken. */
  read = 0;

  write(...deltas: ToolCallDelta[]): void {
    for (const delta of deltas) this.#put({ done: false, value: delta });
  }

  end(): void {
    this.#put({ done: true, value: undefined });
  }

  fail(error: unknown): void {
    this.#put({ error });
  }

  #put(item: IteratorResult<ToolCallDelta> | { error: unknown }): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting !== undefined) waiting(item);
    else this.#queue.push(item);
  }

  [Symbol.asyncIterator](): AsyncIterator<ToolCallDelta> {
    return {
      next: async () => {
        const item = this.#queue.shift() ?? (await new Promise<IteratorResult<ToolCallDelta> | { error: unknown }>((resolve) => (this.#waiting = resolve)));
        if ("error" in item) throw item.error;
        if (item.done !== true) this.read++;
        return item;
      },
      return: async () => {
        this.closed = true;
        return { done: true, value: undefined };
      },
    };
  }
}

/** Resolves after the pending promise jobs and timers of this turn have run. */
export function settle(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
