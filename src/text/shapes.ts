import { cut } from "./describe.js";

/**
 * Short descriptions of what a schema expects, for issue messages: written from the schema
 * (never from the arguments) and bounded in length, so that a long `pattern` or a huge `enum`
 * cannot make one issue large.
 */

/** The most allowed values one message lists. */
const MAX_LISTED_VALUES = 12;
/** The longest text of one allowed value or schema fragment. */
const MAX_FRAGMENT_CHARACTERS = 100;

/** `string`, `either string or null`: the JSON type names of a `type` keyword. */
export function describeTypes(types: readonly unknown[]): string {
  const names = types.map((type) => cut(String(type), 40));
  return names.length === 1 ? names[0]! : `either ${names.join(" or ")}`;
}

/** `must be one of "fast", "exact"`, or `must be "card"` for one value: the allowed values as JSON, listed up to a bound. */
export function describeAllowed(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map((value) => cut(jsonText(value), MAX_FRAGMENT_CHARACTERS / 2));
  if (values.length === 1) return `must be ${shown[0]}`;
  const more = values.length > MAX_LISTED_VALUES ? `, and ${values.length - MAX_LISTED_VALUES} more` : "";
  return `must be one of ${shown.join(", ")}${more}`;
}

/** Constraints written in words after a type: `string (pattern "^[a-z]+$")`, `integer (>= 1, <= 9)`. */
const CONSTRAINT_WORDS: ReadonlyArray<[string, (value: unknown) => string]> = [
  ["format", (value) => `format ${String(value)}`],
  ["pattern", (value) => `pattern ${cut(jsonText(value), MAX_FRAGMENT_CHARACTERS / 2)}`],
  ["minimum", (value) => `>= ${String(value)}`],
  ["exclusiveMinimum", (value) => `> ${String(value)}`],
  ["maximum", (value) => `<= ${String(value)}`],
  ["exclusiveMaximum", (value) => `< ${String(value)}`],
  ["minLength", (value) => `at least ${String(value)} characters`],
  ["maxLength", (value) => `at most ${String(value)} characters`],
];
const WORDED_KEYWORDS = new Set(["type", "description", "title", ...CONSTRAINT_WORDS.map(([keyword]) => keyword)]);

/**
 * A schema (or a keyword's value, such as a pattern) in a few words when it is a simple typed
 * schema (`string (format date-time)`), else as compact JSON; cut to a bound either way.
 */
export function describeSchemaFragment(fragment: unknown): string {
  if (typeof fragment === "object" && fragment !== null && !Array.isArray(fragment)) {
    const schema = fragment as Record<string, unknown>;
    if (typeof schema.type === "string" && Object.keys(schema).every((key) => WORDED_KEYWORDS.has(key))) {
      const words = CONSTRAINT_WORDS.filter(([keyword]) => schema[keyword] !== undefined).map(([keyword, word]) => word(schema[keyword]));
      return cut(words.length === 0 ? schema.type : `${schema.type} (${words.join(", ")})`, MAX_FRAGMENT_CHARACTERS);
    }
  }
  return cut(jsonText(fragment), MAX_FRAGMENT_CHARACTERS);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}
