import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import type { TLocalizedValidationError } from "typebox/error";
import { Errors } from "typebox/value";
import { escapePointerSegment } from "./issues.js";
import { type LocalErrors, localErrorsFor } from "./simple-errors.js";

/** Keywords an object schema may have and still be explained property by property. */
const OBJECT_KEYWORDS = new Set([
  "type", "properties", "required", "additionalProperties", "minProperties", "maxProperties",
  "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema",
]);
/** Keywords an array schema may have and still be explained item by item. */
const ARRAY_KEYWORDS = new Set([
  "type", "items", "minItems", "maxItems", "uniqueItems",
  "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly",
]);
/** Keywords whose meaning depends on the whole schema document: such schemas are explained whole. */
const DOCUMENT_KEYWORDS = ["$ref", "$dynamicRef", "$recursiveRef", "$defs", "definitions", "$id", "$anchor", "unevaluatedProperties", "unevaluatedItems"];

interface Node {
  readonly check: (value: unknown) => boolean;
  /** The schema without its children's constraints, checked first to find failures of the node itself. */
  readonly shallow?: { readonly schema: TSchema; readonly check: (value: unknown) => boolean };
  /** A fast explanation of the node itself (of its shallow schema, for objects), when its keywords are simple. */
  readonly local?: LocalErrors;
  readonly kind: "object" | "array" | "leaf";
  /** For a closed set of values (`enum`, or a union of literals): the values. */
  readonly allowedValues?: readonly unknown[];
}

/**
 * Finds why a value fails a schema at a bounded cost.
 *
 * TypeBox's `Errors()` walks the whole value with its interpreter, about a
 * thousand times the cost of a compiled `Check`. This explainer walks down
 * with compiled checks of each property and item, and asks `Errors()` only
 * about the small sub-schemas that actually fail, so the failure path stays
 * within a small multiple of the success path.
 */
export class ErrorExplainer {
  readonly #root: TSchema;
  readonly #nodes = new Map<object, Node>();
  readonly #decomposable: boolean;

  constructor(schema: TSchema) {
    this.#root = schema;
    this.#decomposable = !mentionsDocumentKeywords(schema);
  }

  /** The errors of `value` against the schema, with instance paths from the root. */
  explain(value: unknown, limit: number): TLocalizedValidationError[] {
    if (!this.#decomposable) return Errors(this.#root, value).slice(0, limit);
    const errors: TLocalizedValidationError[] = [];
    this.#explain(this.#root, value, "", errors, limit);
    // The decomposition can only miss a failure by a bug; never report "valid" for an invalid value.
    return (errors.length > 0 ? errors : Errors(this.#root, value)).slice(0, limit);
  }

  #explain(schema: TSchema, value: unknown, pointer: string, errors: TLocalizedValidationError[], limit: number): void {
    if (errors.length >= limit) return;
    const node = this.#node(schema);
    if (node.allowedValues !== undefined) {
      errors.push(allowedValuesError(pointer, node.allowedValues));
      return;
    }
    if (node.kind === "leaf" || node.shallow === undefined) {
      if (node.local !== undefined) errors.push(...node.local(value, pointer));
      else for (const error of Errors(schema, value)) errors.push({ ...error, instancePath: pointer + error.instancePath });
      return;
    }
    if (!node.shallow.check(value)) {
      if (node.local !== undefined) errors.push(...node.local(value, pointer));
      else for (const error of Errors(node.shallow.schema, value)) errors.push({ ...error, instancePath: pointer + error.instancePath });
      // A value of the wrong type has no children worth explaining.
      if (typeof value !== "object" || value === null) return;
    }
    if (node.kind === "object") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return;
      const properties = (schema as { properties: Record<string, TSchema> }).properties;
      for (const key of Object.keys(properties)) {
        if (!Object.hasOwn(value, key)) continue;
        const child = properties[key]!;
        const item = (value as Record<string, unknown>)[key];
        if (!this.#node(child).check(item)) this.#explain(child, item, `${pointer}/${escapePointerSegment(key)}`, errors, limit);
      }
    } else if (Array.isArray(value)) {
      const items = (schema as { items: TSchema }).items;
      const itemNode = this.#node(items);
      for (let index = 0; index < value.length; index++) {
        if (!itemNode.check(value[index])) this.#explain(items, value[index], `${pointer}/${index}`, errors, limit);
        if (errors.length >= limit) return;
      }
    }
  }

  #node(schema: TSchema): Node {
    let node = this.#nodes.get(schema);
    if (node === undefined) {
      node = buildNode(schema);
      this.#nodes.set(schema, node);
    }
    return node;
  }
}

function buildNode(schema: TSchema): Node {
  const validator = Compile(schema);
  const check = (value: unknown): boolean => validator.Check(value);
  const record = schema as Record<string, unknown>;
  const keys = Object.keys(record);
  const properties = record.properties;
  if (typeof properties === "object" && properties !== null && record.type === "object" && keys.every((key) => OBJECT_KEYWORDS.has(key))) {
    const shallowSchema = { ...record, properties: Object.fromEntries(Object.keys(properties).map((key) => [key, {}])) } as TSchema;
    return { kind: "object", check, shallow: compileShallow(shallowSchema), ...optionalLocal(localErrorsFor(record, true)) };
  }
  const allowedValues = closedValueSet(record);
  if (allowedValues !== undefined) return { kind: "leaf", check, allowedValues };
  const items = record.items;
  if (typeof items === "object" && items !== null && !Array.isArray(items) && record.type === "array" && keys.every((key) => ARRAY_KEYWORDS.has(key))) {
    return { kind: "array", check, shallow: compileShallow({ ...record, items: {} } as TSchema) };
  }
  return { kind: "leaf", check, ...optionalLocal(localErrorsFor(record, false)) };
}

function optionalLocal(local: LocalErrors | undefined): { local?: LocalErrors } {
  return local === undefined ? {} : { local };
}

/** The values of an `enum`, or of a union whose every branch is a `const`; `undefined` otherwise. */
function closedValueSet(schema: Record<string, unknown>): readonly unknown[] | undefined {
  if (Array.isArray(schema.enum) && Object.keys(schema).every((key) => key === "enum" || key === "type" || key === "description" || key === "title")) {
    return schema.enum;
  }
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    if (typeof branch !== "object" || branch === null || !Object.hasOwn(branch, "const")) return undefined;
    if (!Object.keys(branch).every((key) => key === "const" || key === "type" || key === "description" || key === "title")) return undefined;
    values.push((branch as { const: unknown }).const);
  }
  return values;
}

const MAX_LISTED_VALUES = 12;
const MAX_VALUE_CHARACTERS = 60;

/** One error naming the allowed values (they come from the schema, never from the arguments). */
function allowedValuesError(pointer: string, allowedValues: readonly unknown[]): TLocalizedValidationError {
  const shown = allowedValues.slice(0, MAX_LISTED_VALUES).map((value) => {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > MAX_VALUE_CHARACTERS ? `${text.slice(0, MAX_VALUE_CHARACTERS)}…` : text;
  });
  const more = allowedValues.length > MAX_LISTED_VALUES ? `, and ${allowedValues.length - MAX_LISTED_VALUES} more` : "";
  return {
    keyword: "enum",
    schemaPath: "#",
    instancePath: pointer,
    params: { allowedValues: [...allowedValues] },
    message: `must be one of ${shown.join(", ")}${more}`,
  };
}

function compileShallow(schema: TSchema): { schema: TSchema; check: (value: unknown) => boolean } {
  const validator = Compile(schema);
  return { schema, check: (value) => validator.Check(value) };
}

function mentionsDocumentKeywords(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && DOCUMENT_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword))) return true;
    for (const key of Object.keys(node)) pending.push((node as Record<string, unknown>)[key]);
  }
  return false;
}
