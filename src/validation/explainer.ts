import { Format } from "typebox/format";
import { jsonEqual, jsonKey } from "../schema/equality.js";
import { MAX_REF_HOPS, REFERENCE_KEYWORDS } from "../schema/keywords.js";
import { isMultipleOf } from "../schema/multiple-of.js";
import { appendSegment } from "../schema/pointer.js";
import { SchemaReferences } from "../schema/references.js";
import { describeAllowed, describeSchemaFragment, describeTypes } from "./shapes.js";

/** One reason a value fails its schema: where (a raw JSON Pointer into the arguments) and what is expected there. */
export interface Issue {
  readonly pointer: string;
  readonly message: string;
}

/** How much one explanation may find and do. */
export interface ExplainLimits {
  /** The most issues reported; the walk stops once it has them. */
  readonly maxIssues: number;
  /** Steps the walk may take, beyond one per node of the value; then it stops with what it found. */
  readonly extraSteps?: number;
}

/** The deepest nesting of the value the explanation descends into; deeper, it reports the node as a whole. */
export const MAX_EXPLAINED_DEPTH = 256;

/** Steps of the walk per node of the value: one visit each, and room for `contains`, `uniqueItems` and a union's second look. */
const STEPS_PER_NODE = 4;

type Schema = Readonly<Record<string, unknown>>;
type Mode = "explain" | "test";

/** Thrown inside a walk to end it: the issue list is full, or the step budget is spent. */
class WalkEnd extends Error {
  override readonly name = "WalkEnd";
}

/** The state of one explanation: where it is in the value, what it found, what it may still do. */
class Walk {
  readonly issues: Issue[] = [];
  /** The segments from the root to the value being visited; a pointer is written only when reported. */
  readonly path: Array<string | number> = [];

  constructor(
    readonly maxIssues: number,
    public steps: number,
  ) {}

  step(): void {
    if (--this.steps < 0) throw new WalkEnd("step budget spent");
  }

  /** Reports an issue at the current path, or at its `child`. */
  report(message: string, child?: string | number): void {
    let pointer = "";
    for (const segment of this.path) pointer = appendSegment(pointer, segment);
    if (child !== undefined) pointer = appendSegment(pointer, child);
    this.issues.push({ pointer, message });
    if (this.issues.length >= this.maxIssues) throw new WalkEnd("issue list full");
  }
}

/**
 * Finds why a value fails a JSON Schema, at a cost bounded by the value's size: one walk down
 * the schema and the value together, in schema order, that stops once it holds `maxIssues`
 * issues or has spent its step budget (about two steps per node of the value). It never asks
 * TypeBox's `Errors()`, whose cost can be quadratic or walk the whole value per failure.
 *
 * It explains and never decides: the compiled validator's verdict is final, and an explanation
 * that finds nothing (a budget spent, a keyword it does not model) gives one generic issue. Its
 * messages come from the schema (types, limits, allowed values, patterns, cut to a bounded
 * length), never from the value; pointers name the value's keys and indices.
 *
 * Semantics follow JSON Schema where TypeBox 1.4 departs from it in ways this library corrects:
 * own properties only (never inherited ones such as `toString`), JSON equality for `enum`,
 * `const` and `uniqueItems` (an array never equals an object), exact decimal `multipleOf`.
 */
export class SchemaExplainer {
  readonly #root: unknown;
  readonly #references: SchemaReferences;

  constructor(root: unknown) {
    this.#root = root;
    this.#references = new SchemaReferences(root);
  }

  /** Why `value` fails the schema, in schema order: at most `limits.maxIssues` issues, and at least one. */
  explain(value: unknown, limits: ExplainLimits): Issue[] {
    const walk = new Walk(Math.max(1, limits.maxIssues), STEPS_PER_NODE * countNodes(value) + (limits.extraSteps ?? 10_000));
    try {
      this.#visit(this.#root, value, 0, walk, "explain");
    } catch (error) {
      if (!(error instanceof WalkEnd)) throw error;
    }
    return walk.issues.length > 0 ? walk.issues : [{ pointer: "", message: "arguments do not match the schema" }];
  }

  /**
   * Whether `value` matches the schema, by the same reading as {@link SchemaExplainer.explain}
   * and within the same step budget; `undefined` when the budget ran out before it could tell.
   */
  matches(value: unknown, extraSteps = 10_000): boolean | undefined {
    try {
      return this.#visit(this.#root, value, 0, new Walk(1, STEPS_PER_NODE * countNodes(value) + extraSteps), "test");
    } catch (error) {
      if (error instanceof WalkEnd) return undefined;
      throw error;
    }
  }

  /**
   * Whether `value` matches `schema`. In `explain` mode each failure is reported and the walk
   * goes on; in `test` mode nothing is reported and the first failure decides.
   */
  #visit(schema: unknown, value: unknown, hops: number, walk: Walk, mode: Mode): boolean {
    walk.step();
    if (schema === true) return true;
    if (schema === false) return fail(walk, mode, "is not allowed");
    if (!isObject(schema)) return true;
    if (walk.path.length > MAX_EXPLAINED_DEPTH) return fail(walk, mode, "does not match the schema (nested too deeply to explain)");
    // Each group of keywords goes on after a failure in explain mode, and decides at once in test mode.
    let valid = this.#visitReferences(schema, value, hops, walk, mode);
    if (!valid && mode === "test") return false;
    valid = visitValueKeywords(schema, value, walk, mode) && valid;
    if (!valid && mode === "test") return false;
    if (Array.isArray(value)) valid = this.#visitArray(schema, value, walk, mode) && valid;
    else if (typeof value === "object" && value !== null) valid = this.#visitObject(schema, value as Readonly<Record<string, unknown>>, walk, mode) && valid;
    else if (typeof value === "string") valid = visitString(schema, value, walk, mode) && valid;
    else if (typeof value === "number") valid = visitNumber(schema, value, walk, mode) && valid;
    if (!valid && mode === "test") return false;
    return this.#visitApplicators(schema, value, walk, mode) && valid;
  }

  /** Visits the value at one child of the current path. */
  #visitChild(schema: unknown, value: unknown, segment: string | number, walk: Walk, mode: Mode): boolean {
    walk.path.push(segment);
    try {
      return this.#visit(schema, value, 0, walk, mode);
    } finally {
      walk.path.pop();
    }
  }

  #visitReferences(schema: Schema, value: unknown, hops: number, walk: Walk, mode: Mode): boolean {
    for (const keyword of REFERENCE_KEYWORDS) {
      const ref = schema[keyword];
      if (typeof ref !== "string") continue;
      const target = this.#references.resolve(ref);
      if (target === undefined || hops >= MAX_REF_HOPS) return fail(walk, mode, "does not match the schema");
      if (!this.#visit(target, value, hops + 1, walk, mode)) return false;
    }
    return true;
  }

  #visitArray(schema: Schema, array: readonly unknown[], walk: Walk, mode: Mode): boolean {
    let valid = true;
    const { minItems, maxItems } = schema;
    if (typeof minItems === "number" && array.length < minItems) valid = fail(walk, mode, `must not have fewer than ${minItems} items`);
    if (typeof maxItems === "number" && array.length > maxItems) valid = fail(walk, mode, `must not have more than ${maxItems} items`);
    if (!valid && mode === "test") return false;
    // Draft 2020-12 `prefixItems` + `items`, or draft-07 tuple `items` + `additionalItems`.
    const tuple = Array.isArray(schema.items);
    const prefix: readonly unknown[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : tuple ? (schema.items as unknown[]) : [];
    const rest = tuple ? schema.additionalItems : schema.items;
    const checked = rest === undefined ? Math.min(prefix.length, array.length) : array.length;
    for (let index = 0; index < checked; index++) {
      if (!this.#visitChild(index < prefix.length ? prefix[index] : rest, array[index], index, walk, mode)) {
        valid = false;
        if (mode === "test") return false;
      }
    }
    if (Object.hasOwn(schema, "contains")) {
      let matches = 0;
      for (let index = 0; index < array.length; index++) if (this.#visitChild(schema.contains, array[index], index, walk, "test")) matches++;
      const minimum = typeof schema.minContains === "number" ? schema.minContains : 1;
      if (matches < minimum) valid = fail(walk, mode, `must contain at least ${minimum} ${minimum === 1 ? "item" : "items"} matching ${describeSchemaFragment(schema.contains)}`);
      if (typeof schema.maxContains === "number" && matches > schema.maxContains) {
        valid = fail(walk, mode, `must contain at most ${schema.maxContains} items matching ${describeSchemaFragment(schema.contains)}`);
      }
      if (!valid && mode === "test") return false;
    }
    if (schema.uniqueItems === true) {
      const seen = new Map<string, number>();
      for (let index = 0; index < array.length; index++) {
        walk.step();
        const key = jsonKey(array[index]);
        const first = seen.get(key);
        if (first !== undefined) {
          valid = fail(walk, mode, `must not have duplicate items (item ${index} repeats item ${first})`);
          break;
        }
        seen.set(key, index);
      }
    }
    if (Object.hasOwn(schema, "unevaluatedItems") && schema.unevaluatedItems !== true && !this.#visit(omit(schema, "unevaluatedItems"), array, 0, walk, "test")) {
      // Which items count as evaluated depends on every applicator: the node is explained as a whole.
      valid = fail(walk, mode, "must not have items the schema does not describe");
    }
    return valid;
  }

  #visitObject(schema: Schema, object: Readonly<Record<string, unknown>>, walk: Walk, mode: Mode): boolean {
    let valid = true;
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    // In schema order: each declared property, missing or present, then the required names it does not declare.
    if (properties !== undefined) {
      for (const name of Object.keys(properties)) {
        walk.step();
        const isRequired = required.includes(name);
        if (!Object.hasOwn(object, name)) {
          if (isRequired) valid = fail(walk, mode, `must have required properties ${name}`, name);
        } else if (isRequired || object[name] !== undefined) {
          // An optional property present as undefined counts as absent, as TypeBox and TypeScript read it.
          valid = this.#visitChild(properties[name], object[name], name, walk, mode) && valid;
        }
        if (!valid && mode === "test") return false;
      }
    }
    for (const name of required) {
      if ((properties === undefined || !Object.hasOwn(properties, name)) && !Object.hasOwn(object, name)) {
        valid = fail(walk, mode, `must have required properties ${name}`, name);
        if (mode === "test") return false;
      }
    }
    const keys = Object.keys(object);
    const patternProperties = isObject(schema.patternProperties) ? schema.patternProperties : undefined;
    const patterns = patternProperties === undefined ? [] : Object.keys(patternProperties);
    const hasAdditional = Object.hasOwn(schema, "additionalProperties") && schema.additionalProperties !== true;
    if (patterns.length > 0 || hasAdditional) {
      for (const key of keys) {
        walk.step();
        let described = properties !== undefined && Object.hasOwn(properties, key);
        for (const pattern of patterns) {
          if (!patternTester(pattern).test(key)) continue;
          described = true;
          valid = this.#visitChild(patternProperties![pattern], object[key], key, walk, mode) && valid;
        }
        if (!described && hasAdditional) {
          if (schema.additionalProperties === false) valid = fail(walk, mode, "is not an allowed property", key);
          else valid = this.#visitChild(schema.additionalProperties, object[key], key, walk, mode) && valid;
        }
        if (!valid && mode === "test") return false;
      }
    }
    if (Object.hasOwn(schema, "propertyNames")) {
      for (const key of keys) {
        // The names come from the arguments: never shown, never used as a pointer.
        if (!this.#visit(schema.propertyNames, key, 0, walk, "test")) {
          valid = fail(walk, mode, `property names are invalid (each must be ${describeSchemaFragment(schema.propertyNames)})`);
          break;
        }
      }
    }
    const { minProperties, maxProperties } = schema;
    if (typeof minProperties === "number" && keys.length < minProperties) valid = fail(walk, mode, `must not have fewer than ${minProperties} properties`);
    if (typeof maxProperties === "number" && keys.length > maxProperties) valid = fail(walk, mode, `must not have more than ${maxProperties} properties`);
    if (!valid && mode === "test") return false;
    valid = this.#visitDependencies(schema, object, walk, mode) && valid;
    if (!valid && mode === "test") return false;
    if (Object.hasOwn(schema, "unevaluatedProperties") && schema.unevaluatedProperties !== true && !this.#visit(omit(schema, "unevaluatedProperties"), object, 0, walk, "test")) {
      valid = fail(walk, mode, "must not have properties the schema does not describe");
    }
    return valid;
  }

  #visitDependencies(schema: Schema, object: Readonly<Record<string, unknown>>, walk: Walk, mode: Mode): boolean {
    let valid = true;
    for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"] as const) {
      const dependencies = schema[keyword];
      if (!isObject(dependencies)) continue;
      for (const trigger of Object.keys(dependencies)) {
        walk.step();
        if (!Object.hasOwn(object, trigger)) continue;
        const dependency = dependencies[trigger];
        if (Array.isArray(dependency)) {
          const missing = dependency.filter((name): name is string => typeof name === "string" && !Object.hasOwn(object, name));
          if (missing.length > 0) valid = fail(walk, mode, `must have properties ${missing.join(", ")} when property ${trigger} is present`);
        } else {
          valid = this.#visit(dependency, object, 0, walk, mode) && valid;
        }
        if (!valid && mode === "test") return false;
      }
    }
    return valid;
  }

  /** `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. */
  #visitApplicators(schema: Schema, value: unknown, walk: Walk, mode: Mode): boolean {
    let valid = true;
    if (Array.isArray(schema.allOf)) {
      for (const branch of schema.allOf) {
        valid = this.#visit(branch, value, 0, walk, mode) && valid;
        if (!valid && mode === "test") return false;
      }
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      let matching = 0;
      for (const branch of branches) {
        if (this.#visit(branch, value, 0, walk, "test")) matching++;
        if (keyword === "anyOf" ? matching > 0 : matching > 1) break;
      }
      if (matching === 1 || (keyword === "anyOf" && matching > 0)) continue;
      valid = false;
      if (mode === "test") return false;
      if (matching > 1) {
        fail(walk, mode, "must match exactly one of the allowed shapes, and matches more than one");
        continue;
      }
      // Explain the one branch meant for a value of this kind; otherwise say what is allowed.
      const meant = branchesMeantFor(branches, value);
      if (meant.length === 1) this.#visit(meant[0], value, 0, walk, "explain");
      else fail(walk, mode, describeBranches(branches));
    }
    if (Object.hasOwn(schema, "not") && this.#visit(schema.not, value, 0, walk, "test")) {
      valid = fail(walk, mode, `must not match ${describeSchemaFragment(schema.not)}`);
      if (mode === "test") return false;
    }
    if (Object.hasOwn(schema, "if")) {
      const branch = this.#visit(schema.if, value, 0, walk, "test") ? schema.then : schema.else;
      if (branch !== undefined) valid = this.#visit(branch, value, 0, walk, mode) && valid;
    }
    return valid;
  }
}

/** Reports `message` in explain mode (at the current path, or at its `child`); always false. */
function fail(walk: Walk, mode: Mode, message: string, child?: string | number): false {
  if (mode === "explain") walk.report(message, child);
  return false;
}

/** `type`, `const`, `enum` and TypeBox refinements: keywords about the value as a whole. */
function visitValueKeywords(schema: Schema, value: unknown, walk: Walk, mode: Mode): boolean {
  let valid = true;
  const types = schema.type;
  if (types !== undefined) {
    const names = Array.isArray(types) ? types : [types];
    if (!names.some((name) => hasType(value, name))) valid = fail(walk, mode, `must be ${describeTypes(names)}`);
  }
  if (Object.hasOwn(schema, "const") && !jsonEqual(value, schema.const)) valid = fail(walk, mode, describeAllowed([schema.const]));
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => jsonEqual(value, allowed))) valid = fail(walk, mode, describeAllowed(schema.enum));
  const refinements = schema["~refine"];
  if (Array.isArray(refinements)) {
    for (const refinement of refinements) {
      if (isObject(refinement) && typeof refinement.check === "function" && !(refinement.check as (value: unknown) => boolean)(value)) {
        valid = fail(walk, mode, "does not pass the schema's refinement");
      }
    }
  }
  return valid;
}

function visitString(schema: Schema, text: string, walk: Walk, mode: Mode): boolean {
  let valid = true;
  const { minLength, maxLength, pattern, format } = schema;
  if (typeof minLength === "number" || typeof maxLength === "number") {
    const length = codePointCount(text);
    if (typeof minLength === "number" && length < minLength) valid = fail(walk, mode, `must not have fewer than ${minLength} characters`);
    if (typeof maxLength === "number" && length > maxLength) valid = fail(walk, mode, `must not have more than ${maxLength} characters`);
  }
  if (typeof pattern === "string" && !patternTester(pattern).test(text)) valid = fail(walk, mode, `must match pattern ${describeSchemaFragment(pattern)}`);
  if (typeof format === "string" && !Format.Test(format, text)) valid = fail(walk, mode, `must match format ${describeSchemaFragment(format)}`);
  return valid;
}

function visitNumber(schema: Schema, number: number, walk: Walk, mode: Mode): boolean {
  let valid = true;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === "number" && !(number >= minimum)) valid = fail(walk, mode, `must be >= ${minimum}`);
  if (typeof maximum === "number" && !(number <= maximum)) valid = fail(walk, mode, `must be <= ${maximum}`);
  if (typeof exclusiveMinimum === "number" && !(number > exclusiveMinimum)) valid = fail(walk, mode, `must be > ${exclusiveMinimum}`);
  if (typeof exclusiveMaximum === "number" && !(number < exclusiveMaximum)) valid = fail(walk, mode, `must be < ${exclusiveMaximum}`);
  if (typeof multipleOf === "number" && !isMultipleOf(number, multipleOf)) valid = fail(walk, mode, `must be a multiple of ${multipleOf}`);
  return valid;
}

/** The branches of a union written for a value of this JSON type (and, for objects, whose `const` properties it matches). */
function branchesMeantFor(branches: readonly unknown[], value: unknown): unknown[] {
  const ofType = branches.filter((branch) => !isObject(branch) || branch.type === undefined || (Array.isArray(branch.type) ? branch.type : [branch.type]).some((type) => hasType(value, type)));
  if (ofType.length <= 1 || typeof value !== "object" || value === null || Array.isArray(value)) return ofType;
  // A discriminated union: the branch whose constant-valued properties the object matches.
  const discriminated = ofType.filter((branch) => {
    const properties = isObject(branch) && isSchemaMap(branch.properties) ? branch.properties : {};
    return Object.keys(properties).every((name) => {
      const property = properties[name];
      return !(isObject(property) && Object.hasOwn(property, "const")) || jsonEqual((value as Record<string, unknown>)[name], property.const);
    });
  });
  return discriminated.length >= 1 ? discriminated : ofType;
}

function describeBranches(branches: readonly unknown[]): string {
  const types = branches.map((branch) => (isObject(branch) && Object.keys(branch).every((key) => key === "type" || key === "description" || key === "title") ? branch.type : undefined));
  if (types.every((type) => typeof type === "string")) return `must be ${describeTypes(types as string[])}`;
  const constants = branches.map((branch) => (isObject(branch) && Object.hasOwn(branch, "const") ? [branch.const] : isObject(branch) && Array.isArray(branch.enum) ? branch.enum : undefined));
  if (constants.every((values) => values !== undefined)) return describeAllowed(constants.flat());
  return `must match one of the ${branches.length} allowed shapes: ${branches.map(describeSchemaFragment).join("; ")}`;
}

const patternTesters = new Map<string, { test(text: string): boolean }>();

/** The tester of a schema pattern, cached; a pattern that does not compile matches nothing (registration refuses such schemas). */
function patternTester(pattern: string): { test(text: string): boolean } {
  let tester = patternTesters.get(pattern);
  if (tester === undefined) {
    try {
      tester = new RegExp(pattern, "u");
    } catch {
      tester = { test: () => false };
    }
    if (patternTesters.size > 1024) patternTesters.clear();
    patternTesters.set(pattern, tester);
  }
  return tester;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "number":
      return Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "bigint":
      return typeof value === "bigint";
    case "symbol":
      return typeof value === "symbol";
    case "function":
    case "constructor":
      return typeof value === "function";
    case "undefined":
    case "void":
      return value === undefined;
    default:
      // As TypeBox reads it: a type name it does not know constrains nothing.
      return true;
  }
}

function codePointCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/** Nodes of a value (objects, arrays and primitives), counted without recursion; only containers wait on the stack. */
function countNodes(value: unknown): number {
  let count = 1;
  const pending: object[] = typeof value === "object" && value !== null ? [value] : [];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (typeof child === "object" && child !== null) pending.push(child);
    }
  }
  return count;
}

function omit(schema: Schema, keyword: string): Schema {
  const { [keyword]: _omitted, ...rest } = schema;
  return rest;
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchemaMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return isObject(value);
}
