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
 * as JSON equality has it; NaN, never a JSON value, is left out), arrays and objects by {@link jsonKey}.
 */
export function jsonMembership(values: readonly unknown[]): (value: unknown) => boolean {
  const primitives = new Set<unknown>();
  const compounds = new Set<string>();
  for (const value of values) {
    if (typeof value === "object" && value !== null) compounds.add(jsonKey(value));
    else if (!Number.isNaN(value)) primitives.add(value);
  }
  return (value) => (typeof value === "object" && value !== null ? compounds.size > 0 && compounds.has(jsonKey(value)) : primitives.has(value));
}
