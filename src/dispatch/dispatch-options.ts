import { everyOption, refuseUnknownOptions } from "../options.js";
import type { DispatchAllOptions, DispatchOptions, DispatchStreamOptions } from "../types.js";

/** Every option of `dispatch` (the registry's and a tool queue's): any other is refused. */
export const DISPATCH_OPTIONS = everyOption<DispatchOptions>()(["signal", "approval", "data", "allow"]);

/** Every option of `dispatchAll` (the registry's and a tool queue's). */
export const DISPATCH_ALL_OPTIONS = everyOption<DispatchAllOptions>()(["signal", "data", "allow", "concurrency", "approvals", "order"]);

/** Every option of `dispatchStream`. */
export const DISPATCH_STREAM_OPTIONS = everyOption<DispatchStreamOptions>()([...DISPATCH_ALL_OPTIONS, "onInvalid", "abortController"]);

/**
 * Refuses an option `dispatch` does not take (`timeoutMs`, which only `register` and the registry
 * take, would otherwise be dropped). Its options come with every call: the four names of
 * {@link DISPATCH_OPTIONS} compared one by one cost about 10 ns a call, half of a search of the
 * list; at the first other name (maybe inherited, or unset), {@link refuseUnknownOptions} decides, once.
 * @throws TypeError naming the option and those `dispatch` takes
 */
export function refuseUnknownDispatchOptions(options: object): void {
  if (typeof options !== "object") refuseUnknownOptions(options, DISPATCH_OPTIONS);
  for (const key in options) {
    if (key === "signal" || key === "data" || key === "approval" || key === "allow") continue;
    refuseUnknownOptions(options, DISPATCH_OPTIONS);
    return;
  }
}
