import type { TSchema } from "typebox";
import { isRecord } from "../objects.js";

/** Why a schema cannot be used as asked: the JSON Pointer of the construct (`/` for the root) and the problem. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly problem: string;
}

/**
 * The object-root rule, one for the registry and every provider: tool arguments are always a
 * JSON object, so a tool's schema either says `type: "object"` or says no type at all (and is
 * then sent with `type: "object"` added). `["object", "null"]` is refused: every provider would.
 */
export function objectRootProblem(schema: object): SchemaProblem | undefined {
  const type = (schema as { type?: unknown }).type;
  if (type === undefined || type === "object") return undefined;
  return { pointer: "/type", problem: `the root must be an object schema (type "object"): tool arguments are always an object, got type ${JSON.stringify(type) ?? String(type)}` };
}

// Registered schemas are frozen snapshots, so their JSON text is computed once.
const jsonTexts = new WeakMap<object, string>();

/**
 * A fresh plain-JSON copy of a tool's parameters schema, as providers and MCP clients expect
 * it: TypeBox's hidden keys dropped, and `type: "object"` added to a root that has no `type`
 * (tool arguments are always an object, so this changes nothing that is accepted).
 * @returns the copy, or the problem that keeps the schema from being sent: it is not plain JSON, or its root is not an object schema
 */
export function plainObjectSchema(schema: TSchema): { readonly schema: Record<string, unknown> } | { readonly problem: SchemaProblem } {
  const text = jsonTextOf(schema);
  if (typeof text !== "string") return { problem: text };
  const plain: unknown = JSON.parse(text);
  if (!isRecord(plain)) return { problem: { pointer: "/", problem: "the schema is not a JSON object" } };
  const problem = objectRootProblem(plain);
  if (problem !== undefined) return { problem };
  return { schema: plain.type === undefined ? { type: "object", ...plain } : plain };
}

/**
 * Why a registered schema has no JSON text (a BigInt in an annotation, which `register` takes, or
 * a throwing `toJSON`), so that no copy of it can be sent; `undefined` when it has one. Reads no
 * copy: the text is computed once per schema, and {@link plainObjectSchema} reads it back.
 */
export function jsonTextProblem(schema: TSchema): SchemaProblem | undefined {
  const text = jsonTextOf(schema);
  return typeof text === "string" ? undefined : text;
}

function jsonTextOf(schema: TSchema): string | SchemaProblem {
  let text = jsonTexts.get(schema);
  if (text !== undefined) return text;
  try {
    text = JSON.stringify(schema);
  } catch {
    return { pointer: "/", problem: "the schema is not plain JSON (it holds a BigInt or a throwing toJSON)" };
  }
  if (typeof text !== "string") return { pointer: "/", problem: "the schema is not a JSON object" };
  jsonTexts.set(schema, text);
  return text;
}
