import { MAX_VALUE_DEPTH } from "../schema/keywords.js";

/**
 * Whether `value` is already what `JSON.parse(JSON.stringify(value))` would give (equal, if not
 * the same object): plain objects and arrays all the way down, holding strings, booleans, `null`
 * and finite numbers other than `-0`. Anything JSON would change (a `Date` or other class
 * instance, a `toJSON`, `undefined`, a function, a symbol key, an array hole, `NaN`) says no, as
 * does nesting deeper than `MAX_VALUE_DEPTH`. Never throws: a value it cannot read is not JSON data.
 */
export function isJsonData(value: unknown): boolean {
  try {
    return isJsonNode(value, 0);
  } catch {
    return false;
  }
}

function isJsonNode(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_VALUE_DEPTH) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    for (let index = 0; index < array.length; index++) if (!isJsonNode(array[index], depth + 1)) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) if (!isJsonNode(record[key], depth + 1)) return false;
  return true;
}
