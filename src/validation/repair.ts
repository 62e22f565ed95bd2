import type { ArgumentRepair, JsonTypeName } from "../types.js";
import { MAX_REF_HOPS, MAX_VALUE_DEPTH } from "../schema/keywords.js";
import { isStringKeyRecord } from "../schema/records.js";
import { compilePattern, type PatternTester } from "../schema/patterns.js";
import { SchemaReferences } from "../schema/references.js";
import { escapePointerSegment } from "../text/issues.js";
import { defineOwn, isRecord } from "../objects.js";
import { SchemaExplainer, StepBudget } from "./explainer.js";
import { parseJsonText } from "./repair-json-text.js";
import { type LiteralPlan, literalPlan, NOT_CONVERTED, repairLiteral } from "./repair-literals.js";

/**
 * Model-friendly repair of tool arguments: opt-in, unambiguous only, and always reported. Each
 * rule repairs a value only where the schema at its pointer refuses it and takes the repaired
 * one; nothing else is guessed.
 */

/** What {@link repairArguments} returns. */
export interface RepairResult {
  /** The repaired value; the input itself when nothing was repaired. */
  value: unknown;
  /** Every repair made, in document order. Empty when nothing was repaired. */
  repairs: ArgumentRepair[];
}

/** Bounds of one repair. */
export interface RepairLimits {
  /**
   * The most UTF-8 bytes of JSON text the JSON text rule reads, all strings together (the
   * registry passes its `maxArgumentBytes`).
   * @default 16777216 (16 MiB, the registry's default `maxArgumentBytes`)
   */
  readonly maxParseBytes?: number;
}

const DEFAULT_MAX_PARSE_BYTES = 16 * 1024 * 1024;
/** Steps the tests of one repair may take beyond a few per node of the arguments (and of each parsed JSON text). */
const EXTRA_TEST_STEPS = 10_000;

/**
 * Repairs the unambiguous mistakes in `value` against `schema`, and reports each:
 * 1. a string that is a JSON number literal (`"20"`, `"-1.5"`, `"1e3"`) where the schema says
 *    `number` or `integer` (for `integer`, only when the number is one; a literal whose number is
 *    an integer beyond 2^53, however written, is left alone), and `"true"` or `"false"` where it says `boolean`;
 * 2. a string holding the JSON text of an object or array (`"{\"city\":\"Paris\"}"`), where the
 *    schema at its pointer refuses the string and accepts the parsed value as it is;
 * 3. `null` for an optional property (declared, not required) whose schema refuses `null`: the
 *    property is left out;
 * 4. a lone value where the schema at its pointer refuses it and accepts a one-element array of
 *    it (`"a"` for a list of strings; `null` for a required property, whose items accept `null`).
 *
 * A string that looks like the JSON of an object or array is read as JSON or left alone, never
 * wrapped by rule 4. Rules do not compose at one pointer (a parsed object is taken as it is, a
 * wrapped value as it is).
 *
 * It walks nested objects (`properties`, `patternProperties`, `additionalProperties`), arrays
 * (`items`, `prefixItems`, tuple `items`), local `$ref`s and `allOf`, and into the one branch of a
 * union (`anyOf`, `oneOf`) that describes the container's kind when every other branch's type
 * excludes it. In a union of scalars, a string is converted by rule 1 only when no branch accepts
 * it as a string and exactly one value results from the branches that accept a converted value.
 * Whether a schema accepts a value is asked of the schema's explainer, within a step budget of a
 * few steps per node of the value (and of each parsed text): a repair costs work linear in the
 * arguments. Values nested deeper than the library's value depth are left as they are; a JSON
 * text is parsed only while all the texts parsed stay within `maxParseBytes` and the result stays
 * within the value depth.
 *
 * Pure: `value` is never modified. Where something is repaired, the objects and arrays on the
 * path to it are copied; everything else is shared with `value`. Call it on the private copy of
 * the arguments after a failed check, then check the repaired value again.
 */
export function repairArguments(schema: unknown, value: unknown, limits: RepairLimits = {}): RepairResult {
  const context: Context = {
    references: new SchemaReferences(schema),
    explainer: explainerOf(schema),
    budget: new StepBudget(EXTRA_TEST_STEPS, value),
    parseBytesLeft: limits.maxParseBytes ?? DEFAULT_MAX_PARSE_BYTES,
    repairs: [],
    facts: new Map(),
  };
  const repaired = repairAt([schema], value, "", context, 0);
  return { value: repaired, repairs: context.repairs };
}

interface Context {
  readonly references: SchemaReferences;
  readonly explainer: SchemaExplainer;
  readonly budget: StepBudget;
  parseBytesLeft: number;
  readonly repairs: ArgumentRepair[];
  /** What the rules ask of each schema met, found once per repair (see {@link factsOf}). */
  readonly facts: Map<Schema, SchemaFacts>;
}

type Schema = Record<string, unknown>;

/**
 * What the rules ask of one schema at every value it applies to, found the first time it applies:
 * a union of a thousand branches is flattened once per repair, not once per value. What is left
 * per value (the alternatives that may take a converted literal, the containers of an object's
 * keys or an array's items) is paid for in the repair's step budget.
 */
interface SchemaFacts {
  /** What rule 1 needs of its alternatives (union branches flattened, references followed). */
  readonly literal: LiteralPlan;
  /** Whether an alternative's type admits an array: only then may rule 4 wrap a value, or rule 2 parse an array's JSON text. */
  readonly mayBeArray: boolean;
  /** Whether an alternative's type admits an object: only then may rule 2 parse an object's JSON text. */
  readonly mayBeObject: boolean;
  /** Its containers for an object and for an array (see {@link containerSchemas}), found when first needed. */
  objectContainers: Schema[] | undefined;
  arrayContainers: Schema[] | undefined;
}

/** The facts of `schema` in this repair. */
function factsOf(schema: Schema, context: Context): SchemaFacts {
  let facts = context.facts.get(schema);
  if (facts === undefined) {
    const alternatives = alternativesOf(schema, context, 0);
    facts = {
      literal: literalPlan(alternatives),
      mayBeArray: alternatives.some((alternative) => mayBe(alternative, "array")),
      mayBeObject: alternatives.some((alternative) => mayBe(alternative, "object")),
      objectContainers: undefined,
      arrayContainers: undefined,
    };
    context.facts.set(schema, facts);
  }
  return facts;
}

/** The containers of `schema` for one kind of value, found once per repair. */
function containersOf(schema: Schema, isArray: boolean, context: Context): Schema[] {
  const facts = factsOf(schema, context);
  if (isArray) return (facts.arrayContainers ??= containerSchemas(schema, true, context, 0));
  return (facts.objectContainers ??= containerSchemas(schema, false, context, 0));
}

// Schemas are the registry's frozen snapshots: one explainer (and its plans) per schema object.
const explainers = new WeakMap<object, SchemaExplainer>();

function explainerOf(schema: unknown): SchemaExplainer {
  if (typeof schema !== "object" || schema === null) return new SchemaExplainer(schema);
  let explainer = explainers.get(schema);
  if (explainer === undefined) explainers.set(schema, (explainer = new SchemaExplainer(schema)));
  return explainer;
}

/** Repairs the value at one pointer, where every one of `schemas` applies to it. */
function repairAt(schemas: readonly unknown[], value: unknown, pointer: string, context: Context, depth: number): unknown {
  // No schema describes it (a key no container names): no rule applies here or below, and walking
  // it would cost steps no budget counts (a shared or cyclic value is walked once per path to it).
  if (depth > MAX_VALUE_DEPTH || schemas.length === 0) return value;
  let result = value;
  if (typeof value === "string") {
    result = repairLiteralAt(schemas, value, pointer, context);
    if (result === value) result = repairJsonText(schemas, value, pointer, context, depth);
  } else if (typeof value === "object" && value !== null) {
    result = Array.isArray(value) ? repairArray(schemas, value, pointer, context, depth) : repairObject(schemas, value as Schema, pointer, context, depth);
  }
  // A string that looks like the JSON of an array or object is never a lone value: wrapping it would
  // guess. `null` is one, as the rule reads (an optional property's null was left out before this);
  // `undefined` is none: an optional property set to it is absent, as the check reads it.
  if (result === value && value !== undefined && !Array.isArray(value) && !(typeof value === "string" && jsonTextKind(value) !== undefined)) {
    result = wrapLoneValue(schemas, value, pointer, context);
  }
  return result;
}

/** Rule 1, through each schema in turn: `"20"` to 20, `"true"` to true. */
function repairLiteralAt(schemas: readonly unknown[], text: string, pointer: string, context: Context): unknown {
  for (const schema of schemas) {
    if (!isRecord(schema)) continue;
    const plan = factsOf(schema, context).literal;
    if (!context.budget.spend()) return text;
    const converted = repairLiteral(plan, text);
    if (converted === NOT_CONVERTED) continue;
    report(context, pointer, "string", jsonTypeOf(converted));
    return converted;
  }
  return text;
}

/** Rule 2: a string holding the JSON of an object or array the schema wants, where it refuses the string. */
function repairJsonText(schemas: readonly unknown[], text: string, pointer: string, context: Context, depth: number): unknown {
  const kind = jsonTextKind(text);
  if (kind === undefined || !schemas.some((schema) => isRecord(schema) && (kind === "array" ? factsOf(schema, context).mayBeArray : factsOf(schema, context).mayBeObject))) return text;
  if (!refusedBySome(schemas, text, context)) return text;
  const parsed = parseJsonText(text, context.parseBytesLeft, MAX_VALUE_DEPTH - depth);
  context.parseBytesLeft -= parsed.bytesRead;
  if (parsed.value === undefined) return text;
  context.budget.grant(parsed.value);
  if (!acceptedByAll(schemas, parsed.value, context)) return text;
  report(context, pointer, "string", kind);
  return parsed.value;
}

/** Rule 4: a lone value where the schema wants a one-element array of it. */
function wrapLoneValue(schemas: readonly unknown[], value: unknown, pointer: string, context: Context): unknown {
  if (!schemas.some((schema) => isRecord(schema) && factsOf(schema, context).mayBeArray)) return value;
  if (!refusedBySome(schemas, value, context)) return value;
  const wrapped = [value];
  if (!acceptedByAll(schemas, wrapped, context)) return value;
  report(context, pointer, jsonTypeOf(value), "array");
  return wrapped;
}

function repairObject(schemas: readonly unknown[], object: Schema, pointer: string, context: Context, depth: number): Schema {
  const containers = schemas.flatMap((schema) => (isRecord(schema) ? containersOf(schema, false, context) : []));
  const required = new Set<unknown>();
  for (const container of containers) if (Array.isArray(container.required)) for (const name of container.required) required.add(name);
  let result = object;
  for (const key of Object.keys(object)) {
    // At least a step a key, for an object no container describes too.
    if (!context.budget.spend(Math.max(1, containers.length))) break;
    const subschemas: unknown[] = [];
    let declared = false;
    for (const container of containers) {
      const properties = isRecord(container.properties) ? container.properties : undefined;
      let described = false;
      if (properties !== undefined && Object.hasOwn(properties, key)) {
        subschemas.push(properties[key]);
        declared = described = true;
      }
      if (isRecord(container.patternProperties)) {
        // A `Type.Record` with string keys holds every key, as its check does (see records.ts).
        const everyKey = isStringKeyRecord(container);
        for (const [pattern, subschema] of Object.entries(container.patternProperties)) {
          if (!everyKey && !regexOf(pattern)?.test(key)) continue;
          subschemas.push(subschema);
          described = true;
        }
      }
      if (!described && Object.hasOwn(container, "additionalProperties")) subschemas.push(container.additionalProperties);
    }
    const before = object[key];
    const childPointer = `${pointer}/${escapePointerSegment(key)}`;
    // Rule 3: null for an optional property whose schema refuses null means the property is left out.
    if (before === null && declared && !required.has(key) && refusedBySome(subschemas, null, context)) {
      if (result === object) result = shallowCopy(object);
      delete result[key];
      report(context, childPointer, "null", "omitted");
      continue;
    }
    const after = repairAt(subschemas, before, childPointer, context, depth + 1);
    if (after === before) continue;
    if (result === object) result = shallowCopy(object);
    defineOwn(result, key, after);
  }
  return result;
}

function repairArray(schemas: readonly unknown[], array: readonly unknown[], pointer: string, context: Context, depth: number): unknown[] {
  const containers = schemas.flatMap((schema) => (isRecord(schema) ? containersOf(schema, true, context) : []));
  let result = array as unknown[];
  for (let index = 0; index < array.length; index++) {
    if (!context.budget.spend(Math.max(1, containers.length))) break;
    const subschemas: unknown[] = [];
    for (const container of containers) {
      // Draft 2020-12 `prefixItems` + `items`, or draft 7 tuple `items` + `additionalItems`.
      const prefix = Array.isArray(container.prefixItems) ? container.prefixItems : Array.isArray(container.items) ? container.items : [];
      const rest = Array.isArray(container.items) ? container.additionalItems : container.items;
      const subschema = index < prefix.length ? prefix[index] : rest;
      if (subschema !== undefined) subschemas.push(subschema);
    }
    const before = array[index];
    const after = repairAt(subschemas, before, `${pointer}/${index}`, context, depth + 1);
    if (after === before) continue;
    if (result === array) result = array.slice();
    result[index] = after;
  }
  return result;
}

/** Whether at least one schema refuses `value` (a budget spent counts as no: nothing is repaired then). */
function refusedBySome(schemas: readonly unknown[], value: unknown, context: Context): boolean {
  return schemas.some((schema) => context.explainer.matchesNode(schema, value, context.budget) === false);
}

/** Whether every schema accepts `value` (and there is at least one). */
function acceptedByAll(schemas: readonly unknown[], value: unknown, context: Context): boolean {
  return schemas.length > 0 && schemas.every((schema) => context.explainer.matchesNode(schema, value, context.budget) === true);
}

/** The alternatives a value may match: union branches flattened, references followed. */
function alternativesOf(schema: Schema, context: Context, hops: number): Schema[] {
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
 * The schemas that describe an object's properties or an array's items here: the schema itself,
 * a referenced schema, every `allOf` branch, and the one union branch of the container's kind
 * when every other branch's type excludes that kind (so that a value the union accepts through
 * another branch is never repaired by this one's rules).
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
  const kind = isArray ? "array" : "object";
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const ofKind = branches.filter((branch) => isRecord(branch) && describesContainer(branch, kind));
    const kindSet = new Set(ofKind);
    const others = branches.filter((branch) => !kindSet.has(branch));
    if (ofKind.length === 1 && others.every((branch) => excludesKind(branch, kind, context))) {
      found.push(...containerSchemas(ofKind[0] as Schema, isArray, context, hops + 1));
    }
  }
  return found;
}

function describesContainer(schema: Schema, kind: "object" | "array"): boolean {
  const types = typesOf(schema);
  if (kind === "array") return types?.includes("array") ?? ("items" in schema || "prefixItems" in schema);
  return types?.includes("object") ?? ("properties" in schema || "additionalProperties" in schema || "patternProperties" in schema);
}

/** Whether a union branch refuses every value of a kind, as its `type` (or constant) says, references followed. */
function excludesKind(branch: unknown, kind: "object" | "array", context: Context): boolean {
  const alternatives = isRecord(branch) ? alternativesOf(branch, context, 0) : [];
  return (
    alternatives.length > 0 &&
    alternatives.every((alternative) => {
      const types = typesOf(alternative);
      if (types !== undefined) return !types.includes(kind);
      const values = Object.hasOwn(alternative, "const") ? [alternative.const] : Array.isArray(alternative.enum) ? alternative.enum : undefined;
      return values !== undefined && values.every((value) => jsonTypeOf(value) !== kind);
    })
  );
}

/** Whether a schema's `type` admits values of a kind (a schema without `type` may, if it describes that kind). */
function mayBe(schema: Schema, kind: "object" | "array"): boolean {
  const types = typesOf(schema);
  return types === undefined ? describesContainer(schema, kind) : types.includes(kind);
}

/** `object` or `array` when `text`, without surrounding JSON whitespace, starts and ends as one would. */
function jsonTextKind(text: string): "object" | "array" | undefined {
  const first = text.search(/\S/);
  if (first < 0) return undefined;
  const opening = text[first];
  let last = text.length - 1;
  while (last > first && /\s/.test(text[last]!)) last--;
  if (opening === "{" && text[last] === "}") return "object";
  if (opening === "[" && text[last] === "]") return "array";
  return undefined;
}

function report(context: Context, pointer: string, from: JsonTypeName, to: JsonTypeName | "omitted"): void {
  context.repairs.push({ pointer: pointer === "" ? "/" : pointer, from, to });
}

function jsonTypeOf(value: unknown): JsonTypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "number" || type === "boolean" || type === "string" ? type : "object";
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
