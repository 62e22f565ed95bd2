import { MAX_INLINE_ENUM } from "../schema/keywords.js";
import { Compile, type Validator } from "typebox/compile";
import { MAX_SCHEMA_DEPTH, REFERENCE_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, subschemaKeywordsOf } from "../schema/keywords.js";
import { compilePattern } from "../schema/patterns.js";
import { appendSegment, refSegments } from "../schema/pointer.js";
import { walkSchema } from "../schema/walk.js";
import { namedDefinition } from "../schema/references.js";
import { ANY_KEY_PATTERN, isStringKeyRecord, RECORD_STRING_KEY } from "../schema/records.js";
import { defineOwn } from "../objects.js";
import { LinearPattern } from "./linear-pattern.js";
import {
  constRefinement,
  dependentRequiredRefinement,
  enumRefinement,
  multipleOfRefinement,
  type Refinement,
  UNIQUE_ITEMS_REFINEMENT,
} from "./refinements.js";

/**
 * The private copy of a schema that TypeBox compiles: the same schema, with the keywords that
 * TypeBox would decide wrongly or unsafely handed to checks of this library.
 *
 * - `pattern` that V8 cannot provably run in linear time becomes a {@link LinearPattern};
 * - `enum` with an object or array value, or with more than {@link MAX_INLINE_ENUM} values, and
 *   `const` with an object or array value, become refinements by JSON Schema equality (a Set
 *   lookup, which also keeps a 16k-value enum out of the generated code);
 * - `multipleOf` becomes exact decimal arithmetic;
 * - `minLength` beyond 2^29 becomes 2^29 (which no string reaches either): TypeBox doubles it in
 *   32-bit arithmetic, and from 2^30 on would accept every string;
 * - `uniqueItems: true` becomes JSON Schema equality by a Set of keys;
 * - `dependentRequired`, and the list entries of `dependencies`, look at own properties only;
 * - the subschema of `unevaluatedProperties` or `unevaluatedItems` runs as a validator of its own
 *   (a refinement): TypeBox checks it in its parent's evaluation context, so the properties or
 *   items it evaluates inside a value count as evaluated in the parent, and the parent's count
 *   inside the value (`{ unevaluatedProperties: { type: "object", properties: { b: {} } } }`
 *   would accept `{ "a": { "b": 1 }, "b": false }`). A subschema with references compiles beside
 *   the root's definitions they lead to (`#/$defs/…`, `#/definitions/…`), which mean the same
 *   there; one whose references lead anywhere else (the root, a property, an anchor, a resource
 *   of its own, `$dynamicRef`) is refused, as it cannot be checked apart from the rest. A
 *   definition whose subschema leads back to itself shares one validator, filled once compiled;
 * - `Type.Record` with string keys (TypeBox's `~kind: "Record"`, key pattern `^.*$`) matches
 *   every key: `.` matches no line terminator, so a key holding `\n`, `\r`, U+2028 or U+2029 would
 *   be no key of the record and its value never checked. A `^.*$` written by hand (no `~kind`)
 *   keeps JSON Schema's meaning.
 *
 * The input is never changed: nodes on the way to a change are copied (own keys, enumerable or
 * not, so TypeBox's `~kind` and `~optional` stay), and everything else is shared. A schema that
 * needs nothing is returned as is, so it compiles exactly as before. The result depends only on
 * the schema's content, and refinements are appended to `~refine` (after any of the user's) in a
 * fixed order, so the same schema always compiles to the same code with the same externals.
 */

/** Why the transform could not make a schema safe to run: each `pointer` names the offending keyword. */
export class UnsafeSchemaError extends Error {
  override readonly name = "UnsafeSchemaError";
  constructor(readonly problems: readonly { readonly pointer: string; readonly problem: string }[]) {
    super(problems.map(({ pointer, problem }) => `${pointer || "/"}: ${problem}`).join("; "));
  }
}

type Node = Record<string, unknown>;

/** More UTF-16 units than any JavaScript string holds, and a `minLength` TypeBox still doubles without overflow. */
const MAX_STRING_UNITS = 2 ** 29;

/**
 * The schema TypeBox should compile in place of `schema` (`schema` itself when nothing changes).
 * @throws UnsafeSchemaError when a `pattern` can run neither natively in linear time nor on the
 * linear-time engine, or the subschema of `unevaluatedProperties` or `unevaluatedItems` refers
 * where a validator of its own cannot follow
 */
export function transformSchema<T extends object>(schema: T): T {
  const problems: Problem[] = [];
  const result = transformNode(schema, "", 0, new Map(), problems, documentOf(schema));
  // A definition's problem is found by the root's walk and again by each isolated check that reaches it.
  const unique = new Map(problems.map((found) => [`${found.pointer}\u0000${found.problem}`, found]));
  if (unique.size > 0) throw new UnsafeSchemaError([...unique.values()]);
  return result as T;
}

type Problem = { pointer: string; problem: string };

/**
 * The subschemas of `unevaluatedProperties` and `unevaluatedItems` whose references a validator of
 * their own could not follow (see {@link transformSchema}), found without compiling anything: for
 * `register` to refuse such a schema up front rather than at its first call.
 */
export function isolationProblems(schema: object): Problem[] {
  const document = documentOf(schema);
  const problems: Problem[] = [];
  let isolated = 0;
  walkSchema(schema, (node, pointer) => {
    for (const keyword of ISOLATED_KEYWORDS) {
      const subschema = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
      if (!isSchemaObject(subschema)) continue;
      // Each compiles as a validator of its own, beside what it reaches: their number is bounded.
      if (++isolated > MAX_ISOLATED_SUBSCHEMAS) {
        if (isolated === MAX_ISOLATED_SUBSCHEMAS + 1) problems.push({ pointer: appendSegment(pointer, keyword), problem: `is one more than the ${MAX_ISOLATED_SUBSCHEMAS} unevaluatedProperties or unevaluatedItems subschemas a schema may hold` });
        continue;
      }
      const reached = reachedDefinitions(subschema, document);
      if (typeof reached === "string") problems.push({ pointer: appendSegment(pointer, keyword), problem: `cannot be checked apart from the rest of the schema: it ${reached}` });
    }
  });
  return problems;
}

/** The most `unevaluatedProperties`/`unevaluatedItems` subschemas one schema may hold: each compiles as a validator of its own. */
const MAX_ISOLATED_SUBSCHEMAS = 64;

/** What every subschema of one root schema shares while it is transformed. */
interface Document {
  readonly root: object;
  /**
   * The isolated form of each subschema (by identity), made once: a check that leads back to a
   * subschema being isolated takes the form in progress, whose validator is set once compiled.
   */
  readonly isolations: Map<object, Node>;
  /** Whether each subschema asked about holds a reference (memo: a subtree is walked once). */
  readonly referring: Map<unknown, boolean>;
  /** Whether a subschema below the root has an `$id` (found when first asked). */
  nestedResources?: boolean;
}

function documentOf(root: object): Document {
  return { root, isolations: new Map(), referring: new Map() };
}

/** The root's `$defs` or `definitions`, where the references of an isolated subschema may lead. */
function definitionsOf(document: Document, keyword: "$defs" | "definitions"): Node | undefined {
  const map = isSchemaObject(document.root) && Object.hasOwn(document.root, keyword) ? document.root[keyword] : undefined;
  return isSchemaObject(map) ? map : undefined;
}

/** Whether a subschema below the root has an `$id`: a resource of its own, inside which `#/…` means that resource. */
function hasNestedResources(document: Document): boolean {
  if (document.nestedResources === undefined) {
    let found = false;
    walkSchema(document.root, (node, pointer, depth) => {
      // A definition named by its own key (`Type.Cyclic`'s) is found by that name; any other `$id` below the root makes a resource of its own.
      if (depth > 0 && Object.hasOwn(node, "$id") && namedDefinition(pointer, node) === undefined) found = true;
    });
    document.nestedResources = found;
  }
  return document.nestedResources;
}

/** The definition anywhere in the document whose key and `$id` are `name` (how TypeBox's `$ref: "Node"` resolves). */
function definitionNamed(document: Document, name: string): Node | undefined {
  let found: Node | undefined;
  walkSchema(document.root, (node, pointer) => {
    if (found === undefined && namedDefinition(pointer, node) === name) found = node;
  });
  return found;
}

function isSchemaObject(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function transformNode(node: unknown, pointer: string, depth: number, done: Map<object, unknown>, problems: Problem[], document: Document): unknown {
  if (!isSchemaObject(node) || depth > MAX_SCHEMA_DEPTH) return node;
  const known = done.get(node);
  if (known !== undefined) return known;
  // A cycle back to a node in progress keeps the original there.
  done.set(node, node);
  const changes = new Map<string, unknown>();
  // A leaf (most subschemas) has no subschema to transform.
  const present = subschemaKeywordsOf(node);
  if (present.length > 0) {
    for (const keyword of ISOLATED_KEYWORDS) {
      const subschema = present.includes(keyword) ? node[keyword] : undefined;
      if (isSchemaObject(subschema) && Object.keys(subschema).length > 0) {
        changes.set(keyword, isolated(subschema, keyword, appendSegment(pointer, keyword), problems, document));
      }
    }
    for (const keyword of SUBSCHEMA_KEYWORDS) {
      if (!present.includes(keyword) || !isSchemaObject(node[keyword]) || changes.has(keyword)) continue;
      const child = transformNode(node[keyword], appendSegment(pointer, keyword), depth + 1, done, problems, document);
      if (child !== node[keyword]) changes.set(keyword, child);
    }
    for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
      const list = present.includes(keyword) ? node[keyword] : undefined;
      if (!Array.isArray(list)) continue;
      const children = list.map((item, index) => transformNode(item, appendSegment(appendSegment(pointer, keyword), index), depth + 1, done, problems, document));
      if (children.some((child, index) => child !== list[index])) changes.set(keyword, children);
    }
    for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
      const map = present.includes(keyword) ? node[keyword] : undefined;
      if (!isSchemaObject(map)) continue;
      let copy: Node | undefined;
      for (const key of Object.keys(map)) {
        const child = transformNode(map[key], appendSegment(appendSegment(pointer, keyword), key), depth + 1, done, problems, document);
        if (child === map[key]) continue;
        copy ??= copyObject(map);
        // A property may be called `__proto__`: define it, never assign it.
        defineOwn(copy, key, child);
      }
      if (copy !== undefined) changes.set(keyword, copy);
    }
  }
  const reordered = referencesLast((changes.get("properties") ?? node.properties) as unknown, document);
  if (reordered !== undefined) changes.set("properties", reordered);
  if (isStringKeyRecord(node)) {
    // The one key pattern, renamed: its schema (transformed or not) stays.
    const patterns = (changes.get("patternProperties") ?? node.patternProperties) as Node;
    const renamed = {};
    defineOwn(renamed, ANY_KEY_PATTERN, patterns[RECORD_STRING_KEY]);
    changes.set("patternProperties", renamed);
  }
  const refinements = ownRefinements(node, pointer, changes, problems);
  if (changes.size === 0 && refinements.length === 0) return node;
  const copy = copyObject(node);
  for (const [keyword, value] of changes) {
    if (value === undefined) delete copy[keyword];
    else copy[keyword] = value;
  }
  if (refinements.length > 0) {
    const existing = Object.hasOwn(node, "~refine") && Array.isArray(node["~refine"]) ? (node["~refine"] as Refinement[]) : [];
    const enumerable = Object.getOwnPropertyDescriptor(node, "~refine")?.enumerable ?? false;
    Object.defineProperty(copy, "~refine", { value: [...existing, ...refinements], enumerable, writable: true, configurable: true });
  }
  done.set(node, copy);
  return copy;
}

const ISOLATED_KEYWORDS = ["unevaluatedProperties", "unevaluatedItems"] as const;

/**
 * `properties` with the ones whose schema holds a reference last, each group in its order;
 * `undefined` when they already come last. TypeBox checks properties in their order and stops at
 * the first failure: a branch of a union told apart by a `const` (`{ left, right, op: "add" }`)
 * then fails at its tag on another branch's value, rather than after checking `left` and `right`
 * all the way down, which made a nested value's check double with each level. The order changes
 * what is checked first, never the verdict.
 */
function referencesLast(properties: unknown, document: Document): Node | undefined {
  // A document without references (most) has nothing to move.
  if (!isSchemaObject(properties) || !holdsReference(document.root, document)) return undefined;
  const names = Object.keys(properties);
  const referring = names.filter((name) => holdsReference(properties[name], document));
  if (referring.every((name, index) => names[names.length - referring.length + index] === name)) return undefined;
  const reordered: Node = {};
  for (const name of [...names.filter((name) => !referring.includes(name)), ...referring]) defineOwn(reordered, name, properties[name]);
  return reordered;
}

/** Whether a subschema holds a reference anywhere. */
function holdsReference(schema: unknown, document: Document): boolean {
  let found = document.referring.get(schema);
  if (found === undefined) {
    found = false;
    walkSchema(schema, (node) => {
      if (!found) found = REFERENCE_KEYWORDS.some((keyword) => typeof node[keyword] === "string");
    });
    document.referring.set(schema, found);
  }
  return found;
}

/**
 * A schema that checks `subschema` with a validator of its own, in a fresh evaluation context:
 * the subschema alone, or beside the root's definitions its references lead to (then at
 * `/allOf/0`, so that it keeps its own `$defs`, if any).
 */
function isolated(subschema: Node, keyword: string, pointer: string, problems: Problem[], document: Document): Node {
  const known = document.isolations.get(subschema);
  if (known !== undefined) return known;
  const reached = reachedDefinitions(subschema, document);
  if (typeof reached === "string") {
    problems.push({ pointer, problem: `cannot be checked apart from the rest of the schema: it ${reached}` });
    return subschema;
  }
  let validator: Validator | undefined;
  const refinement: Refinement = {
    // Set before any value is checked: the compile below ends before the transform returns.
    check: (value) => validator!.Check(value),
    error: () => (keyword === "unevaluatedItems" ? "must match the schema of unevaluated items" : "must match the schema of unevaluated properties"),
  };
  const node = Object.defineProperty({}, "~refine", { value: [refinement], enumerable: false, writable: true, configurable: true }) as Node;
  // Known before its own transform: a definition that leads back here takes this node.
  document.isolations.set(subschema, node);
  const standalone = reached === undefined ? subschema : { allOf: [subschema], ...reached };
  const found: Problem[] = [];
  const transformed = transformNode(standalone, "", 0, new Map(), found, document) as Node;
  for (const { pointer: at, problem } of found) {
    // Beside the definitions, the subschema is at /allOf/0; a definition is where it is in the root.
    if (reached === undefined) problems.push({ pointer: pointer + at, problem });
    else problems.push({ pointer: at.startsWith("/allOf/0") ? pointer + at.slice("/allOf/0".length) : at, problem });
  }
  if (found.length > 0) {
    document.isolations.delete(subschema);
    return subschema;
  }
  validator = Compile(transformed as never);
  return node;
}

/**
 * The root's definitions that the references of `subschema` lead to, directly or through one
 * another (each `$defs` or `definitions` with the entries reached, in the root's order); `undefined`
 * when it refers nowhere; a description of the first reference that leads elsewhere.
 */
function reachedDefinitions(subschema: Node, document: Document): { $defs?: Node; definitions?: Node } | string | undefined {
  const reached = { $defs: new Set<string>(), definitions: new Set<string>() };
  // Definitions reached by a bare name, wherever they are: they join `$defs` under that name.
  const reachedNamed: Node = {};
  const pending: Node[] = [subschema];
  const walked = new Set<Node>();
  let refers = false;
  let elsewhere: string | undefined;
  while (pending.length > 0 && elsewhere === undefined) {
    const root = pending.pop()!;
    if (walked.has(root)) continue;
    walked.add(root);
    const stop = walkSchema(root, (node) => {
      if (elsewhere !== undefined) return;
      for (const reference of REFERENCE_KEYWORDS) {
        if (!Object.hasOwn(node, reference)) continue;
        refers = true;
        const ref = node[reference];
        if (reference !== "$ref" || typeof ref !== "string") {
          elsewhere = `holds ${reference}`;
          return;
        }
        const segments = refSegments(ref);
        if (segments === undefined) {
          // A bare name: a definition whose key and `$id` it is (TypeBox's `Type.Cyclic` writes
          // `$ref: "Node"`). Beside the isolated copy it keeps its `$id`, and resolves the same way.
          const named = definitionNamed(document, ref);
          if (named === undefined || (Object.hasOwn(reachedNamed, ref) && reachedNamed[ref] !== named)) {
            elsewhere = `refers to ${JSON.stringify(ref)}, not to a definition the isolated check can hold`;
            return;
          }
          if (!Object.hasOwn(reachedNamed, ref)) {
            defineOwn(reachedNamed, ref, named);
            pending.push(named);
          }
          continue;
        }
        const [keyword, name] = segments;
        const definitions = keyword === "$defs" || keyword === "definitions" ? definitionsOf(document, keyword) : undefined;
        if (definitions === undefined || name === undefined || !Object.hasOwn(definitions, name) || !isSchemaObject(definitions[name])) {
          elsewhere = `refers to ${JSON.stringify(ref)}, not into the root's $defs or definitions`;
          return;
        }
        reached[keyword as "$defs" | "definitions"].add(name);
        pending.push(definitions[name]);
      }
    });
    if (stop !== undefined && elsewhere === undefined) elsewhere = "is nested too deeply to follow its references";
  }
  if (elsewhere !== undefined) return elsewhere;
  if (!refers) return undefined;
  // Inside a resource of its own, `#/…` means that resource: the isolated copy could not tell.
  if (hasNestedResources(document)) return "holds references in a schema with resources of their own ($id below the root)";
  const result: { $defs?: Node; definitions?: Node } = {};
  for (const keyword of ["$defs", "definitions"] as const) {
    const definitions = definitionsOf(document, keyword);
    if (definitions === undefined || reached[keyword].size === 0) continue;
    const entries: Node = {};
    // The root's order, whatever order they were reached in: the same content compiles to the same code.
    for (const name of Object.keys(definitions)) if (reached[keyword].has(name)) defineOwn(entries, name, definitions[name]);
    result[keyword] = entries;
  }
  const named = Object.keys(reachedNamed).sort();
  if (named.length > 0) {
    const entries = result.$defs ?? {};
    for (const name of named) {
      if (Object.hasOwn(entries, name) && entries[name] !== reachedNamed[name]) return `refers to two definitions named ${JSON.stringify(name)}`;
      defineOwn(entries, name, reachedNamed[name]);
    }
    result.$defs = entries;
  }
  return result;
}

/** The refinements that replace this node's own keywords; the replaced keywords are recorded in `changes` as removed (`undefined`). */
function ownRefinements(node: Node, pointer: string, changes: Map<string, unknown>, problems: Problem[]): Refinement[] {
  const refinements: Refinement[] = [];
  const pattern = node.pattern;
  if (typeof pattern === "string") {
    const compiled = compilePattern(pattern);
    if (!compiled.ok) problems.push({ pointer: `${pointer}/pattern`, problem: `cannot run safely: it ${compiled.problem}` });
    else if (compiled.engine === "linear") changes.set("pattern", new LinearPattern(pattern, compiled.tester));
  }
  const values = node.enum;
  if (Array.isArray(values) && (values.length > MAX_INLINE_ENUM || values.some((value) => typeof value === "object" && value !== null))) {
    changes.set("enum", undefined);
    refinements.push(enumRefinement(values));
  }
  if (Object.hasOwn(node, "const") && typeof node.const === "object" && node.const !== null) {
    changes.set("const", undefined);
    refinements.push(constRefinement(node.const));
  }
  if (typeof node.multipleOf === "number") {
    changes.set("multipleOf", undefined);
    refinements.push(multipleOfRefinement(node.multipleOf));
  }
  if (node.uniqueItems === true) {
    changes.set("uniqueItems", undefined);
    refinements.push(UNIQUE_ITEMS_REFINEMENT);
  }
  // TypeBox tests a length against twice `minLength` in 32-bit arithmetic: from 2^30 on, twice it
  // is negative and every string passes. No string is 2^29 units long (V8's longest is 24 short),
  // so 2^29 refuses every string, as the larger bound does.
  if (typeof node.minLength === "number" && node.minLength > MAX_STRING_UNITS) changes.set("minLength", MAX_STRING_UNITS);
  const required = new Map<string, readonly string[]>();
  if (isSchemaObject(node.dependentRequired)) {
    for (const [trigger, names] of Object.entries(node.dependentRequired)) if (Array.isArray(names)) required.set(trigger, names.map(String));
    changes.set("dependentRequired", undefined);
  }
  const dependencies = changes.has("dependencies") ? changes.get("dependencies") : node.dependencies;
  if (isSchemaObject(dependencies) && Object.values(dependencies).some(Array.isArray)) {
    const schemas = copyObject(dependencies);
    for (const [trigger, value] of Object.entries(dependencies)) {
      if (!Array.isArray(value)) continue;
      // A trigger listed in both keeps both lists: each must hold.
      required.set(trigger, [...(required.get(trigger) ?? []), ...value.map(String)]);
      delete schemas[trigger];
    }
    changes.set("dependencies", Object.keys(schemas).length > 0 ? schemas : undefined);
  }
  if (required.size > 0) refinements.push(dependentRequiredRefinement(required));
  return refinements;
}

/** A copy of `source` with every own property (enumerable or not, symbols too) and the same prototype, all of them writable (the source may be frozen). */
function copyObject(source: Node): Node {
  const descriptors = Object.getOwnPropertyDescriptors(source) as Record<string | symbol, PropertyDescriptor>;
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key]!;
    descriptor.configurable = true;
    if ("value" in descriptor) descriptor.writable = true;
  }
  return Object.defineProperties(Object.create(Object.getPrototypeOf(source) as object | null) as Node, descriptors);
}
