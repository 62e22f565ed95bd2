import type { TSchema } from "typebox";
import { escapePointerSegment } from "../issues.js";
import { isRecord } from "../objects.js";

/**
 * Why a schema cannot be sent as asked: the JSON Pointer of the construct
 * (`/` for the root) and the problem. Callers turn it into their own typed
 * error (`ProviderSchemaError`, or an MCP error).
 */
export class SchemaProblem {
  constructor(
    readonly pointer: string,
    readonly problem: string,
  ) {}
}

// Registered schemas are immutable, so their JSON text is computed once.
const jsonTexts = new WeakMap<object, string>();

/**
 * A fresh plain-JSON copy of a tool's parameters schema, as providers and MCP
 * clients expect it: TypeBox's symbol keys dropped, and `type: "object"` added
 * to a root that has no `type` (tool arguments are always an object, so this
 * changes nothing that is accepted).
 * @throws SchemaProblem when the schema is not plain JSON or its root is not an object schema
 */
export function plainObjectSchema(schema: TSchema): Record<string, unknown> {
  let text = jsonTexts.get(schema);
  if (text === undefined) {
    try {
      text = JSON.stringify(schema);
    } catch {
      throw new SchemaProblem("/", "the schema is not plain JSON (it holds a BigInt, a cycle or a throwing toJSON)");
    }
    if (typeof text !== "string") throw new SchemaProblem("/", "the schema is not a JSON object");
    jsonTexts.set(schema, text);
  }
  const plain: unknown = JSON.parse(text);
  if (!isRecord(plain)) throw new SchemaProblem("/", "the schema is not a JSON object");
  if (plain.type === undefined) return { type: "object", ...plain };
  if (plain.type !== "object") throw new SchemaProblem("/type", 'the root must be an object schema (type "object"): tool arguments are always an object');
  return plain;
}

/** Appends one segment to a JSON Pointer, escaping `~` and `/`. */
export function pointerTo(pointer: string, segment: string | number): string {
  return `${pointer}/${escapePointerSegment(String(segment))}`;
}

/** Shows a pointer as issues do: `/` for the root. */
export function showPointer(pointer: string): string {
  return pointer === "" ? "/" : pointer;
}
