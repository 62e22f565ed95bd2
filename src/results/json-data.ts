import { MAX_VALUE_DEPTH } from "../schema/keywords.js";

/**
 * Whether `value` is already what `JSON.parse(JSON.stringify(value))` would give (equal, if not
 * the same object): plain objects and arrays all the way down, holding strings, booleans, `null`
 * and finite numbers other than `-0`. Anything JSON would change (a `Date` or other class
 * instance, a `toJSON`, `undefined`, a function, a symbol key, a property that is not enumerable,
 * an array hole, `NaN`) says no, as
 * does nesting deeper than `MAX_VALUE_DEPTH`. Never throws: a value it cannot read is not JSON data.
 */
export function isJsonData(value: unknown): boolean {
  return walked(value, EXACT);
}

/**
 * Whether `value` reads as its JSON does, to a reader that sees what JSON sees: plain objects and
 * arrays all the way down, holding strings, booleans, `null` and finite numbers. Unlike
 * {@link isJsonData}, `-0` (which JSON writes as `0`) passes, and symbol keys (which JSON and a
 * schema's check both pass over) are not looked for. What a check of `value` decides, or what a
 * person shown its JSON approves, is then what `value` is. Never throws.
 * @param undefinedProperties whether a property set to `undefined`, which JSON leaves out, passes
 * (as absent); an `undefined` array item never does (JSON writes it as `null`)
 */
export function readsAsJson(value: unknown, undefinedProperties: boolean): boolean {
  return walked(value, undefinedProperties ? AS_SHOWN : AS_READ);
}

/** How closely a value must be its JSON. */
interface Rules {
  /** Whether `-0` and symbol keys say no. */
  readonly exact: boolean;
  readonly undefinedProperties: boolean;
}

const EXACT: Rules = { exact: true, undefinedProperties: false };
const AS_READ: Rules = { exact: false, undefinedProperties: false };
const AS_SHOWN: Rules = { exact: false, undefinedProperties: true };

function walked(value: unknown, rules: Rules): boolean {
  try {
    return isJsonNode(value, 0, rules);
  } catch {
    // A getter or a proxy's trap that throws: what cannot be read is not JSON data.
    return false;
  }
}

function isJsonNode(value: unknown, depth: number, rules: Rules): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !(rules.exact && Object.is(value, -0));
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
    for (let index = 0; index < array.length; index++) if (!isJsonNode(array[index], depth + 1, rules)) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (rules.exact && Object.getOwnPropertySymbols(value).length > 0) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // A property JSON passes over (not enumerable) that a check of the object would still see.
  if (Object.getOwnPropertyNames(record).length !== keys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const item = record[keys[index]!];
    if (!(item === undefined && rules.undefinedProperties) && !isJsonNode(item, depth + 1, rules)) return false;
  }
  return true;
}
