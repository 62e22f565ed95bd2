/** A tool's `retry`: how often and how long to wait between attempts. Only for tools declared safe to repeat. */
export interface RetryOptions {
  /** How many more attempts after the first. */
  retries: number;
  /**
   * The least wait before a retry, in milliseconds.
   * @default 100
   */
  minDelayMs?: number | undefined;
  /**
   * The most wait before a retry, in milliseconds.
   * @default 5000
   */
  maxDelayMs?: number | undefined;
}

/** A tool's `retry` as the registry keeps it: every field set, the defaults filled in. */
export type RetryPlan = { readonly [K in keyof RetryOptions]-?: NonNullable<RetryOptions[K]> };

/**
 * The wait before retry `attempt` (1 for the first retry): exponential from `minDelayMs`, capped
 * at `maxDelayMs`, with "equal jitter" (between half and all of it, never under `minDelayMs`), so
 * that many callers retrying together spread out.
 */
export function retryDelay(attempt: number, minDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** (attempt - 1));
  return Math.max(minDelayMs, ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Waits `ms`, or until `signal` aborts (then rejects with the signal's reason wrapped by `aborted`).
 */
export function wait(ms: number, subscribe: ((onAbort: () => void) => () => void) | undefined, aborted: () => Error): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let unsubscribe: (() => void) | undefined;
    const timer = setTimeout(() => {
      unsubscribe?.();
      resolve();
    }, ms);
    unsubscribe = subscribe?.(() => {
      clearTimeout(timer);
      reject(aborted());
    });
  });
}
