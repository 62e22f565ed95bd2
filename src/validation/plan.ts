import { Format } from "typebox/format";
import { jsonMembership } from "../schema/equality.js";
import { typeTest } from "../schema/json-types.js";
import { ANNOTATION_KEYWORDS, REFERENCE_KEYWORDS } from "../schema/keywords.js";
import type { PatternTester } from "../schema/patterns.js";
import { isStringKeyRecord } from "../schema/records.js";
import type { SchemaReferences } from "../schema/references.js";
import { describeAllowed, describeShape, describeTypes } from "../text/shapes.js";

type Schema = Readonly<Record<string, unknown>>;

/**
 * One schema node read once, for a walk that visits it many times: which keywords it has,
 * their values in the form the walk uses (a type test, a set of allowed values, a pattern
 * tester), and its subschemas. Subschemas are kept as schemas; the walk asks the
 * {@link PlanBook} for their plans, so recursive schemas need no recursive building.
 * `unevaluatedProperties` and `unevaluatedItems` are not modelled: which members count as
 * evaluated depends on every applicator's outcome, and a failure there is explained by the
 * generic issue.
 */
export interface NodePlan {
  /** `true` (or `{}`): accepts everything. */
  readonly acceptsAll: boolean;
  /** `false`: accepts nothing. */
  readonly rejectsAll: boolean;
  /** The node constrains nothing but the type (`{ type: "string" }`, with annotations): the walk takes a short cut. */
  readonly typeOnly: boolean;
  /** The targets of `$ref` and its kin; `undefined` for a reference that resolves to nothing. */
  readonly references: readonly unknown[];
  readonly types: readonly unknown[] | undefined;
  readonly typeTest: ((value: unknown) => boolean) | undefined;
  /** `must be string`, `must be either string or null`: written once, reported often. */
  readonly typeMessage: string;
  readonly hasConst: boolean;
  readonly constValue: unknown;
  /** `enum` values, and the set of their JSON keys for a constant-time look-up. */
  readonly enumValues: readonly unknown[] | undefined;
  /** Whether a value is one of the `enum` values, by JSON equality, in constant time. */
  readonly enumHas: ((value: unknown) => boolean) | undefined;
  /** `must be one of "fast", "exact"`: written once. */
  readonly enumMessage: string;
  readonly refinements: ReadonlyArray<(value: unknown) => boolean>;
  readonly object: ObjectPlan | undefined;
  readonly array: ArrayPlan | undefined;
  readonly string: StringPlan | undefined;
  readonly number: NumberPlan | undefined;
  readonly applicators: ApplicatorPlan | undefined;
}

/** A declared property: its name, its subschema, whether it is required, and its plan once a walk needed it. */
export interface PropertyPlan {
  readonly name: string;
  readonly schema: unknown;
  readonly required: boolean;
  plan: NodePlan | undefined;
}

/** The keywords of a node about objects. */
export interface ObjectPlan {
  /** Declared properties in schema order. */
  readonly properties: readonly PropertyPlan[];
  readonly declared: ReadonlySet<string>;
  /** Required names that `properties` does not declare. */
  readonly undeclaredRequired: readonly string[];
  readonly patterns: ReadonlyArray<readonly [PatternTester, unknown]>;
  /** `additionalProperties`: a subschema, `false`, or `undefined` when absent (or `true`). */
  readonly additional: unknown;
  readonly hasAdditional: boolean;
  readonly propertyNames: unknown;
  readonly hasPropertyNames: boolean;
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
  /** `dependentRequired`, `dependentSchemas`, `dependencies`: trigger and names or subschema. */
  readonly dependencies: ReadonlyArray<readonly [string, unknown]>;
}

/** The keywords of a node about arrays. */
export interface ArrayPlan {
  readonly prefix: readonly unknown[];
  /** The subschema of items past the prefix, or `undefined` when they are not constrained. */
  readonly rest: unknown;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly contains: unknown;
  readonly hasContains: boolean;
  readonly minContains: number;
  readonly maxContains: number | undefined;
  readonly uniqueItems: boolean;
}

/** The keywords of a node about strings. */
export interface StringPlan {
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly pattern: string | undefined;
  readonly tester: PatternTester | undefined;
  readonly format: string | undefined;
}

/** The keywords of a node about numbers. */
export interface NumberPlan {
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  readonly multipleOf: number | undefined;
}

/** `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. */
export interface ApplicatorPlan {
  readonly allOf: readonly unknown[];
  readonly anyOf: readonly unknown[];
  readonly oneOf: readonly unknown[];
  readonly not: unknown;
  readonly hasNot: boolean;
  readonly if: unknown;
  readonly hasIf: boolean;
  readonly then: unknown;
  readonly else: unknown;
}

const ACCEPTS_ALL = plan({ acceptsAll: true });
const REJECTS_ALL = plan({ rejectsAll: true });

/** The plans of one schema document's nodes, built on first use and kept. */
export class PlanBook {
  readonly #plans = new Map<object, NodePlan>();
  readonly #lists = new WeakMap<readonly unknown[], readonly NodePlan[]>();
  readonly #references: SchemaReferences;
  readonly #patternTester: (pattern: string) => PatternTester;

  constructor(references: SchemaReferences, patternTester: (pattern: string) => PatternTester) {
    this.#references = references;
    this.#patternTester = patternTester;
  }

  /** The subschema a `$ref` of this document names (for shape descriptions). */
  readonly #resolve = (ref: string): unknown => this.#references.resolve(ref);

  /** The plans of a list of schema nodes (a union's branches), built once per list and kept. */
  list(schemas: readonly unknown[]): readonly NodePlan[] {
    let found = this.#lists.get(schemas);
    if (found === undefined) {
      found = schemas.map((schema) => this.of(schema));
      this.#lists.set(schemas, found);
    }
    return found;
  }

  /** The plan of a schema node (any value: `true`, `false`, an object; anything else accepts all). */
  of(schema: unknown): NodePlan {
    if (schema === false) return REJECTS_ALL;
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return ACCEPTS_ALL;
    let found = this.#plans.get(schema);
    if (found === undefined) {
      found = this.#build(schema as Schema);
      this.#plans.set(schema, found);
    }
    return found;
  }

  #build(schema: Schema): NodePlan {
    const keys = Object.keys(schema);
    if (keys.length === 0 && !Object.hasOwn(schema, "~refine")) return ACCEPTS_ALL;
    const unionTypes = unionOfTypes(schema, keys);
    // A union of bare types (`Type.Union([Type.String(), Type.Integer()])`) is a list of types, read the same way.
    if (unionTypes !== undefined) return plan({ types: unionTypes, typeTest: typeTest(unionTypes), typeMessage: `must be ${describeTypes(unionTypes)}`, typeOnly: true });
    const unionValues = unionOfConstants(schema, keys);
    // A union of constants (`Type.Union([Type.Literal("a"), Type.Literal("b")])`) is an enum, read the same way.
    if (unionValues !== undefined) return plan({ enumValues: unionValues, enumHas: jsonMembership(unionValues), enumMessage: describeAllowed(unionValues) });
    const references = REFERENCE_KEYWORDS.filter((keyword) => typeof schema[keyword] === "string").map((keyword) => this.#references.resolve(schema[keyword] as string));
    const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
    const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
    const refinements = Array.isArray(schema["~refine"])
      ? (schema["~refine"] as unknown[]).flatMap((refinement) =>
          typeof refinement === "object" && refinement !== null && typeof (refinement as { check?: unknown }).check === "function"
            ? [(value: unknown) => (refinement as { check(value: unknown): boolean }).check(value)]
            : [],
        )
      : [];
    const built = plan({
      references,
      types,
      typeTest: types === undefined ? undefined : typeTest(types),
      // The whole expected shape where it says more than the type: `must be string (format date-time)`.
      typeMessage: types === undefined ? "" : `must be ${describeShape(schema, this.#resolve) ?? describeTypes(types)}`,
      hasConst: Object.hasOwn(schema, "const"),
      constValue: schema.const,
      enumValues,
      enumHas: enumValues === undefined ? undefined : jsonMembership(enumValues),
      enumMessage: enumValues === undefined ? "" : describeAllowed(enumValues),
      refinements,
      object: this.#objectPlan(schema),
      array: arrayPlan(schema),
      string: this.#stringPlan(schema),
      number: numberPlan(schema),
      applicators: applicatorPlan(schema),
    });
    const typeOnly =
      built.typeTest !== undefined &&
      references.length === 0 &&
      !built.hasConst &&
      enumValues === undefined &&
      refinements.length === 0 &&
      built.object === undefined &&
      built.array === undefined &&
      built.string === undefined &&
      built.number === undefined &&
      built.applicators === undefined;
    return typeOnly ? { ...built, typeOnly } : built;
  }

  #objectPlan(schema: Schema): ObjectPlan | undefined {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    const patternProperties = isObject(schema.patternProperties) ? schema.patternProperties : {};
    const dependencies: Array<readonly [string, unknown]> = [];
    for (const keyword of ["dependentRequired", "dependentSchemas", "dependencies"]) {
      const map = schema[keyword];
      if (isObject(map)) for (const trigger of Object.keys(map)) dependencies.push([trigger, map[trigger]]);
    }
    const hasAdditional = Object.hasOwn(schema, "additionalProperties") && schema.additionalProperties !== true;
    const object: ObjectPlan = {
      properties: Object.keys(properties).map((name): PropertyPlan => ({ name, schema: properties[name], required: required.includes(name), plan: undefined })),
      declared: new Set(Object.keys(properties)),
      undeclaredRequired: required.filter((name) => !Object.hasOwn(properties, name)),
      // A `Type.Record` with string keys matches every key, as its compiled check does (see records.ts).
      patterns: Object.keys(patternProperties).map((pattern) => [isStringKeyRecord(schema) ? EVERY_KEY : this.#patternTester(pattern), patternProperties[pattern]] as const),
      additional: schema.additionalProperties,
      hasAdditional,
      propertyNames: schema.propertyNames,
      hasPropertyNames: Object.hasOwn(schema, "propertyNames"),
      minProperties: numberOrUndefined(schema.minProperties),
      maxProperties: numberOrUndefined(schema.maxProperties),
      dependencies,
    };
    const empty =
      object.properties.length === 0 &&
      required.length === 0 &&
      object.patterns.length === 0 &&
      !hasAdditional &&
      !object.hasPropertyNames &&
      object.minProperties === undefined &&
      object.maxProperties === undefined &&
      dependencies.length === 0;
    return empty ? undefined : object;
  }

  #stringPlan(schema: Schema): StringPlan | undefined {
    const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
    const string: StringPlan = {
      minLength: numberOrUndefined(schema.minLength),
      maxLength: numberOrUndefined(schema.maxLength),
      pattern,
      tester: pattern === undefined ? undefined : this.#patternTester(pattern),
      format: typeof schema.format === "string" && Format.Has(schema.format) ? schema.format : undefined,
    };
    return string.minLength === undefined && string.maxLength === undefined && pattern === undefined && string.format === undefined ? undefined : string;
  }
}

/** The types of an `anyOf` whose every branch constrains only its type, in a node with nothing else; else `undefined`. */
function unionOfTypes(schema: Schema, keys: readonly string[]): readonly unknown[] | undefined {
  if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0 || Object.hasOwn(schema, "~refine")) return undefined;
  if (!keys.every((key) => key === "anyOf" || ANNOTATION_KEYWORDS.has(key))) return undefined;
  const types: unknown[] = [];
  for (const branch of schema.anyOf as unknown[]) {
    if (!isObject(branch) || typeof branch.type !== "string" || Object.hasOwn(branch, "~refine")) return undefined;
    if (!Object.keys(branch).every((key) => key === "type" || ANNOTATION_KEYWORDS.has(key))) return undefined;
    types.push(branch.type);
  }
  return types;
}

/**
 * The values of an `anyOf` whose every branch is a `const` (with at most a `type` the value has,
 * and annotations), in a node with nothing else; else `undefined`.
 */
function unionOfConstants(schema: Schema, keys: readonly string[]): readonly unknown[] | undefined {
  if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0 || Object.hasOwn(schema, "~refine")) return undefined;
  if (!keys.every((key) => key === "anyOf" || ANNOTATION_KEYWORDS.has(key))) return undefined;
  const values: unknown[] = [];
  for (const branch of schema.anyOf as unknown[]) {
    if (!isObject(branch) || !Object.hasOwn(branch, "const") || Object.hasOwn(branch, "~refine")) return undefined;
    if (!Object.keys(branch).every((key) => key === "const" || key === "type" || ANNOTATION_KEYWORDS.has(key))) return undefined;
    if (branch.type !== undefined && !typeTest([branch.type])(branch.const)) return undefined;
    values.push(branch.const);
  }
  return values;
}

function arrayPlan(schema: Schema): ArrayPlan | undefined {
  // Draft 2020-12 `prefixItems` + `items`, or draft-07 tuple `items` + `additionalItems`.
  const tuple = Array.isArray(schema.items);
  const prefix: readonly unknown[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : tuple ? (schema.items as unknown[]) : [];
  const rest = tuple ? schema.additionalItems : schema.items;
  const array: ArrayPlan = {
    prefix,
    rest: rest === true ? undefined : rest,
    minItems: numberOrUndefined(schema.minItems),
    maxItems: numberOrUndefined(schema.maxItems),
    contains: schema.contains,
    hasContains: Object.hasOwn(schema, "contains"),
    minContains: typeof schema.minContains === "number" ? schema.minContains : 1,
    maxContains: numberOrUndefined(schema.maxContains),
    uniqueItems: schema.uniqueItems === true,
  };
  const empty = prefix.length === 0 && array.rest === undefined && array.minItems === undefined && array.maxItems === undefined && !array.hasContains && !array.uniqueItems;
  return empty ? undefined : array;
}

function numberPlan(schema: Schema): NumberPlan | undefined {
  const number: NumberPlan = {
    minimum: numberOrUndefined(schema.minimum),
    maximum: numberOrUndefined(schema.maximum),
    exclusiveMinimum: numberOrUndefined(schema.exclusiveMinimum),
    exclusiveMaximum: numberOrUndefined(schema.exclusiveMaximum),
    multipleOf: numberOrUndefined(schema.multipleOf),
  };
  return Object.values(number).every((bound) => bound === undefined) ? undefined : number;
}

function applicatorPlan(schema: Schema): ApplicatorPlan | undefined {
  const applicators: ApplicatorPlan = {
    allOf: Array.isArray(schema.allOf) ? schema.allOf : [],
    anyOf: Array.isArray(schema.anyOf) ? schema.anyOf : [],
    oneOf: Array.isArray(schema.oneOf) ? schema.oneOf : [],
    not: schema.not,
    hasNot: Object.hasOwn(schema, "not"),
    if: schema.if,
    hasIf: Object.hasOwn(schema, "if"),
    then: schema.then,
    else: schema.else,
  };
  const empty = applicators.allOf.length === 0 && applicators.anyOf.length === 0 && applicators.oneOf.length === 0 && !applicators.hasNot && !applicators.hasIf;
  return empty ? undefined : applicators;
}

function plan(fields: Partial<NodePlan>): NodePlan {
  return {
    acceptsAll: false,
    rejectsAll: false,
    typeOnly: false,
    references: [],
    types: undefined,
    typeTest: undefined,
    typeMessage: "",
    hasConst: false,
    constValue: undefined,
    enumValues: undefined,
    enumHas: undefined,
    enumMessage: "",
    refinements: [],
    object: undefined,
    array: undefined,
    string: undefined,
    number: undefined,
    applicators: undefined,
    ...fields,
  };
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The key tester of a `Type.Record` with string keys: every key is one of its keys. */
const EVERY_KEY: PatternTester = { test: () => true };
