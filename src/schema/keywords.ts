/**
 * The JSON Schema keywords this library reads, by what their value holds, and the limits every
 * schema walk shares. One table for the soundness check, the validator's transform, error
 * explanation, repair, provider conversion and the BFCL loader.
 */

/** Keywords whose value is one subschema. */
export const SUBSCHEMA_KEYWORDS = [
  "additionalItems",
  "additionalProperties",
  "contains",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
] as const;

/** Keywords whose value is a list of subschemas (`items` too, in draft-07's tuple form). */
export const SUBSCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;

/** Keywords whose value maps names to subschemas (`dependencies` too, where a value is a schema rather than a list of names). */
export const SUBSCHEMA_MAP_KEYWORDS = ["$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties", "properties"] as const;

/** Every keyword whose value holds subschemas, whatever its form. */
const CHILD_KEYWORDS: ReadonlySet<string> = new Set<string>([...SUBSCHEMA_KEYWORDS, ...SUBSCHEMA_LIST_KEYWORDS, ...SUBSCHEMA_MAP_KEYWORDS]);

/**
 * The own keywords of `schema` that hold subschemas ({@link SUBSCHEMA_KEYWORDS},
 * {@link SUBSCHEMA_LIST_KEYWORDS}, {@link SUBSCHEMA_MAP_KEYWORDS}), in its key order; empty for a
 * leaf. Its few own names are read once, where looking each keyword up on it costs a call per keyword
 * (about 20), and most subschemas are leaves.
 */
export function subschemaKeywordsOf(schema: Readonly<Record<string, unknown>>): readonly string[] {
  let found: string[] | undefined;
  // Every own name, enumerable or not: a snapshot keeps a non-enumerable keyword, and TypeBox reads it.
  for (const key of Object.getOwnPropertyNames(schema)) if (CHILD_KEYWORDS.has(key)) (found ??= []).push(key);
  return found ?? NO_KEYWORDS;
}

const NO_KEYWORDS: readonly string[] = Object.freeze([]);

/** Whether `schema` checks its value alone: it holds no subschema and no reference (a type, a `const`, an `enum`, bounds). */
export function isLeafSchema(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return true;
  const node = schema as Readonly<Record<string, unknown>>;
  return subschemaKeywordsOf(node).length === 0 && !REFERENCE_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword));
}

/** Keywords that describe and never constrain: any schema may carry them. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "$comment",
  "$schema",
  "contentEncoding",
  "contentMediaType",
  "default",
  "deprecated",
  "description",
  "examples",
  "readOnly",
  "title",
  "writeOnly",
]);

/** Keywords whose meaning depends on the whole schema document. */
export const REFERENCE_KEYWORDS = ["$ref", "$dynamicRef", "$recursiveRef"] as const;

/** The deepest nesting of subschemas any walk follows; deeper schemas are refused at `register`. */
export const MAX_SCHEMA_DEPTH = 128;

/**
 * The most objects and arrays a schema may hold once written out, an object used in several places
 * counting in each: a few dozen objects that each use the one below twice write out to millions,
 * which every walk of the schema (its snapshot, its text, its compile) would expand. Refused at
 * `register`; the largest tool schemas seen hold a few thousand.
 */
export const MAX_SCHEMA_NODES = 100_000;

/** The most characters of names and strings a schema may hold once written out, counted as {@link MAX_SCHEMA_NODES} counts objects. */
export const MAX_SCHEMA_CHARACTERS = 16 * 1024 * 1024;

/** The most `$ref`s followed in a row without reaching a schema that constrains anything. */
export const MAX_REF_HOPS = 64;

/**
 * The deepest nesting of checks a schema may need in its generated validator. TypeBox folds each
 * list (properties, `required`, `anyOf` branches, …) into one nested expression, and V8's parser
 * overflows at about 1,450 to 1,600 levels (measured on Node 20); this leaves room for the
 * caller's stack. A schema over it is refused at `register`.
 */
export const MAX_COMPILED_NESTING = 1200;

/**
 * The deepest nesting of an argument value that the library's own walks descend into: the fast
 * copy (deeper data is copied by `structuredClone`), the explanation of a refusal and repair
 * (deeper values are reported or left as a whole).
 */
export const MAX_VALUE_DEPTH = 256;

/** Enums of at most this many primitive values stay in TypeBox's generated `===` chain; larger ones become a Set lookup. */
export const MAX_INLINE_ENUM = 16;

/**
 * The keywords OpenAI's strict mode (Structured Outputs for function calling) accepts. Of the
 * others, an {@link ANNOTATION_KEYWORDS} entry is dropped on the way (it changes nothing that is
 * valid); any other keyword cannot be sent in strict mode.
 */
export const STRICT_MODE_KEYWORDS: ReadonlySet<string> = new Set([
  "$defs",
  "$ref",
  "additionalProperties",
  "anyOf",
  "const",
  "definitions",
  "description",
  "enum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "items",
  "maxItems",
  "maximum",
  "minItems",
  "minimum",
  "multipleOf",
  "pattern",
  "properties",
  "required",
  "title",
  "type",
]);
