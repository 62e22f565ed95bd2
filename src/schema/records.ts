/**
 * TypeBox's `Type.Record` with string keys (`Record<string, T>`) is written as the JSON Schema
 * `{ type: "object", patternProperties: { "^.*$": T } }`. In JSON Schema, `.` matches no line
 * terminator: a key holding `\n`, `\r`, U+2028 or U+2029 would be no key of the record, and its
 * value never checked, though the handler's type says every value is a `T`. Such a record is read
 * as matching every key, as its type says; the same pattern written by hand (no TypeBox marker,
 * or a schema that came as JSON) keeps JSON Schema's meaning.
 */

/** The key pattern TypeBox writes for `Type.Record` with string keys: in JSON Schema, every key without a line terminator. */
export const RECORD_STRING_KEY = "^.*$";

/** A key pattern that matches every string: what {@link RECORD_STRING_KEY} means to a `Type.Record`. */
export const ANY_KEY_PATTERN = "^[\\s\\S]*$";

/**
 * Whether `node` is TypeBox's `Type.Record` with string keys: TypeBox's own marker (`~kind`, not
 * enumerable, so that it is lost in JSON) and its one key pattern `^.*$`.
 */
export function isStringKeyRecord(node: object): boolean {
  if (!Object.hasOwn(node, "~kind") || (node as Record<string, unknown>)["~kind"] !== "Record") return false;
  const patterns = (node as Record<string, unknown>).patternProperties;
  if (typeof patterns !== "object" || patterns === null || Array.isArray(patterns)) return false;
  const keys = Object.keys(patterns);
  return keys.length === 1 && keys[0] === RECORD_STRING_KEY;
}
