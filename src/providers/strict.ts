/**
 * OpenAI strict mode (Structured Outputs for function calling): the conversion of a tool's schema
 * into the subset strict mode accepts, and the undoing of the nulls it makes the model send.
 */
import { describeName } from "../text/describe.js";
import { isRecord } from "../objects.js";
import { ANNOTATION_KEYWORDS, MAX_REF_HOPS, STRICT_MODE_KEYWORDS } from "../schema/keywords.js";
import type { SchemaProblem } from "../schema/plain.js";
import { appendSegment, displayPointer } from "../schema/pointer.js";
import { SchemaReferences } from "../schema/references.js";

/** Ends a strict-mode conversion at the first construct strict mode cannot express. */
class StrictModeProblem extends Error {
  override readonly name = "StrictModeProblem";
  constructor(
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** String formats strict mode accepts. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean"]);

/**
 * Converts a plain-JSON object schema (mutated in place) into one OpenAI
 * strict mode accepts: `additionalProperties: false` on every object, every
 * property required, and each optional property made nullable (`type: [t,
 * "null"]`, or `anyOf: [schema, { type: "null" }]`), so that the model sends
 * `null` where it would have left the property out. Annotations strict mode
 * refuses (`default`, `examples`, …) are dropped; anything else it does not
 * support is reported, never dropped.
 * @returns the converted schema, or the JSON Pointer of the first unsupported construct and why
 */
export function toStrictSchema(schema: Record<string, unknown>): { readonly schema: Record<string, unknown> } | { readonly problem: SchemaProblem } {
  try {
    if ("anyOf" in schema) throw new StrictModeProblem("/anyOf", "strict mode needs a plain object schema at the root, not anyOf");
    return { schema: strictNode(schema, "") };
  } catch (error) {
    if (error instanceof StrictModeProblem) return { problem: { pointer: displayPointer(error.pointer), problem: error.problem } };
    throw error;
  }
}

function strictNode(node: unknown, pointer: string): Record<string, unknown> {
  if (!isRecord(node)) throw new StrictModeProblem(pointer, "strict mode supports only object schemas here (no boolean schemas)");
  for (const key of Object.keys(node)) {
    if (STRICT_MODE_KEYWORDS.has(key)) continue;
    if (ANNOTATION_KEYWORDS.has(key)) delete node[key];
    else throw new StrictModeProblem(appendSegment(pointer, key), `${describeName(key)} is not supported in strict mode`);
  }
  if (!("type" in node || "anyOf" in node || "$ref" in node || "enum" in node || "const" in node)) {
    throw new StrictModeProblem(pointer, "a schema with no type (any value) is not supported in strict mode");
  }
  const types = typesOf(node, pointer);
  if ("format" in node && !(typeof node.format === "string" && STRICT_FORMATS.has(node.format))) {
    throw new StrictModeProblem(appendSegment(pointer, "format"), `format ${describeName(String(node.format))} is not supported in strict mode`);
  }
  if ("$ref" in node && !(typeof node.$ref === "string" && node.$ref.startsWith("#"))) {
    throw new StrictModeProblem(appendSegment(pointer, "$ref"), "strict mode supports only local references (starting with #)");
  }
  for (const keyword of ["$defs", "definitions"] as const) {
    if (!(keyword in node)) continue;
    const definitions = node[keyword];
    const at = appendSegment(pointer, keyword);
    if (!isRecord(definitions)) throw new StrictModeProblem(at, `${keyword} must be an object of schemas`);
    for (const name of Object.keys(definitions)) definitions[name] = strictNode(definitions[name], appendSegment(at, name));
  }
  if ("anyOf" in node) {
    const branches = node.anyOf;
    const at = appendSegment(pointer, "anyOf");
    if (!Array.isArray(branches)) throw new StrictModeProblem(at, "anyOf must be an array of schemas");
    node.anyOf = branches.map((branch, index) => strictNode(branch, appendSegment(at, index)));
  }
  if ("items" in node) {
    const at = appendSegment(pointer, "items");
    if (Array.isArray(node.items)) throw new StrictModeProblem(at, "tuple items (an array of schemas) are not supported in strict mode");
    node.items = strictNode(node.items, at);
  }
  if (types.includes("object") || "properties" in node) strictObject(node, pointer);
  return node;
}

function strictObject(node: Record<string, unknown>, pointer: string): void {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new StrictModeProblem(appendSegment(pointer, "additionalProperties"), "strict mode needs additionalProperties false on every object");
  }
  const properties = node.properties ?? {};
  if (!isRecord(properties)) throw new StrictModeProblem(appendSegment(pointer, "properties"), "properties must be an object of schemas");
  const required = node.required ?? [];
  if (!Array.isArray(required)) throw new StrictModeProblem(appendSegment(pointer, "required"), "required must be an array of property names");
  for (const name of required) {
    if (typeof name !== "string" || !Object.hasOwn(properties, name)) {
      throw new StrictModeProblem(appendSegment(pointer, "required"), "required names a property that properties does not define");
    }
  }
  for (const name of Object.keys(properties)) {
    const converted = strictNode(properties[name], appendSegment(appendSegment(pointer, "properties"), name));
    properties[name] = required.includes(name) ? converted : nullable(converted);
  }
  node.properties = properties;
  node.required = Object.keys(properties);
  node.additionalProperties = false;
}

function typesOf(node: Record<string, unknown>, pointer: string): string[] {
  if (!("type" in node)) return [];
  const types = Array.isArray(node.type) ? node.type : [node.type];
  for (const type of types) {
    if (typeof type !== "string" || !JSON_TYPES.has(type)) throw new StrictModeProblem(appendSegment(pointer, "type"), "type must name JSON types");
  }
  return types as string[];
}

/** The schema, accepting `null` as well. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  // No references resolved here: the document is half converted. A reference counts as not accepting null.
  if (acceptsNull(schema, undefined, 0)) return schema;
  // A type list only for primitives; objects and arrays keep their shape in a union branch.
  const simple = !("enum" in schema || "const" in schema || "anyOf" in schema || "$ref" in schema);
  if (simple && typeof schema.type === "string" && PRIMITIVE_TYPES.has(schema.type)) return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Whether `schema` accepts `null` by its type, enum, const or a union branch
 * (a schema with none of these, like `{}`, accepts anything). `references`
 * resolves `$ref`s; without it a reference counts as not accepting null.
 */
function acceptsNull(schema: unknown, references: SchemaReferences | undefined, hops: number): boolean {
  if (!isRecord(schema)) return schema === true;
  if (typeof schema.$ref === "string") {
    const target = references === undefined || hops >= MAX_REF_HOPS ? undefined : references.resolve(schema.$ref);
    return target !== undefined && acceptsNull(target, references, hops + 1);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ("const" in schema && schema.const !== null) return false;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, references, hops));
  }
  if (schema.type === undefined) return true;
  return schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"));
}

// Registered schemas are frozen snapshots: each document's references are resolved once.
const referencesOf = new WeakMap<object, SchemaReferences>();

function referencesIn(root: object): SchemaReferences {
  let references = referencesOf.get(root);
  if (references === undefined) {
    references = new SchemaReferences(root);
    referencesOf.set(root, references);
  }
  return references;
}

/**
 * Undoes what strict mode made the model do: removes each `null` the model
 * sent for an optional property whose own schema does not accept `null`, so
 * the handler sees the property omitted, as the tool's schema intends. Walks
 * nested objects (`properties`), arrays (`items`), `$ref`s, `allOf`, and
 * `anyOf`/`oneOf` when exactly one branch describes an object. Mutates `value`
 * (freshly parsed arguments, which nobody else holds).
 */
export function dropOptionalNulls(schema: unknown, value: unknown): void {
  if (isRecord(schema)) dropNulls(schema, value, referencesIn(schema), 0);
}

function dropNulls(schema: unknown, value: unknown, references: SchemaReferences, hops: number): void {
  if (!isRecord(schema) || hops > MAX_REF_HOPS) return;
  if (typeof schema.$ref === "string") dropNulls(references.resolve(schema.$ref), value, references, hops + 1);
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) dropNulls(branch, value, references, hops + 1);
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || !isRecord(value)) continue;
    const objects = branches.filter((branch) => isRecord(branch) && (branch.type === "object" || isRecord(branch.properties)));
    if (objects.length === 1) dropNulls(objects[0], value, references, hops + 1);
  }
  if (Array.isArray(value)) {
    // Each step into the value is a step down a finite tree: the count of references followed starts again.
    if (isRecord(schema.items)) for (const item of value) dropNulls(schema.items, item, references, 0);
    return;
  }
  if (!isRecord(value) || !isRecord(schema.properties)) return;
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = properties[name];
    if (value[name] === null && !required.includes(name) && !acceptsNull(property, references, 0)) delete value[name];
    else dropNulls(property, value[name], references, 0);
  }
}
