/**
 * The signal of every call that has no caller signal and no time limit: it
 * can never abort (its controller is not kept). Because it can never fire,
 * it keeps no listeners: a handler may add one on every call and nothing
 * accumulates, where a plain shared signal would hold them all forever. It is
 * still a real `AbortSignal`, for `fetch`, `fs`, `AbortSignal.any` and the rest;
 * sharing it spares each call an `AbortController`, which costs microseconds.
 *
 * Every call of every registry shares it, so it is frozen: no handler can
 * make it read as aborted for the others (by defining or assigning `aborted`,
 * `reason` or the internal fields behind them, or by changing its prototype),
 * and none can fire listeners on it (`dispatchEvent` and `onabort` do nothing).
 */
export const NEVER_ABORTED_SIGNAL: AbortSignal = neverAbortingSignal();

function neverAbortingSignal(): AbortSignal {
  const signal = new AbortController().signal;
  const ignore = (): void => undefined;
  Object.defineProperties(signal, {
    addEventListener: { value: ignore },
    removeEventListener: { value: ignore },
    dispatchEvent: { value: () => false },
    onabort: { get: () => null, set: ignore },
  });
  // AbortSignal.any records its dependants on each source signal: let it create that record before the freeze.
  AbortSignal.any([signal]);
  return Object.freeze(signal);
}
