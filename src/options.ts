/**
 * Option checks for every public entry point, in one voice: a programmer's mistake throws a
 * `TypeError` at once, before any call runs, naming the option and what it got (its type, or a
 * short quote of a string, never a whole value).
 */

/** What an option got, for a message: `null`, `"text"` (cut), `12`, or the type. */
export function describeOption(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

/**
 * The names of every option of `T`, as a list a runtime check can read: `everyOption<T>()([...])`
 * fails to compile when the list leaves out an option of `T` (one added to the interface later),
 * or names one `T` does not have.
 */
export function everyOption<T>() {
  return <const Names extends readonly (keyof T & string)[]>(names: Names & ([Exclude<keyof T, Names[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, Names[number]> })): Names => names;
}

/**
 * Refuses an option nobody reads: a misspelt one (`timeout` for `timeoutMs`) would otherwise be
 * dropped without a word, and the limit it was meant to set never applied. An option set to
 * `undefined` is unset, whatever its name. Options that are not an object (`5`, a function, a
 * string, whose characters would read as options named `0`, `1`…) are refused as a whole.
 * @param accepted the options the entry point takes
 * @param within the option these are the fields of (`"retry"`), for one nested in another
 * @throws TypeError naming the first unknown option and the accepted ones
 */
export function refuseUnknownOptions(options: unknown, accepted: readonly string[], within?: string): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`${within ?? "options"} must be an object, got ${describeOption(options)}`);
  }
  // `for…in` allocates nothing, where `Object.keys` makes an array: a dispatch's options are checked on every call.
  for (const key in options) {
    if (accepted.includes(key) || !Object.hasOwn(options, key) || (options as Record<string, unknown>)[key] === undefined) continue;
    if (within === undefined) throw new TypeError(`unknown option ${describeOption(key)}: the options are ${accepted.join(", ")}`);
    throw new TypeError(`unknown option ${describeOption(`${within}.${key}`)}: the options of ${within} are ${accepted.join(", ")}`);
  }
}

/**
 * A positive integer, or `Infinity` where `orInfinity` allows it.
 * @throws TypeError naming the option
 */
export function positiveInteger(option: string, value: unknown, orInfinity = false): number {
  if (orInfinity && value === Infinity) return Infinity;
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  throw new TypeError(`${option} must be a positive integer${orInfinity ? " or Infinity" : ""}, got ${describeOption(value)}`);
}

/** The longest time `setTimeout` honours, in milliseconds (it takes a longer one as 1 ms). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A time limit in milliseconds: `undefined` when unset, `Infinity` for none.
 * @throws TypeError naming the option
 */
export function milliseconds(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && value > 0 && (value <= MAX_TIMER_MS || value === Infinity)) return value;
  throw new TypeError(`${option} must be a positive number of milliseconds (at most ${MAX_TIMER_MS}, or Infinity for none), got ${describeOption(value)}`);
}

/**
 * One of a few allowed values.
 * @throws TypeError naming the option and the allowed values
 */
export function oneOf<T extends string>(option: string, value: unknown, allowed: readonly T[]): T {
  if (allowed.includes(value as T)) return value as T;
  throw new TypeError(`${option} must be ${allowed.map((choice) => JSON.stringify(choice)).join(" or ")}, got ${describeOption(value)}`);
}

/**
 * A function, or `undefined` when unset.
 * @throws TypeError naming the option
 */
export function optionalFunction<T extends (...args: never[]) => unknown>(option: string, value: unknown): T | undefined {
  if (value === undefined || typeof value === "function") return value as T | undefined;
  throw new TypeError(`${option} must be a function, got ${describeOption(value)}`);
}

/**
 * An `AbortSignal`, or `undefined` when unset.
 * @throws TypeError naming the option
 */
export function optionalSignal(option: string, value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new TypeError(`${option} must be an AbortSignal, got ${describeOption(value)}`);
}

/** What a registry offers to the subpaths that take one: enough to tell a registry from anything else. */
interface RegistryShape {
  list(): unknown;
  register(...args: never[]): unknown;
  dispatch(...args: never[]): unknown;
}

/**
 * A `ToolRegistry` (checked by its methods, so that two copies of this package still work together).
 * @throws TypeError when `value` is not one
 */
export function checkRegistry<T>(value: T): T {
  const shape = value as Partial<RegistryShape> | null | undefined;
  if (typeof shape?.list === "function" && typeof shape.register === "function" && typeof shape.dispatch === "function") return value;
  throw new TypeError(`registry must be a ToolRegistry, got ${describeOption(value)}`);
}

/** An approval token option: a string, or unset. */
export function optionalToken(option: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new TypeError(`${option} must be an approval token (a string), got ${describeOption(value)}`);
}

/** `dispatchAll`'s `approvals`: tokens by call id, or unset (the registry's and a queue's). */
function checkApprovals(value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError(`approvals must be an object of tokens by tool call id, got ${describeOption(value)}`);
  for (const [id, token] of Object.entries(value)) optionalToken(`approvals[${JSON.stringify(id)}]`, token);
  return value as Readonly<Record<string, string>>;
}

/**
 * `dispatchAll`'s `approvals`, checked, as a look-up of a call's token by its id (own keys only);
 * `undefined` when unset.
 * @throws TypeError as {@link checkApprovals} does
 */
export function approvalLookup(value: unknown): ((toolCallId: string) => string | undefined) | undefined {
  const approvals = checkApprovals(value);
  if (approvals === undefined) return undefined;
  return (toolCallId) => (Object.hasOwn(approvals, toolCallId) ? approvals[toolCallId] : undefined);
}
