import { MAX_SCHEMA_CHARACTERS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, MAX_VALUE_DEPTH } from "./keywords.js";
import { ANY_KEY_PATTERN, isStringKeyRecord, RECORD_STRING_KEY } from "./records.js";

/**
 * The canonical JSON text of a schema: object keys sorted, no white space. Two schemas with the
 * same text validate the same way, so the text can key a shared validator (and match a
 * precompiled one). A property whose value is `undefined` is written as the bare word
 * `undefined` (never valid JSON, so it collides with nothing): `{ const: undefined }` and `{}`
 * validate differently and must not share a key.
 *
 * A `Type.Record` with string keys is written with the key pattern it means (every key, see
 * `records.ts`), so that it never shares a text with the same pattern written by hand.
 *
 * Returns `undefined` for a schema that cannot be keyed by its text, which must then be keyed by
 * identity: one that is not plain data (a function, a cycle, a non-finite number), one that
 * carries a TypeBox refinement (`~refine`, a non-enumerable key whose functions no text can hold),
 * or one whose text would be too long to write: more than `MAX_SCHEMA_NODES` objects and arrays or
 * `MAX_SCHEMA_CHARACTERS` characters of names and strings, an object used in several places
 * counting in each (`register` refuses such a schema when it takes its snapshot).
 */
export function canonicalJson(schema: unknown): string | undefined {
  return written(schema, false);
}

/**
 * {@link canonicalJson}, except that the names of every `properties` keyword stay in the order they
 * were declared in: the order a model writes arguments in, which code generated for the schema
 * (the fused copy-and-check) expects first. Two schemas with the same text declare the same
 * properties in the same order.
 */
export function declaredOrderJson(schema: unknown): string | undefined {
  return written(schema, true);
}

/** What the text being written may still hold, counted as {@link MAX_SCHEMA_NODES} and {@link MAX_SCHEMA_CHARACTERS} count. */
const left = { nodes: 0, characters: 0 };

function written(schema: unknown, keepPropertyOrder: boolean): string | undefined {
  const parts: string[] = [];
  left.nodes = MAX_SCHEMA_NODES;
  left.characters = MAX_SCHEMA_CHARACTERS;
  try {
    write(schema, 0, parts, keepPropertyOrder, false);
  } catch {
    return undefined;
  }
  return parts.join("");
}

// A schema document nests subschemas, and inside them values (`const`, `enum`, `default`).
const MAX_DEPTH = MAX_SCHEMA_DEPTH + MAX_VALUE_DEPTH;

/** Thrown inside {@link write} when the schema cannot be keyed by its text. */
class NotCanonical extends Error {
  override readonly name = "NotCanonical";
}

/**
 * Appends the canonical text of `value` to `parts`, piece by piece: one join at the end, none per node.
 * @param inOrder whether `value` is the value of a `properties` keyword whose names keep their order
 */
function write(value: unknown, depth: number, parts: string[], keepPropertyOrder: boolean, inOrder: boolean): void {
  if (depth > MAX_DEPTH) throw new NotCanonical("nested too deeply");
  if (value === undefined) {
    parts.push("undefined");
  } else if (typeof value === "string") {
    if ((left.characters -= value.length) < 0) throw new NotCanonical("too long");
    parts.push(quoted(value));
  } else if (value === null || typeof value === "boolean") {
    parts.push(JSON.stringify(value));
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotCanonical("non-finite number");
    parts.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    if (--left.nodes < 0) throw new NotCanonical("too large");
    parts.push("[");
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(",");
      write(value[index], depth + 1, parts, keepPropertyOrder, false);
    }
    parts.push("]");
  } else if (typeof value === "object") {
    if (Object.hasOwn(value, "~refine")) throw new NotCanonical("a refinement");
    if (--left.nodes < 0) throw new NotCanonical("too large");
    const keys = inOrder ? Object.keys(value) : Object.keys(value).sort();
    // A `Type.Record` with string keys means every key, as the pattern that says so (see records.ts).
    const record = isStringKeyRecord(value);
    parts.push("{");
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      if ((left.characters -= key.length) < 0) throw new NotCanonical("too long");
      parts.push(index > 0 ? `,${quoted(key)}:` : `${quoted(key)}:`);
      const child = (value as Record<string, unknown>)[key];
      if (record && key === "patternProperties") write({ [ANY_KEY_PATTERN]: (child as Record<string, unknown>)[RECORD_STRING_KEY] }, depth + 1, parts, keepPropertyOrder, false);
      else write(child, depth + 1, parts, keepPropertyOrder, keepPropertyOrder && key === "properties");
    }
    parts.push("}");
  } else {
    throw new NotCanonical(`a schema cannot hold a ${typeof value}`);
  }
}

/** What `JSON.stringify` escapes in a string: a quote, a backslash, a control character, a surrogate (paired or lone). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`, in about half its time for the keys and words of a schema, which need no
 * escape: a string with nothing to escape is written between quotes as it is.
 */
function quoted(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}
