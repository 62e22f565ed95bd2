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
