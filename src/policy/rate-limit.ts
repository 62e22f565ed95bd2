import { LRUCache } from "lru-cache";

/** A tool's `rateLimit`: at most `limit` calls in any `intervalMs`, per key. */
export interface RateLimit<TContext = unknown> {
  /** The most calls accepted in any window of `intervalMs`. */
  limit: number;
  /** The window, in milliseconds. */
  intervalMs: number;
  /**
   * The scope of the limit for one call (a user id, a tenant): calls with different keys have
   * separate limits. One limit for the whole registry when unset. A key that throws refuses the
   * call with a `ToolHookError`.
   */
  key?: (context: TContext) => string;
}

/** How many distinct keys are remembered; the least recently used is forgotten first. */
const MAX_KEYS = 10_000;

/**
 * A sliding-window rate limiter: it remembers when each accepted call of the last window came, so
 * no window of `intervalMs`, wherever it starts, holds more than `limit` calls (a fixed window
 * would let twice the limit through around its edges), and `retryAfterMs` is exact. Memory: at
 * most `limit` times per key, for at most 10,000 keys.
 */
export class SlidingWindowLimiter {
  readonly #windows = new LRUCache<string, number[]>({ max: MAX_KEYS });

  constructor(
    readonly limit: number,
    readonly intervalMs: number,
  ) {}

  /**
   * Takes one call for `key` now: 0 when accepted (and counted), else how long until a call
   * would be accepted, in milliseconds.
   */
  take(key: string, now = performance.now()): number {
    let times = this.#windows.get(key);
    if (times === undefined) {
      times = [];
      this.#windows.set(key, times);
    }
    const refusedFor = this.#refusal(times, now);
    if (refusedFor === 0) times.push(now);
    return refusedFor;
  }

  /** What {@link take} would answer now, taking nothing: for a call that must wait before it can run. */
  refusal(key: string, now = performance.now()): number {
    const times = this.#windows.get(key);
    return times === undefined ? 0 : this.#refusal(times, now);
  }

  /** Forgets the calls of `times` that left the window ending `now`; 0 when one more fits, else how long until one would. */
  #refusal(times: number[], now: number): number {
    const windowStart = now - this.intervalMs;
    while (times.length > 0 && times[0]! <= windowStart) times.shift();
    return times.length >= this.limit ? Math.max(1, Math.ceil(times[0]! - windowStart)) : 0;
  }

  /** Gives back the call `key` took at `at` (see {@link take}): it never ran, so it does not count. */
  giveBack(key: string, at: number): void {
    const times = this.#windows.get(key);
    const index = times === undefined ? -1 : times.lastIndexOf(at);
    if (index >= 0) times!.splice(index, 1);
  }
}
