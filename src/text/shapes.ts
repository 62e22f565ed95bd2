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
  return `must be ${describeValues(values)}`;
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

/** The longest shape one issue carries. */
const MAX_SHAPE_CHARACTERS = 120;
/** The most property names one shape lists. */
const MAX_LISTED_NAMES = 8;
/** A `$ref` followed this many times in a row without reaching a shape is described as nothing. */
const MAX_SHAPE_HOPS = 8;

/** Resolves a `$ref` of the schema being described: the one resolver of its document. */
export type ReferenceResolver = (ref: string) => unknown;

/**
 * The shape a schema node expects, in a few words, for an issue to carry: `string (format
 * date-time)`, `one of "fast", "exact"`, `array of integer (>= 0)`, `object with properties
 * "city", "days"`, `either string or null`. From the schema only, never from a value, one level
 * deep (an array's items, a union's branches) and cut to a bound. `undefined` when the node
 * constrains nothing that can be said this way (`{}`, `not`, a reference that resolves to nothing).
 */
export function describeShape(schema: unknown, resolve: ReferenceResolver): string | undefined {
  const shape = shapeOf(schema, resolve, 0, 0);
  return shape === undefined ? undefined : cut(shape, MAX_SHAPE_CHARACTERS);
}

/** `"card"`, or `one of "fast", "exact"`: allowed values as JSON, listed up to a bound. */
export function describeValues(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map((value) => cut(jsonText(value), MAX_FRAGMENT_CHARACTERS / 2));
  if (values.length === 1) return shown[0]!;
  const more = values.length > MAX_LISTED_VALUES ? `, and ${values.length - MAX_LISTED_VALUES} more` : "";
  return `one of ${shown.join(", ")}${more}`;
}

/** `"a", "b", and 3 more`: names from a schema, quoted as JSON (so that no name can break a line), listed up to a bound. */
export function describeNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED_NAMES).map((name) => cut(JSON.stringify(name), 40));
  return `${shown.join(", ")}${names.length > MAX_LISTED_NAMES ? `, and ${names.length - MAX_LISTED_NAMES} more` : ""}`;
}

/** Constraints of arrays, in words after `array`. */
const ARRAY_WORDS: ReadonlyArray<[string, (value: unknown) => string]> = [
  ["minItems", (value) => `at least ${String(value)} ${value === 1 ? "item" : "items"}`],
  ["maxItems", (value) => `at most ${String(value)} ${value === 1 ? "item" : "items"}`],
  ["uniqueItems", (value) => (value === true ? "unique" : "")],
];

function shapeOf(schema: unknown, resolve: ReferenceResolver, depth: number, hops: number): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema === false ? "nothing" : undefined;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string") return hops >= MAX_SHAPE_HOPS ? undefined : shapeOf(resolve(node.$ref), resolve, depth, hops + 1);
  const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type.filter((type): type is string => typeof type === "string") : [];
  // Allowed values say it all, unless they contradict the declared type (then the type is the shape).
  const values = Object.hasOwn(node, "const") ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values !== undefined && values.length > 0 && values.every((value) => types.length === 0 || types.some((type) => hasJsonType(value, type)))) return describeValues(values);
  if (types.length === 0) return depth === 0 ? unionShape(node, resolve, depth, hops) : undefined;
  const words = constraintWords(node);
  if (types.length === 1 && types[0] === "array") return arrayShape(node, resolve, depth, hops);
  if (types.length === 1 && types[0] === "object") return objectShape(node);
  const head = describeTypes(types);
  return words.length === 0 ? head : `${head} (${words.join(", ")})`;
}

/** `either string or null`: the branches of an `anyOf` or `oneOf`, each in a few words, when there are at most three. */
function unionShape(node: Record<string, unknown>, resolve: ReferenceResolver, depth: number, hops: number): string | undefined {
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches === undefined || branches.length < 2) return undefined;
  // A union of constants (`Type.Union([Type.Literal("a"), Type.Literal("b")])`) reads as the values it allows.
  if (branches.every((branch) => typeof branch === "object" && branch !== null && Object.hasOwn(branch, "const"))) {
    return describeValues(branches.map((branch) => (branch as { const: unknown }).const));
  }
  if (branches.length > 3) return undefined;
  const shapes = branches.map((branch) => shapeOf(branch, resolve, depth + 1, hops));
  if (shapes.some((shape) => shape === undefined)) return undefined;
  return `either ${shapes.join(" or ")}`;
}

function arrayShape(node: Record<string, unknown>, resolve: ReferenceResolver, depth: number, hops: number): string {
  const words = ARRAY_WORDS.filter(([keyword]) => node[keyword] !== undefined)
    .map(([keyword, word]) => word(node[keyword]))
    .filter((word) => word !== "");
  const head = words.length === 0 ? "array" : `array (${words.join(", ")})`;
  const items = depth === 0 && !Array.isArray(node.items) ? shapeOf(node.items, resolve, depth + 1, hops) : undefined;
  return items === undefined ? head : `${head} of ${items}`;
}

function objectShape(node: Record<string, unknown>): string {
  const properties = typeof node.properties === "object" && node.properties !== null ? Object.keys(node.properties) : [];
  return properties.length === 0 ? "object" : `object with properties ${describeNames(properties)}`;
}

function constraintWords(node: Record<string, unknown>): string[] {
  const words = CONSTRAINT_WORDS.filter(([keyword]) => node[keyword] !== undefined).map(([keyword, word]) => word(node[keyword]));
  if (typeof node.multipleOf === "number") words.push(`a multiple of ${node.multipleOf}`);
  return words;
}

/** Whether a value has a JSON type (`integer` for whole numbers, `number` for any finite one). */
function hasJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}
