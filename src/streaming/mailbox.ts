/**
 * Items that arrive while a loop is busy with something else, and a promise to wait for the next
 * one: the stream dispatcher waits on the model's stream and on handlers' results at once.
 */
export class Mailbox<T> {
  readonly #items: T[] = [];
  #wake: (() => void) | undefined;

  /** How many items wait. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item, waking whoever waits. */
  put(item: T): void {
    this.#items.push(item);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Takes every item waiting, oldest first. */
  takeAll(): T[] {
    return this.#items.splice(0, this.#items.length);
  }

  /**
   * Resolves when an item is waiting (at once if one is). There is one waiter at a time: each wait
   * is a new promise that replaces the last one, which then never resolves (the race it was in was
   * decided by the other side) and is collected. One promise shared by every wait until an item
   * came would hold a reaction from each race it lost, and with it what won that race: every delta
   * of a stream whose calls take long to settle.
   */
  arrival(): Promise<void> {
    if (this.#items.length > 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }
}
