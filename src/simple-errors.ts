import type { TLocalizedValidationError } from "typebox/error";
import { escapePointerSegment } from "./issues.js";

/** Explains a value against one node of a schema, as TypeBox's `Errors()` would word it. */
export type LocalErrors = (value: unknown, pointer: string) => TLocalizedValidationError[];

const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const BOUNDS = [
  ["minimum", ">="],
  ["maximum", "<="],
  ["exclusiveMinimum", ">"],
  ["exclusiveMaximum", "<"],
] as const;

/**
 * A fast explainer for the most common schema nodes, a scalar type with
 * numeric bounds, and an object's own `type`, `required` and
 * `additionalProperties: false` (its properties are explained one by one
 * elsewhere). `undefined` for any other node: TypeBox's `Errors()` explains those.
 */
export function localErrorsFor(schema: Record<string, unknown>, shallowObject: boolean): LocalErrors | undefined {
  const keywords = Object.keys(schema).filter((key) => !ANNOTATIONS.has(key));
  if (shallowObject) {
    const simple = keywords.every((key) => key === "type" || key === "properties" || key === "required" || (key === "additionalProperties" && typeof schema[key] === "boolean"));
    return simple ? objectErrors(schema) : undefined;
  }
  const type = schema.type;
  if (typeof type !== "string" || !SCALAR_TYPES.has(type)) return undefined;
  if (!keywords.every((key) => key === "type" || BOUNDS.some(([bound]) => bound === key && typeof schema[key] === "number"))) return undefined;
  return scalarErrors(type, schema);
}

function error(keyword: string, pointer: string, params: object, message: string, schemaPath = "#"): TLocalizedValidationError {
  return { keyword, schemaPath, instancePath: pointer, params, message } as TLocalizedValidationError;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    default:
      return value === null;
  }
}

function scalarErrors(type: string, schema: Record<string, unknown>): LocalErrors {
  return (value, pointer) => {
    const errors: TLocalizedValidationError[] = [];
    if (!hasType(value, type)) errors.push(error("type", pointer, { type }, `must be ${type}`));
    // Like TypeBox, bounds apply to every finite number (or bigint), whatever the type keyword says.
    if (!((typeof value === "number" && Number.isFinite(value)) || typeof value === "bigint")) return errors;
    for (const [bound, comparison] of BOUNDS) {
      const limit = schema[bound];
      if (typeof limit !== "number") continue;
      const number = value as number | bigint;
      const holds = comparison === ">=" ? number >= limit : comparison === "<=" ? number <= limit : comparison === ">" ? number > limit : number < limit;
      if (!holds) errors.push(error(bound, pointer, { comparison, limit }, `must be ${comparison} ${limit}`));
    }
    return errors;
  };
}

function objectErrors(schema: Record<string, unknown>): LocalErrors {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const closed = schema.additionalProperties === false;
  return (value, pointer) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [error("type", pointer, { type: "object" }, "must be object")];
    const errors: TLocalizedValidationError[] = [];
    const missing = required.filter((name) => !Object.hasOwn(value, name));
    if (missing.length > 0) errors.push(error("required", pointer, { requiredProperties: missing }, `must have required properties ${missing.join(", ")}`));
    if (closed) {
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(properties, key)) errors.push(error("boolean", `${pointer}/${escapePointerSegment(key)}`, {}, "schema is false", "#/additionalProperties"));
      }
    }
    return errors;
  };
}
