/**
 * Equality of JSON values as JSON Schema defines it (for `enum`, `const` and `uniqueItems`):
 * numbers by mathematical value (`1` equals `1.0`, `0` equals `-0`), strings by their code units,
 * arrays only with arrays (same length, equal items in order), objects only with objects (same
 * own keys, equal values). An array never equals an object, whatever keys the object has.
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  const leftIsArray = Array.isArray(left);
  if (leftIsArray !== Array.isArray(right)) return false;
  if (leftIsArray) {
    const a = left as unknown[];
    const b = right as unknown[];
    if (a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key) || !jsonEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * A text key of a JSON value such that two values have the same key exactly when
 * {@link jsonEqual} holds: sorted object keys, `-0` written as `0`, strings JSON-escaped (lone
 * surrogates included). For finding duplicates in linear time.
 */
export function jsonKey(value: unknown): string {
  switch (typeof value) {
    case "number":
      return Object.is(value, -0) ? "0" : String(value);
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let text = "[";
        for (let index = 0; index < value.length; index++) text += (index === 0 ? "" : ",") + jsonKey(value[index]);
        return `${text}]`;
      }
      const keys = Object.keys(value).sort();
      let text = "{";
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        text += `${index === 0 ? "" : ","}${JSON.stringify(key)}:${jsonKey((value as Record<string, unknown>)[key])}`;
      }
      return `${text}}`;
    }
    default:
      // Not JSON (undefined, a function, a bigint): distinct from every JSON value's key.
      return `~${typeof value}`;
  }
}

/**
 * A test of membership in `values` by {@link jsonEqual}, in constant time: strings, numbers,
 * booleans and `null` compared as themselves (a Set's SameValueZero makes `0` and `-0` one member,
 * as JSON equality has it; NaN, never a JSON value, is left out), arrays and objects by {@link jsonKey},
 * written only as far as the longest member's key: a larger value is no member, and its test costs
 * no more than that (an `enum` of objects at every level of a nested value stays linear in it).
 */
export function jsonMembership(values: readonly unknown[]): (value: unknown) => boolean {
  const primitives = new Set<unknown>();
  const compounds = new Set<string>();
  let longest = 0;
  for (const value of values) {
    if (typeof value === "object" && value !== null) {
      const key = jsonKey(value);
      compounds.add(key);
      longest = Math.max(longest, key.length);
    } else if (!Number.isNaN(value)) primitives.add(value);
  }
  return (value) => {
    if (typeof value !== "object" || value === null) return primitives.has(value);
    if (compounds.size === 0) return false;
    const key = jsonKeyWithin(value, longest);
    return key !== undefined && compounds.has(key);
  };
}

/** {@link jsonKey}, or `undefined` as soon as it would be longer than `maxLength`, having read no more of the value than that. */
export function jsonKeyWithin(value: unknown, maxLength: number): string | undefined {
  const budget = { left: maxLength };
  return keyWithin(value, budget);
}

function keyWithin(value: unknown, budget: { left: number }): string | undefined {
  if (typeof value !== "object" || value === null) {
    // A string's key is at least as long as the string: too long ones are never written.
    if (typeof value === "string" && value.length > budget.left) return undefined;
    const key = jsonKey(value);
    budget.left -= key.length;
    return budget.left < 0 ? undefined : key;
  }
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    budget.left -= 2;
    for (let index = 0; index < value.length; index++) {
      if (index > 0) budget.left--;
      const item = budget.left < 0 ? undefined : keyWithin(value[index], budget);
      if (item === undefined) return undefined;
      text += (index === 0 ? "" : ",") + item;
    }
    return budget.left < 0 ? undefined : `${text}]`;
  }
  const keys = Object.keys(value);
  // Each member takes at least `"":0` and a comma.
  if (keys.length * 5 > budget.left) return undefined;
  keys.sort();
  text = "{";
  budget.left -= 2;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const name = JSON.stringify(key);
    budget.left -= name.length + 1 + (index > 0 ? 1 : 0);
    const member = budget.left < 0 ? undefined : keyWithin((value as Record<string, unknown>)[key], budget);
    if (member === undefined) return undefined;
    text += `${index === 0 ? "" : ","}${name}:${member}`;
  }
  return budget.left < 0 ? undefined : `${text}}`;
}

/**
 * Identities of JSON values: two values get the same number exactly when {@link jsonEqual} holds.
 * An object's or array's identity is made from its members' identities (hash-consing), each
 * found once, so the identities of every item of every array in a nested value cost time linear
 * in its size, where a text key of each item (its whole subtree written out, at each level of
 * nesting) costs its size times its depth. Objects are known by reference: the values must not
 * change while one instance is in use (see {@link checkIdentities}).
 */
export class JsonIdentities {
  readonly #objects = new Map<object, number>();
  readonly #forms = new Map<string, number>();

  /** The identity of `value` (any value; one that is not JSON gets an identity of its type). */
  of(value: unknown): number {
    if (typeof value === "object" && value !== null) {
      const known = this.#objects.get(value);
      if (known !== undefined) return known;
      let form: string;
      if (Array.isArray(value)) {
        form = "[";
        for (let index = 0; index < value.length; index++) form += `${this.of(value[index])},`;
      } else {
        const keys = Object.keys(value).sort();
        form = "{";
        for (const key of keys) form += `${JSON.stringify(key)}:${this.of((value as Record<string, unknown>)[key])},`;
      }
      const identity = this.#formIdentity(form);
      this.#objects.set(value, identity);
      return identity;
    }
    // A primitive's key names its type (a string is quoted), so no two kinds share one.
    return this.#formIdentity(jsonKey(value));
  }

  #formIdentity(form: string): number {
    let identity = this.#forms.get(form);
    if (identity === undefined) {
      identity = this.#forms.size;
      this.#forms.set(form, identity);
    }
    return identity;
  }
}

/** Checks running now, one inside another; while any does, {@link checkIdentities} gives them one instance. */
let checksRunning = 0;
let sharedIdentities: JsonIdentities | undefined;

/**
 * Marks the start of one synchronous check of a value that nothing changes until it ends: the
 * refinements and explanations that run meanwhile share their {@link JsonIdentities}, so nested
 * `uniqueItems` arrays are read once in all. Each call must be matched by {@link endCheck}, in a
 * `finally`.
 */
export function beginCheck(): void {
  checksRunning++;
}

/** Marks the end of a check {@link beginCheck} began; the last to end drops the identities. */
export function endCheck(): void {
  if (--checksRunning === 0) sharedIdentities = undefined;
}

/** The identities for the check running now (shared within it), or fresh ones outside any. */
export function checkIdentities(): JsonIdentities {
  if (checksRunning === 0) return new JsonIdentities();
  return (sharedIdentities ??= new JsonIdentities());
}
