import { describeOption, oneOf, positiveInteger, refuseUnknownOptions } from "../options.js";

/** An adapter's options once checked: every value known good, `only` copied. */
export interface CheckedAdapterOptions {
  readonly names: "strict" | "map";
  /** The registry names to send, or `undefined` for every tool. */
  readonly only: readonly string[] | undefined;
  /** The provider's limit unless the option set another. */
  readonly maxTools: number;
  /** OpenAI's strict mode (always `false` for the adapters that do not take it). */
  readonly strict: boolean;
}

/** The options every adapter takes, by name. */
export const ADAPTER_OPTIONS = ["names", "only", "maxTools"] as const;
/** The options the OpenAI adapters take: every adapter's, and `strict`. */
export const OPENAI_ADAPTER_OPTIONS = [...ADAPTER_OPTIONS, "strict"] as const;

/**
 * Checks an adapter's options once, when the adapter is made, so that a
 * mistake throws before any request. An option set to `undefined` is unset.
 * @param accepted the options this adapter takes; any other one is refused
 * @param defaultMaxTools the provider's own limit on tools per request
 * @throws TypeError naming the first bad option, or an option this adapter does not take
 */
export function checkAdapterOptions(options: unknown, accepted: readonly string[], defaultMaxTools: number): CheckedAdapterOptions {
  const given = optionsObject(options);
  refuseUnknownOptions(given, accepted);
  const strict = given.strict ?? false;
  if (typeof strict !== "boolean") throw new TypeError(`strict must be a boolean, got ${describeOption(strict)}`);
  return {
    names: oneOf("names", given.names ?? "strict", ["strict", "map"]),
    only: checkOnly(given.only),
    maxTools: positiveInteger("maxTools", given.maxTools ?? defaultMaxTools, true),
    strict,
  };
}

/**
 * Checks the options of one `tools()` call.
 * @returns the tool names of its `only`, or `undefined` when unset
 * @throws TypeError for a bad `only`, or an option `tools()` does not take
 */
export function checkToolsOptions(options: unknown): readonly string[] | undefined {
  if (options === undefined) return undefined;
  const given = optionsObject(options);
  refuseUnknownOptions(given, ["only"]);
  return checkOnly(given.only);
}

/**
 * An `only` option as a list of names, copied now: an iterable may be read only once.
 * Whether each is registered is checked by `tools()`, since the registry may change.
 */
function checkOnly(only: unknown): readonly string[] | undefined {
  if (only === undefined) return undefined;
  if (typeof only === "string" || typeof (only as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function") {
    throw new TypeError(`only must be a list of registry tool names, got ${describeOption(only)}`);
  }
  const names = Array.from(only as Iterable<unknown>);
  const odd = names.findIndex((name) => typeof name !== "string");
  if (odd !== -1) throw new TypeError(`only must be a list of registry tool names, got a list holding ${describeOption(names[odd])}`);
  return Object.freeze(names as string[]);
}

function optionsObject(options: unknown): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`options must be an object, got ${describeOption(options)}`);
  return options as Record<string, unknown>;
}

