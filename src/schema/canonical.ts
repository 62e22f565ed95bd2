import { MAX_SCHEMA_DEPTH, MAX_VALUE_DEPTH } from "./keywords.js";

/**
 * The canonical JSON text of a schema: object keys sorted, no white space. Two schemas with the
 * same text validate the same way, so the text can key a shared validator (and match a
 * precompiled one). A property whose value is `undefined` is written as the bare word
 * `undefined` (never valid JSON, so it collides with nothing): `{ const: undefined }` and `{}`
 * validate differently and must not share a key.
 *
 * Returns `undefined` for a schema that cannot be keyed by its text, which must then be keyed by
 * identity: one that is not plain data (a function, a cycle, a non-finite number), or one that
 * carries a TypeBox refinement (`~refine`, a non-enumerable key whose functions no text can hold).
 */
export function canonicalJson(schema: unknown): string | undefined {
  try {
    return write(schema, 0);
  } catch {
    return undefined;
  }
}

// A schema document nests subschemas, and inside them values (`const`, `enum`, `default`).
const MAX_DEPTH = MAX_SCHEMA_DEPTH + MAX_VALUE_DEPTH;

/** Thrown inside {@link write} when the schema cannot be keyed by its text. */
class NotCanonical extends Error {
  override readonly name = "NotCanonical";
}

function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new NotCanonical("nested too deeply");
  if (value === undefined) return "undefined";
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotCanonical("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => write(item, depth + 1)).join(",")}]`;
  if (typeof value === "object") {
    if (Object.hasOwn(value, "~refine")) throw new NotCanonical("a refinement");
    const keys = Object.keys(value).sort();
    const parts: string[] = [];
    for (const key of keys) parts.push(`${JSON.stringify(key)}:${write((value as Record<string, unknown>)[key], depth + 1)}`);
    return `{${parts.join(",")}}`;
  }
  throw new NotCanonical(`a schema cannot hold a ${typeof value}`);
}
