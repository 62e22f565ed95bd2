import type { ArgumentRepair } from "../types.js";
import { MAX_REF_HOPS, MAX_VALUE_DEPTH } from "../schema/keywords.js";
import { compilePattern, type PatternTester } from "../schema/patterns.js";
import { SchemaReferences } from "../schema/references.js";
import { escapePointerSegment } from "../text/issues.js";
import { defineOwn, isRecord } from "../objects.js";

/**
 * Model-friendly repair of tool arguments: opt-in, unambiguous only, and
 * always reported. A model that writes `"20"` where the schema says integer,
 * or `"true"` where it says boolean, meant the number or the boolean; nothing
 * else is guessed.
 */


/** What {@link repairArguments} returns. */
export interface RepairResult {
  /** The repaired value; the input itself when nothing was repaired. */
  value: unknown;
  /** Every repair made, in document order. Empty when nothing was repaired. */
  repairs: ArgumentRepair[];
}

/**
 * Converts the unambiguous cases in `value` against `schema`, and reports each:
 * - a string that is a JSON number literal (`"20"`, `"-1.5"`, `"1e3"`) where the
 *   schema says `number` or `integer` (for `integer`, only when the number is
 *   one; an integer literal beyond 2^53 is left alone);
 * - `"true"` or `"false"` where the schema says `boolean`.
 *
 * It walks nested objects (`properties`, `patternProperties`,
 * `additionalProperties`), arrays (`items`, `prefixItems`, tuple `items`),
 * local `$ref`s (`#/…` or a name in `$defs`) and `allOf`. Optional properties
 * are repaired when present. In a union (`anyOf`, `oneOf`), a string is
 * repaired only when no branch accepts it as a string and exactly one value
 * results from the branches that accept a converted value; a container
 * follows the one branch of its kind (object or array), if there is exactly one.
 * Anything else (whitespace, `"yes"`, `"1"` for a boolean, `enum`/`const` that
 * would not hold) is left for validation to report.
 *
 * Pure: `value` is never modified. Where something is repaired, the objects
 * and arrays on the path to it are copied; everything else is shared with
 * `value`. Call it on the private copy of the arguments after a failed check,
 * then check the repaired value again.
 */
export function repairArguments(schema: unknown, value: unknown): RepairResult {
  const context: Context = { references: new SchemaReferences(schema), repairs: [] };
  const repaired = repair(schema, value, "", context, 0);
  return { value: repaired, repairs: context.repairs };
}

interface Context {
  readonly references: SchemaReferences;
  readonly repairs: ArgumentRepair[];
}

type Schema = Record<string, unknown>;
// Deeper values are left as they are; validation reports what is wrong there.
const MAX_DEPTH = MAX_VALUE_DEPTH;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function repair(schema: unknown, value: unknown, pointer: string, context: Context, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) return value;
  if (typeof value === "string") return repairString(schema, value, pointer, context);
  if (typeof value !== "object" || value === null) return value;
  let result: unknown = value;
  for (const applicable of containerSchemas(schema, Array.isArray(value), context, 0)) {
    result = Array.isArray(result)
      ? repairArray(applicable, result, pointer, context, depth)
      : repairObject(applicable, result as Schema, pointer, context, depth);
  }
  return result;
}

function repairString(schema: Schema, text: string, pointer: string, context: Context): unknown {
  const alternatives = alternativesOf(schema, context, 0);
  if (alternatives.some((alternative) => acceptsAsString(alternative, text))) return text;
  const results: unknown[] = [];
  for (const alternative of alternatives) {
    const converted = convert(alternative, text);
    if (converted !== NOT_CONVERTED && !results.some((result) => Object.is(result, converted))) results.push(converted);
  }
  if (results.length !== 1) return text;
  const result = results[0];
  context.repairs.push({ pointer: pointer === "" ? "/" : pointer, from: "string", to: typeof result });
  return result;
}

const NOT_CONVERTED: unique symbol = Symbol("not converted");

/** The number or boolean `text` stands for under `schema`, if the schema says that type and would hold it. */
function convert(schema: Schema, text: string): unknown {
  const types = typesOf(schema) ?? [];
  let converted: unknown = NOT_CONVERTED;
  if (types.includes("boolean") && (text === "true" || text === "false")) converted = text === "true";
  const numeric = NUMBER_TEXT.exec(text);
  if (numeric !== null && (types.includes("number") || types.includes("integer"))) {
    const number = Number(text);
    const written = numeric[1] === undefined && numeric[2] === undefined;
    const exact = Number.isFinite(number) && (!written || Number.isSafeInteger(number));
    if (exact && (types.includes("number") || Number.isInteger(number))) converted = number;
  }
  if (converted === NOT_CONVERTED) return NOT_CONVERTED;
  if ("const" in schema && !Object.is(schema.const, converted)) return NOT_CONVERTED;
  if (Array.isArray(schema.enum) && !schema.enum.includes(converted)) return NOT_CONVERTED;
  return converted;
}

/** Whether `schema` may accept `text` as the string it is (type, const and enum only: conservative). */
function acceptsAsString(schema: Schema, text: string): boolean {
  const types = typesOf(schema);
  if (types !== undefined && !types.includes("string")) return false;
  if ("const" in schema) return schema.const === text;
  if (Array.isArray(schema.enum)) return schema.enum.includes(text);
  return true;
}

/** The alternatives a value may match: union branches flattened, references followed. */
function alternativesOf(schema: Schema, context: Context, hops: number): Array<Schema> {
  if (hops > MAX_REF_HOPS) return [schema];
  if (typeof schema.$ref === "string") {
    const target = resolve(schema.$ref, context);
    return target === undefined ? [{}] : alternativesOf(target, context, hops + 1);
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && typesOf(schema) === undefined) {
      return branches.flatMap((branch) => (isRecord(branch) ? alternativesOf(branch, context, hops + 1) : [{}]));
    }
  }
  return [schema];
}

/**
 * The schemas that describe an object's properties or an array's items here:
 * the schema itself, a referenced schema, every `allOf` branch, and the one
 * union branch of the container's kind.
 */
function containerSchemas(schema: Schema, isArray: boolean, context: Context, hops: number): Schema[] {
  if (hops > MAX_REF_HOPS) return [];
  const found: Schema[] = [schema];
  if (typeof schema.$ref === "string") {
    const target = resolve(schema.$ref, context);
    if (target !== undefined) found.push(...containerSchemas(target, isArray, context, hops + 1));
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) if (isRecord(branch)) found.push(...containerSchemas(branch, isArray, context, hops + 1));
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const kind = branches.filter((branch) => isRecord(branch) && describesContainer(branch, isArray));
    if (kind.length === 1) found.push(...containerSchemas(kind[0] as Schema, isArray, context, hops + 1));
  }
  return found;
}

function describesContainer(schema: Schema, isArray: boolean): boolean {
  const types = typesOf(schema);
  if (isArray) return types?.includes("array") ?? ("items" in schema || "prefixItems" in schema);
  return types?.includes("object") ?? ("properties" in schema || "additionalProperties" in schema || "patternProperties" in schema);
}

function repairObject(schema: Schema, object: Schema, pointer: string, context: Context, depth: number): Schema {
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  const patterns = isRecord(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  let result = object;
  for (const key of Object.keys(object)) {
    const subschemas: unknown[] = [];
    if (properties !== undefined && Object.hasOwn(properties, key)) subschemas.push(properties[key]);
    for (const [pattern, subschema] of patterns) if (regexOf(pattern)?.test(key)) subschemas.push(subschema);
    if (subschemas.length === 0 && isRecord(schema.additionalProperties)) subschemas.push(schema.additionalProperties);
    const before = object[key];
    let after = before;
    for (const subschema of subschemas) after = repair(subschema, after, `${pointer}/${escapePointerSegment(key)}`, context, depth + 1);
    if (after === before) continue;
    if (result === object) result = shallowCopy(object);
    defineOwn(result, key, after);
  }
  return result;
}

function repairArray(schema: Schema, array: readonly unknown[], pointer: string, context: Context, depth: number): unknown[] {
  // Draft 2020-12 `prefixItems` + `items`, or draft 7 tuple `items` + `additionalItems`.
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  let result = array as unknown[];
  for (let index = 0; index < array.length; index++) {
    const subschema = index < prefix.length ? prefix[index] : rest;
    const before = array[index];
    const after = repair(subschema, before, `${pointer}/${index}`, context, depth + 1);
    if (after === before) continue;
    if (result === array) result = array.slice();
    result[index] = after;
  }
  return result;
}

/** The schema a `$ref` names, through the one resolver every part of the library uses. */
function resolve(ref: string, context: Context): Schema | undefined {
  const target = context.references.resolve(ref);
  return isRecord(target) ? target : undefined;
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return undefined;
}

function regexOf(pattern: string): PatternTester | undefined {
  // The same linear-time tester the validator uses; a pattern with none (refused at register) matches nothing here.
  const compiled = compilePattern(pattern);
  return compiled.ok ? compiled.tester : undefined;
}

function shallowCopy(object: Schema): Schema {
  const copy: Schema = Object.getPrototypeOf(object) === null ? Object.create(null) : {};
  for (const key of Object.keys(object)) defineOwn(copy, key, object[key]);
  return copy;
}
