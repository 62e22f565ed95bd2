/**
 * The signal of every call that has no caller signal and no time limit: it
 * can never abort (its controller is not kept). Because it can never fire,
 * it keeps no listeners: a handler may add one on every call and nothing
 * accumulates, where a plain shared signal would hold them all forever. It is
 * still a real `AbortSignal`, for `fetch`, `fs`, `AbortSignal.any` and the rest;
 * sharing it spares each call an `AbortController`, which costs microseconds.
 */
export const NEVER_ABORTED_SIGNAL: AbortSignal = neverAbortingSignal();

function neverAbortingSignal(): AbortSignal {
  const signal = new AbortController().signal;
  const ignore = (): void => undefined;
  Object.defineProperty(signal, "addEventListener", { value: ignore });
  Object.defineProperty(signal, "removeEventListener", { value: ignore });
  return signal;
}
