/**
 * A caller's signal watched by one listener, however many calls share it: `dispatchAll` runs up
 * to `concurrency` calls under one signal, and a listener per call on the caller's signal would
 * pile up there (Node warns past ten). Subscribers are kept in a plain Set and told in turn.
 */
export class AbortFanOut {
  // Made by the first subscription: most calls settle without one, and a dispatch pays nothing for it.
  #subscribers: Set<() => void> | undefined;
  #onAbort: (() => void) | undefined;

  /**
   * @param forOneCall whether the caller gave `signal` for one call alone (`dispatch`), whose
   * handler may then be handed it as is; a signal shared by many calls (`dispatchAll`, a stream)
   * is not: each call's handler gets a signal of its own
   */
  constructor(
    readonly signal: AbortSignal,
    readonly forOneCall = false,
  ) {}

  /** Calls `onAbort` when the signal aborts; returns the unsubscribe. The signal holds a listener only while someone subscribes. */
  subscribe(onAbort: () => void): () => void {
    const subscribers = (this.#subscribers ??= new Set());
    const listener = (this.#onAbort ??= () => {
      for (const subscriber of [...subscribers]) subscriber();
    });
    if (subscribers.size === 0) this.signal.addEventListener("abort", listener, { once: true });
    subscribers.add(onAbort);
    return () => {
      subscribers.delete(onAbort);
      if (subscribers.size === 0) this.signal.removeEventListener("abort", listener);
    };
  }
}
