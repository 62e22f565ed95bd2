import { DEFAULT_MAX_ARGUMENT_BYTES } from "../validation/arguments.js";

/** Each registry's `maxArgumentBytes`, as it was checked when the registry was made. */
const limits = new WeakMap<object, number>();

/** Records `registry`'s `maxArgumentBytes`, for the code that reads a call's text before dispatch does. */
export function recordArgumentLimit(registry: object, maxBytes: number): void {
  limits.set(registry, maxBytes);
}

/**
 * The most UTF-8 bytes of arguments text `registry` parses: what a provider adapter may parse
 * for it (a larger text is left for dispatch, which refuses it); the default for anything else.
 */
export function argumentLimitOf(registry: object): number {
  return limits.get(registry) ?? DEFAULT_MAX_ARGUMENT_BYTES;
}
