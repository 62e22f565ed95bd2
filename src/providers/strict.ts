import { describeName } from "../text/describe.js";
import { isRecord } from "../objects.js";
import type { SchemaProblem } from "../schema/plain.js";
import { appendSegment as pointerTo } from "../schema/pointer.js";

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

/** Shows a pointer as issues do: `/` for the root. */
function showPointer(pointer: string): string {
  return pointer === "" ? "/" : pointer;
}

/**
 * OpenAI strict mode (Structured Outputs for function calling): the subset of
 * JSON Schema it accepts, and the conversion of a tool's schema into it.
 */

/** Keywords strict mode accepts. */
const STRICT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);

/** Annotations strict mode refuses but that change nothing about what is valid: dropped. */
const DROPPED_ANNOTATIONS = new Set(["default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema"]);

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
    if (error instanceof StrictModeProblem) return { problem: { pointer: error.pointer, problem: error.problem } };
    throw error;
  }
}

function strictNode(node: unknown, pointer: string): Record<string, unknown> {
  if (!isRecord(node)) throw new StrictModeProblem(showPointer(pointer), "strict mode supports only object schemas here (no boolean schemas)");
  for (const key of Object.keys(node)) {
    if (DROPPED_ANNOTATIONS.has(key)) delete node[key];
    else if (!STRICT_KEYWORDS.has(key)) throw new StrictModeProblem(pointerTo(pointer, key), `${describeName(key)} is not supported in strict mode`);
  }
  if (!("type" in node || "anyOf" in node || "$ref" in node || "enum" in node || "const" in node)) {
    throw new StrictModeProblem(showPointer(pointer), "a schema with no type (any value) is not supported in strict mode");
  }
  const types = typesOf(node, pointer);
  if ("format" in node && !(typeof node.format === "string" && STRICT_FORMATS.has(node.format))) {
    throw new StrictModeProblem(pointerTo(pointer, "format"), `format ${describeName(String(node.format))} is not supported in strict mode`);
  }
  if ("$ref" in node && !(typeof node.$ref === "string" && node.$ref.startsWith("#"))) {
    throw new StrictModeProblem(pointerTo(pointer, "$ref"), "strict mode supports only local references (starting with #)");
  }
  for (const keyword of ["$defs", "definitions"] as const) {
    if (!(keyword in node)) continue;
    const definitions = node[keyword];
    if (!isRecord(definitions)) throw new StrictModeProblem(pointerTo(pointer, keyword), `${keyword} must be an object of schemas`);
    for (const name of Object.keys(definitions)) definitions[name] = strictNode(definitions[name], pointerTo(pointerTo(pointer, keyword), name));
  }
  if ("anyOf" in node) {
    const branches = node.anyOf;
    if (!Array.isArray(branches)) throw new StrictModeProblem(pointerTo(pointer, "anyOf"), "anyOf must be an array of schemas");
    node.anyOf = branches.map((branch, index) => strictNode(branch, pointerTo(pointerTo(pointer, "anyOf"), index)));
  }
  if ("items" in node) {
    if (Array.isArray(node.items)) throw new StrictModeProblem(pointerTo(pointer, "items"), "tuple items (an array of schemas) are not supported in strict mode");
    node.items = strictNode(node.items, pointerTo(pointer, "items"));
  }
  if (types.includes("object") || "properties" in node) strictObject(node, pointer);
  return node;
}

function strictObject(node: Record<string, unknown>, pointer: string): void {
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new StrictModeProblem(pointerTo(pointer, "additionalProperties"), "strict mode needs additionalProperties false on every object");
  }
  const properties = node.properties ?? {};
  if (!isRecord(properties)) throw new StrictModeProblem(pointerTo(pointer, "properties"), "properties must be an object of schemas");
  const required = node.required ?? [];
  if (!Array.isArray(required)) throw new StrictModeProblem(pointerTo(pointer, "required"), "required must be an array of property names");
  for (const name of required) {
    if (typeof name !== "string" || !Object.hasOwn(properties, name)) {
      throw new StrictModeProblem(pointerTo(pointer, "required"), "required names a property that properties does not define");
    }
  }
  for (const name of Object.keys(properties)) {
    const converted = strictNode(properties[name], pointerTo(pointerTo(pointer, "properties"), name));
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
    if (typeof type !== "string" || !JSON_TYPES.has(type)) throw new StrictModeProblem(pointerTo(pointer, "type"), "type must name JSON types");
  }
  return types as string[];
}

/** The schema, accepting `null` as well. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (acceptsNull(schema, undefined)) return schema;
  // A type list only for primitives; objects and arrays keep their shape in a union branch.
  const simple = !("enum" in schema || "const" in schema || "anyOf" in schema || "$ref" in schema);
  if (simple && typeof schema.type === "string" && PRIMITIVE_TYPES.has(schema.type)) return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Whether `schema` accepts `null` by its type, enum, const or a union branch
 * (a schema with none of these, like `{}`, accepts anything). `root` resolves
 * local `$ref`s; without it a reference counts as not accepting null.
 */
export function acceptsNull(schema: unknown, root: unknown, hops = 0): boolean {
  if (!isRecord(schema)) return schema === true;
  if (typeof schema.$ref === "string") {
    const target = root === undefined || hops > MAX_REF_HOPS ? undefined : resolveLocalRef(root, schema.$ref);
    return target !== undefined && acceptsNull(target, root, hops + 1);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ("const" in schema && schema.const !== null) return false;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, root, hops));
  }
  if (schema.type === undefined) return true;
  return schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"));
}

const MAX_REF_HOPS = 32;

/** Resolves `#`, `#/$defs/x` and other local JSON Pointer references within `root`. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (!isRecord(target) && !Array.isArray(target)) return undefined;
    target = Object.hasOwn(target, segment) ? (target as Record<string, unknown>)[segment] : undefined;
  }
  return target;
}

/**
 * Undoes what strict mode made the model do: removes each `null` the model
 * sent for an optional property whose own schema does not accept `null`, so
 * the handler sees the property omitted, as the tool's schema intends. Walks
 * nested objects (`properties`), arrays (`items`), local `$ref`s, `allOf`, and
 * `anyOf`/`oneOf` when exactly one branch describes an object. Mutates `value`
 * (freshly parsed arguments, which nobody else holds).
 */
export function dropOptionalNulls(schema: unknown, value: unknown, root: unknown = schema, hops = 0): void {
  if (!isRecord(schema) || hops > MAX_REF_HOPS) return;
  if (typeof schema.$ref === "string") dropOptionalNulls(resolveLocalRef(root, schema.$ref), value, root, hops + 1);
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) dropOptionalNulls(branch, value, root, hops + 1);
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || !isRecord(value)) continue;
    const objects = branches.filter((branch) => isRecord(branch) && (branch.type === "object" || isRecord(branch.properties)));
    if (objects.length === 1) dropOptionalNulls(objects[0], value, root, hops + 1);
  }
  if (Array.isArray(value)) {
    if (isRecord(schema.items)) for (const item of value) dropOptionalNulls(schema.items, item, root);
    return;
  }
  if (!isRecord(value) || !isRecord(schema.properties)) return;
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    const property = properties[name];
    if (value[name] === null && !required.includes(name) && !acceptsNull(property, root)) delete value[name];
    else dropOptionalNulls(property, value[name], root);
  }
}
