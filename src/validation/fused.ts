import { Format } from "typebox/format";
import { jsonMembership } from "../schema/equality.js";
import { typeTest } from "../schema/json-types.js";
import { ANNOTATION_KEYWORDS } from "../schema/keywords.js";
import { compilePattern } from "../schema/patterns.js";
import { FUSED_HELPERS, type FusedState } from "./fused-runtime.js";
import { ANY_KEY_PATTERN, isStringKeyRecord } from "../schema/records.js";

/**
 * The fused copy-and-check: one function per schema, generated, that copies a tool call's
 * arguments and checks them in a single pass, where the plain path copies first and checks after.
 *
 * The copy is the plain copy's, step for step: the same reads in the same order (each property
 * once), the same cycle and depth rules, the same refusals, through the plain copy's own functions
 * (`copy.ts`) wherever the generated code does not copy inline. The check covers the keywords it
 * knows (typed objects, arrays and scalars, `properties`, `required`, `additionalProperties`,
 * bounds, lengths, patterns, formats, `enum`, `const`, `multipleOf`, unions of bare types);
 * anything else is copied unchecked and marked so, and the caller then runs the full compiled
 * check on the copy. Its verdict is the compiled validator's on every value: a property test holds
 * it to that.
 */

/**
 * A fused copy-and-check: the private copy of `value`, its verdict in `state`; `FUSED_HELPERS.notPlain`
 * itself when `value` is not plain data (its prototype neither `Object.prototype` nor `null`).
 * `value` must be a non-null object, as the caller finds first: the root's own cycle and depth
 * checks are left out.
 */
export type FusedCopy = (value: object, state: FusedState) => Record<string, unknown>;

/** The source of a fused function: a function body of `H` (the helpers) and `X` (its externals, by position). */
export interface FusedSource {
  readonly body: string;
  /** Pattern testers, format checks and membership tests the body refers to as `X[i]`, in order. */
  readonly externals: readonly unknown[];
}

type Schema = Readonly<Record<string, unknown>>;
/** What a value of each JSON type must satisfy to match a scalar schema: an expression of `v`. */
type ScalarConditions = Readonly<Record<"string" | "number" | "boolean" | "null", string>>;
type Kind = "any" | "object" | "array" | "scalar" | "opaque";

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const OBJECT_KEYWORDS = new Set(["type", "properties", "patternProperties", "required", "additionalProperties", "minProperties", "maxProperties"]);
const ARRAY_KEYWORDS = new Set(["type", "items", "minItems", "maxItems"]);
const SCALAR_KEYWORDS = new Set([
  "type",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "enum",
  "const",
]);
/** Keywords that hold subschemas for `$ref`s elsewhere, and change nothing where they stand. */
const CONTAINER_KEYWORDS = new Set(["$defs", "definitions"]);

/**
 * The source of a schema's fused copy-and-check, or `undefined` when its root is not a typed
 * object schema the generated code can check (such a schema keeps the plain path).
 */
export function fusedSource(schema: object): FusedSource | undefined {
  const generator = new Generator();
  if (generator.kindOf(schema) !== "object") return undefined;
  const root = generator.objectFunction(schema as Schema);
  const body = [
    // A symbol no object has. Loading it before reading an object's prototype lets the optimizing
    // compiler read the prototype from the layouts that load saw (one or a few per schema), where
    // `Object.getPrototypeOf` on an object of unknown layout calls into the engine's runtime:
    // about 120 instructions, 7% of a small dispatch.
    `const OBJECT_PROTOTYPE = Object.prototype;`,
    `const PROBE = Symbol("fused-probe");`,
    // The values the pass may still read, counted down as the plain copy counts them: each object
    // and array entered (in H.enterObject), each of its keys and items.
    `const COUNT = H.copyCount;`,
    ...generator.functions,
    `return function fused(value, state) {`,
    // The arguments must be plain data: anything else (or a proxy whose traps throw) is not.
    `  let prototype;`,
    `  try { void value[PROBE]; prototype = Object.getPrototypeOf(value); } catch { return H.notPlain; }`,
    `  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) return H.notPlain;`,
    // The count of the values the pass reads, as the plain copy counts them (see `MAX_FAST_VALUES`),
    // given back at the end to a copy this one runs inside.
    `  const outer = COUNT.valuesLeft;`,
    `  COUNT.valuesLeft = H.maxFastValues;`,
    `  try { return ${root}(value, 0, undefined, state); }`,
    // Data nested past the fast copy, or holding more values than it reads, goes to structuredClone
    // whole, read again: what the pass found no longer counts, and the full check decides on the clone.
    `  catch (error) { const copy = H.recoverFastCopy(error, value); state.invalid = false; state.unchecked = true; return copy; }`,
    `  finally { COUNT.valuesLeft = outer; }`,
    `};`,
  ].join("\n");
  return { body, externals: generator.externals };
}

/** The fused function of a source (this generates code: only where the runtime allows it). */
export function fusedFromSource(source: FusedSource): FusedCopy {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: one generated function per schema.
  return new Function("H", "X", source.body)(FUSED_HELPERS, source.externals) as FusedCopy;
}

/** The most allowed values written as comparisons rather than a Set lookup (see `#inlineMembership`). */
const MAX_INLINE_COMPARISONS = 8;

class Generator {
  readonly functions: string[] = [];
  readonly externals: unknown[] = [];
  readonly #names = new Map<object, string>();
  readonly #conditions = new Map<object, ScalarConditions>();

  /** What the generated code can do with values at `schema`. */
  kindOf(schema: unknown): Kind {
    if (schema === true) return "any";
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "opaque";
    // A refinement (hidden, TypeBox's `~refine`) checks what no keyword says.
    if (Object.hasOwn(schema, "~refine")) return "opaque";
    const node = schema as Schema;
    const keys = Object.keys(node).filter((key) => !ANNOTATION_KEYWORDS.has(key) && !CONTAINER_KEYWORDS.has(key));
    if (keys.length === 0) return "any";
    const type = node.type;
    if (type === "object" && keys.every((key) => OBJECT_KEYWORDS.has(key)) && this.#objectKeywordsReadable(node)) return "object";
    if (type === "array" && keys.every((key) => ARRAY_KEYWORDS.has(key)) && !Array.isArray(node.items)) return "array";
    if (scalarTypesOf(node) !== "unreadable") return "scalar";
    return "opaque";
  }

  #objectKeywordsReadable(node: Schema): boolean {
    const { properties, required, additionalProperties } = node;
    if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) return false;
    if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string"))) return false;
    if (node.patternProperties !== undefined && propertyPattern(node) === undefined) return false;
    return additionalProperties === undefined || typeof additionalProperties === "boolean" || (typeof additionalProperties === "object" && additionalProperties !== null);
  }

  #external(value: unknown): string {
    this.externals.push(value);
    return `X[${this.externals.length - 1}]`;
  }

  #named(schema: object, prefix: string, build: (name: string) => string): string {
    let name = this.#names.get(schema);
    if (name === undefined) {
      name = `${prefix}${this.#names.size}`;
      this.#names.set(schema, name);
      this.functions.push(build(name));
    }
    return name;
  }

  /** A function `(value, depth, parent, state)` copying and checking an object value at a typed object schema. */
  objectFunction(schema: Schema): string {
    return this.#named(schema, "o", (name) => {
      const properties = (schema.properties ?? {}) as Schema;
      const required = new Set((schema.required ?? []) as string[]);
      const names = Object.keys(properties);
      const pattern = propertyPattern(schema);
      const lines: string[] = [];
      lines.push(`function ${name}(value, depth, parent, state) {`);
      // The root (no parent) is the arguments object, whose prototype `fused` has checked.
      lines.push(`  if (parent !== undefined) {`, ...enterLines("object").map((line) => `  ${line}`));
      lines.push(
        `    void value[PROBE];`,
        `    const prototype = Object.getPrototypeOf(value);`,
        `    if (prototype !== OBJECT_PROTOTYPE && prototype !== null) { state.unchecked = true; return H.cloneInPlace(value); }`,
        `  }`,
      );
      lines.push(`  const keys = Object.keys(value);`, `  if ((COUNT.valuesLeft -= keys.length) < 0) throw H.valuesRunOut();`, `  let link;`);
      lines.push(...this.#shapeLines(schema, names, required, pattern));
      lines.push(`  const copy = {};`);
      const seen = names.map((property, index) => (required.has(property) ? `seen${index}` : undefined));
      for (const flag of seen) if (flag !== undefined) lines.push(`  let ${flag} = false;`);
      // Each property is read once, where its key is known: a declared one by its literal name.
      lines.push(`  for (let i = 0; i < keys.length; i++) {`, `    const key = keys[i];`, `    let item;`, `    switch (key) {`);
      names.forEach((property, index) => {
        lines.push(`      case ${JSON.stringify(property)}: {`, `        const v = ${propertyRead(property)};`);
        if (seen[index] !== undefined) lines.push(`        ${seen[index]} = true;`);
        lines.push(...this.#itemLines(properties[property], "key", required.has(property), "        "));
        // A declared property its pattern matches too must match both schemas: the full check decides.
        if (pattern?.tester.test(property)) lines.push(`        state.unchecked = true;`);
        lines.push(`        ${propertyStore(property)}`, `        break;`, `      }`);
      });
      lines.push(`      default: {`, `        const v = value[key];`, ...this.#undeclaredLines(schema, "        "));
      lines.push(`        if (key === "__proto__") H.defineOwn(copy, key, item); else copy[key] = item;`, `      }`);
      lines.push(`    }`, `  }`);
      seen.forEach((flag) => {
        if (flag !== undefined) lines.push(`  if (!${flag}) state.invalid = true;`);
      });
      lines.push(...objectEndLines(schema, properties, required, "  "));
      lines.push(`  return copy;`, `}`);
      return lines.join("\n");
    });
  }

  /**
   * The object's usual shapes, copied without a loop: when its keys are exactly its declared
   * properties in their declared order (all of them, or only the required ones), each is read and
   * checked by its literal name, and the copy starts as an object literal with those keys (its
   * layout made once, where a store per new key changes it at each step). Any other keys take the
   * loop. No shape for an object declaring `__proto__`, which a literal would take for its prototype.
   */
  #shapeLines(schema: Schema, names: readonly string[], required: ReadonlySet<string>, pattern: ReturnType<typeof propertyPattern>): string[] {
    if (names.length === 0 || names.includes("__proto__")) return [];
    const properties = (schema.properties ?? {}) as Schema;
    const shapes = [names, names.filter((property) => required.has(property))];
    if (shapes[1]!.length === names.length) shapes.pop();
    const lines: string[] = [];
    for (const shape of shapes) {
      const sameKeys = [`keys.length === ${shape.length}`, ...shape.map((property, index) => `keys[${index}] === ${JSON.stringify(property)}`)].join(" && ");
      lines.push(`  if (${sameKeys}) {`, `    const copy = { ${shape.map((property) => `${JSON.stringify(property)}: undefined`).join(", ")} };`);
      for (const property of shape) {
        const literal = JSON.stringify(property);
        lines.push(`    {`, `      const v = value[${literal}];`, `      let item;`);
        lines.push(...this.#itemLines(properties[property], literal, required.has(property), "      "));
        if (pattern?.tester.test(property)) lines.push(`      state.unchecked = true;`);
        lines.push(`      copy[${literal}] = item;`, `    }`);
      }
      lines.push(...objectEndLines(schema, properties, required, "    "), `    return copy;`, `  }`);
    }
    return lines;
  }

  /** A function `(value, depth, parent, state)` copying and checking an array value at a typed array schema. */
  arrayFunction(schema: Schema): string {
    return this.#named(schema, "a", (name) => {
      const lines: string[] = [];
      lines.push(`function ${name}(value, depth, parent, state) {`);
      lines.push(...enterLines("array"));
      lines.push(`  const length = value.length;`);
      // A longer array (or a proxy claiming one) is the plain copy's business: structuredClone.
      lines.push(`  if (!(length <= H.maxFastArrayLength)) { state.unchecked = true; return H.cloneInPlace(value); }`);
      lines.push(`  if ((COUNT.valuesLeft -= length) < 0) throw H.valuesRunOut();`);
      if (typeof schema.minItems === "number") lines.push(`  if (length < ${schema.minItems}) state.invalid = true;`);
      if (typeof schema.maxItems === "number") lines.push(`  if (length > ${schema.maxItems}) state.invalid = true;`);
      lines.push(`  const copy = [];`, `  let link;`, `  for (let index = 0; index < length; index++) {`);
      lines.push(`    if (!(index in value)) throw H.holeAt(index);`, `    const v = value[index];`, `    let item;`);
      lines.push(...this.#itemLines(schema.items ?? true, "index", true, "    "));
      lines.push(`    copy.push(item);`, `  }`, `  return copy;`, `}`);
      return lines.join("\n");
    });
  }

  /** A function `(v)` telling whether a string, number, boolean or null matches a scalar schema. */
  scalarFunction(node: Schema): string {
    return this.#named(node, "s", (name) => {
      const conditions = this.#scalarConditions(node);
      return [
        `function ${name}(v) {`,
        `  let n;`,
        `  switch (typeof v) {`,
        `    case "string": return ${conditions.string};`,
        `    case "number": return ${conditions.number};`,
        `    case "boolean": return ${conditions.boolean};`,
        `    default: return ${conditions.null};`,
        `  }`,
        `}`,
      ].join("\n");
    });
  }

  /**
   * A few primitive allowed values (a union of literals) as comparisons, `v === X[i] || …`: a Set
   * lookup through a function costs 15 to 20 ns, a comparison about one. `===` decides as JSON
   * equality on primitives (0 equals -0, NaN equals nothing, as the Set's membership has it).
   * `undefined` for an object or array value, or more than {@link MAX_INLINE_COMPARISONS} values.
   */
  #inlineMembership(values: readonly unknown[]): string | undefined {
    if (values.length === 0 || values.length > MAX_INLINE_COMPARISONS) return undefined;
    if (values.some((value) => typeof value === "object" && value !== null)) return undefined;
    return `(${values.map((value) => `v === ${this.#external(value)}`).join(" || ")})`;
  }

  /**
   * What a value of each JSON type must satisfy to match a scalar schema, as expressions of `v`
   * (a string's may set `n`, declared by the code around it); `"false"` for a type it does not allow.
   * Made once per schema, so that its externals are added once.
   */
  #scalarConditions(node: Schema): ScalarConditions {
    let conditions = this.#conditions.get(node);
    if (conditions !== undefined) return conditions;
    const schema = scalarView(node);
    const types = scalarTypesOf(schema) as readonly string[] | undefined;
    const allows = (type: string): boolean => types === undefined || types.includes(type);
    const shared: string[] = [];
    if (Array.isArray(schema.enum)) shared.push(this.#inlineMembership(schema.enum) ?? `${this.#external(jsonMembership(schema.enum))}(v)`);
    if (Object.hasOwn(schema, "const")) {
      shared.push(typeof schema.const === "object" && schema.const !== null ? `${this.#external(jsonMembership([schema.const]))}(v)` : `v === ${this.#external(schema.const)}`);
    }
    const strings = [...shared];
    if (typeof schema.minLength === "number" || typeof schema.maxLength === "number") {
      // A string of L UTF-16 units has between L/2 and L code points: most lengths decide without counting them.
      const min = typeof schema.minLength === "number" ? schema.minLength : undefined;
      const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
      const certain = [max === undefined ? "" : `v.length <= ${max}`, min === undefined ? "" : `v.length >= ${2 * min}`].filter((test) => test !== "");
      const counted = ["(n = H.codePointCount(v), true)", min === undefined ? "" : `n >= ${min}`, max === undefined ? "" : `n <= ${max}`].filter((test) => test !== "");
      strings.unshift(`((${certain.join(" && ")}) || (${counted.join(" && ")}))`);
    }
    if (typeof schema.pattern === "string") {
      const compiled = compilePattern(schema.pattern);
      // A pattern with no safe tester is refused at register; here it would match nothing.
      strings.push(compiled.ok ? `${this.#external(compiled.tester)}.test(v)` : "false");
    }
    if (typeof schema.format === "string" && Format.Has(schema.format)) strings.push(`${this.#external(Format.Get(schema.format))}(v)`);
    const numbers = [...shared];
    if (types !== undefined) numbers.unshift(allows("number") ? "Number.isFinite(v)" : "Number.isInteger(v)");
    for (const [keyword, comparison] of [["minimum", ">="], ["maximum", "<="], ["exclusiveMinimum", ">"], ["exclusiveMaximum", "<"]] as const) {
      if (typeof schema[keyword] === "number") numbers.push(`v ${comparison} ${this.#external(schema[keyword])}`);
    }
    if (typeof schema.multipleOf === "number") numbers.push(`H.isMultipleOf(v, ${this.#external(schema.multipleOf)})`);
    const all = (parts: readonly string[]): string => (parts.length === 0 ? "true" : parts.join(" && "));
    conditions = {
      string: allows("string") ? all(strings) : "false",
      number: allows("number") || allows("integer") ? all(numbers) : "false",
      boolean: allows("boolean") ? all(shared) : "false",
      null: allows("null") ? all(["v === null", ...shared]) : "false",
    };
    this.#conditions.set(node, conditions);
    return conditions;
  }

  /**
   * The statements that copy and check a string, number or boolean `v` that a scalar schema
   * names the type of (`type: "string"`, say): checked inline, with no second test of its type.
   * Empty when the schema names no such type (an `enum` alone, `type: "null"`).
   */
  #typedScalarLines(node: Schema): string[] {
    const types = scalarTypesOf(scalarView(node));
    if (types === undefined || types === "unreadable") return [];
    const conditions = this.#scalarConditions(node);
    const lines: string[] = [];
    for (const type of ["string", "number", "boolean"] as const) {
      const named = type === "number" ? types.includes("number") || types.includes("integer") : types.includes(type);
      if (!named) continue;
      // Only a string's condition uses `n` (its length in code points).
      const check = conditions[type] === "true" ? "" : `${type === "string" ? " let n;" : ""} if (!(${conditions[type]})) state.invalid = true;`;
      lines.push(`${lines.length === 0 ? "" : "else "}if (typeof v === "${type}") { item = v;${check} }`);
    }
    return lines;
  }

  /**
   * The statements that copy and check `v`, the value at `segment` (`key` or `index`), against
   * `schema`, into `item`. `required`: whether an `undefined` here must be checked (an optional
   * property present as undefined counts as absent, as TypeBox reads it).
   */
  #itemLines(schema: unknown, segment: string, required: boolean, indent: string): string[] {
    const kind = this.kindOf(schema);
    const link = `(link ??= { original: value, copy, parent })`;
    const child = `depth + 1, ${segment}, ${link}`;
    // A typed child is copied by its own function, called directly (one call site per function, which the engine can inline).
    const typedCopy = (name: string): string => `try { item = ${name}(v, depth + 1, ${link}, state); } catch (error) { throw H.namingSegment(error, ${segment}); }`;
    const objectCopy = (() => {
      if (kind === "object") return typedCopy(this.objectFunction(schema as Schema));
      if (kind === "array") return typedCopy(this.arrayFunction(schema as Schema));
      const generic = `item = H.copyNested(v, ${child});`;
      if (kind === "any") return generic;
      if (kind === "scalar") return scalarTypesOf(schema as Schema) === undefined ? `state.unchecked = true; ${generic}` : `state.invalid = true; ${generic}`;
      return `state.unchecked = true; ${generic}`;
    })();
    const primitiveCheck = (() => {
      if (kind === "any") return "";
      if (kind === "opaque") return "state.unchecked = true;";
      if (kind === "scalar") return `if (!${this.scalarFunction(schema as Schema)}(v)) state.invalid = true;`;
      return "state.invalid = true;";
    })();
    // A string, a number or a boolean first: the usual values, which are their own copy.
    const typed = kind === "scalar" ? this.#typedScalarLines(schema as Schema) : [];
    const lines = [
      ...typed,
      `${typed.length === 0 ? "" : "else "}if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") { item = v; ${primitiveCheck} }`,
      `else if (v === null) { item = null; ${primitiveCheck} }`,
      `else if (typeof v === "object") { ${objectCopy} }`,
      `else {`,
      `  item = H.copyPrimitive(v);`,
    ];
    // undefined, a bigint: values TypeBox reads in ways the generated code does not repeat.
    if (primitiveCheck !== "") lines.push(required ? `  state.unchecked = true;` : `  if (v !== undefined) state.unchecked = true;`);
    lines.push(`}`);
    return lines.map((line) => indent + line);
  }

  /** The statements that copy and check a property `properties` does not declare: by its pattern's schema when it matches, else as an additional one. */
  #undeclaredLines(schema: Schema, indent: string): string[] {
    const pattern = propertyPattern(schema);
    const additional = this.#additionalLines(schema.additionalProperties, indent + "  ");
    if (pattern === undefined) return additional.map((line) => line.slice(2));
    // A `Type.Record` with string keys: every key is one of its keys (see `transformSchema`).
    if (pattern.everyKey) return this.#itemLines(pattern.schema, "key", true, indent);
    // A "^.*$" written by hand is a test for line terminators, written without the regular expression.
    const matches = pattern.source === "^.*$" ? "H.singleLine(key)" : `${this.#external(pattern.tester)}.test(key)`;
    return [
      `${indent}if (${matches}) {`,
      ...this.#itemLines(pattern.schema, "key", true, indent + "  "),
      `${indent}} else {`,
      ...additional,
      `${indent}}`,
    ];
  }

  #additionalLines(additional: unknown, indent: string): string[] {
    if (additional === false) {
      // Not a declared property: refused, and still copied, for the explanation.
      return [...this.#itemLines(true, "key", true, indent), `${indent}state.invalid = true;`];
    }
    // An additional property present as undefined is checked (TypeBox treats only declared optional ones as absent).
    return this.#itemLines(additional === undefined ? true : additional, "key", true, indent);
  }
}

/** The tester of a `Type.Record` with string keys, as the compiled check runs it: every key matches. */
const ANY_KEY = new RegExp(ANY_KEY_PATTERN, "u");

/**
 * The one pattern of an object schema's `patternProperties` and its schema, with the tester
 * TypeBox's own check uses for it (the native `RegExp`, `u` flag); `undefined` when there is no
 * such keyword, or it holds more than one pattern, or one that does not run natively (such
 * objects are not checked by the generated code). `everyKey`: a `Type.Record` with string keys,
 * whose pattern the compiled check reads as matching every key (see `transformSchema`).
 */
function propertyPattern(schema: Schema): { readonly source: string; readonly tester: RegExp; readonly schema: unknown; readonly everyKey: boolean } | undefined {
  const patterns = schema.patternProperties;
  if (typeof patterns !== "object" || patterns === null || Array.isArray(patterns)) return undefined;
  const entries = Object.entries(patterns);
  if (entries.length !== 1) return undefined;
  const [source, subschema] = entries[0]!;
  if (isStringKeyRecord(schema)) return { source: ANY_KEY_PATTERN, tester: ANY_KEY, schema: subschema, everyKey: true };
  const compiled = compilePattern(source);
  return compiled.ok && compiled.engine === "native" && compiled.tester instanceof RegExp ? { source, tester: compiled.tester, schema: subschema, everyKey: false } : undefined;
}

/**
 * The expression that reads the declared property `property` of `value`, once: by its literal
 * name (a fixed-shape load, where a load by a computed key is a generic one). `__proto__` is read
 * by `key` as any other name, to keep it plainly an own property's read.
 */
function propertyRead(property: string): string {
  return property === "__proto__" ? "value[key]" : `value[${JSON.stringify(property)}]`;
}

/**
 * The statement that stores `item` as the declared property `property` of the copy: a store by
 * the literal name (which the engine compiles to a fixed-shape store, where a store by a computed
 * key is a generic one), or an own data property for `__proto__`, which must never set a prototype.
 */
function propertyStore(property: string): string {
  const literal = JSON.stringify(property);
  return property === "__proto__" ? `H.defineOwn(copy, ${literal}, item);` : `copy[${literal}] = item;`;
}

/** The last checks of an object's copy: required properties it does not declare, and its number of keys. */
function objectEndLines(schema: Schema, properties: Schema, required: ReadonlySet<string>, indent: string): string[] {
  const lines: string[] = [];
  for (const property of required) {
    if (!Object.hasOwn(properties, property)) lines.push(`${indent}if (!Object.hasOwn(copy, ${JSON.stringify(property)})) state.invalid = true;`);
  }
  if (typeof schema.minProperties === "number") lines.push(`${indent}if (keys.length < ${schema.minProperties}) state.invalid = true;`);
  if (typeof schema.maxProperties === "number") lines.push(`${indent}if (keys.length > ${schema.maxProperties}) state.invalid = true;`);
  return lines;
}

/** The first lines of an object or array function: the plain copy's entry (cycle, depth), and a value of the other kind. */
function enterLines(kind: "object" | "array"): string[] {
  const otherKind = kind === "object" ? "Array.isArray(value)" : "!Array.isArray(value)";
  return [
    `  const ancestor = H.enterObject(value, depth, parent);`,
    // A cycle: the copy is its ancestor's, as the plain copy makes it; the full check decides.
    `  if (ancestor !== undefined) { state.unchecked = true; return ancestor; }`,
    `  if (${otherKind}) { state.invalid = true; return H.copyEntered(value, depth, parent); }`,
  ];
}

/**
 * The scalar types a scalar schema allows (its `type`, or the types of a union of bare types):
 * `undefined` when it names none (an `enum` or `const` alone, or a union of constants);
 * `"unreadable"` when it is not a scalar schema the generated code can check.
 */
function scalarTypesOf(schema: Schema): readonly string[] | undefined | "unreadable" {
  const keys = Object.keys(schema).filter((key) => !ANNOTATION_KEYWORDS.has(key) && !CONTAINER_KEYWORDS.has(key));
  if (keys.every((key) => SCALAR_KEYWORDS.has(key))) return scalarTypes(schema);
  if (unionOfConstants(schema, keys) !== undefined) return undefined;
  return unionOfScalarTypes(schema, keys) ?? "unreadable";
}

/**
 * A scalar schema as the generated code reads it: the node itself, or the simple schema a union
 * stands for (`{ type: [...] }` for a union of bare types, `{ enum: [...] }` for a union of constants).
 */
function scalarView(schema: Schema): Schema {
  const keys = Object.keys(schema).filter((key) => !ANNOTATION_KEYWORDS.has(key) && !CONTAINER_KEYWORDS.has(key));
  if (keys.every((key) => SCALAR_KEYWORDS.has(key))) return schema;
  const values = unionOfConstants(schema, keys);
  if (values !== undefined) return { enum: values };
  return { type: unionOfScalarTypes(schema, keys) };
}

/**
 * The values of an `anyOf` whose every branch is a `const` of a JSON primitive (with at most a
 * `type` that value has, and annotations): `Type.Union([Type.Literal("a"), Type.Literal("b")])`.
 */
function unionOfConstants(schema: Schema, keys: readonly string[]): readonly unknown[] | undefined {
  if (keys.length !== 1 || keys[0] !== "anyOf" || !Array.isArray(schema.anyOf) || schema.anyOf.length === 0) return undefined;
  const values: unknown[] = [];
  for (const branch of schema.anyOf as unknown[]) {
    if (typeof branch !== "object" || branch === null || Object.hasOwn(branch, "~refine") || !Object.hasOwn(branch, "const")) return undefined;
    const { const: value, type } = branch as Schema;
    if (typeof value === "object" && value !== null) return undefined;
    if (!Object.keys(branch).every((key) => key === "const" || key === "type" || ANNOTATION_KEYWORDS.has(key))) return undefined;
    if (type !== undefined && !typeTest([type])(value)) return undefined;
    values.push(value);
  }
  return values;
}

function scalarTypes(schema: Schema): readonly string[] | undefined | "unreadable" {
  const type = schema.type;
  if (type === undefined) return Array.isArray(schema.enum) || Object.hasOwn(schema, "const") ? undefined : "unreadable";
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((name) => typeof name === "string" && SCALAR_TYPES.has(name)) ? (types as string[]) : "unreadable";
}

/** The types of an `anyOf` of bare scalar types (`Type.Union([Type.String(), Type.Null()])`); else `undefined`. */
function unionOfScalarTypes(schema: Schema, keys: readonly string[]): readonly string[] | undefined {
  if (keys.length !== 1 || keys[0] !== "anyOf" || !Array.isArray(schema.anyOf) || schema.anyOf.length === 0) return undefined;
  const types: string[] = [];
  for (const branch of schema.anyOf as unknown[]) {
    if (typeof branch !== "object" || branch === null || Object.hasOwn(branch, "~refine")) return undefined;
    const branchKeys = Object.keys(branch).filter((key) => !ANNOTATION_KEYWORDS.has(key));
    const type = (branch as Schema).type;
    if (branchKeys.length !== 1 || typeof type !== "string" || !SCALAR_TYPES.has(type)) return undefined;
    types.push(type);
  }
  return types;
}
