import { MAX_INLINE_ENUM } from "../schema/keywords.js";
import { Compile } from "typebox/compile";
import { MAX_SCHEMA_DEPTH, REFERENCE_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "../schema/keywords.js";
import { compilePattern } from "../schema/patterns.js";
import { appendSegment } from "../schema/pointer.js";
import { walkSchema } from "../schema/walk.js";
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
 * - `uniqueItems: true` becomes JSON Schema equality by a Set of keys;
 * - `dependentRequired`, and the list entries of `dependencies`, look at own properties only;
 * - the subschema of `unevaluatedProperties` or `unevaluatedItems` runs as a validator of its own
 *   (a refinement), when it holds no reference: TypeBox checks it in its parent's evaluation
 *   context, so the properties or items it evaluates inside a value count as evaluated in the
 *   parent, and the parent's count inside the value (`{ unevaluatedProperties: { type: "object",
 *   properties: { b: {} } } }` would accept `{ "a": { "b": 1 }, "b": false }`).
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

/**
 * The schema TypeBox should compile in place of `schema` (`schema` itself when nothing changes).
 * @throws UnsafeSchemaError when a `pattern` can run neither natively in linear time nor on the linear-time engine
 */
export function transformSchema<T extends object>(schema: T): T {
  const problems: Array<{ pointer: string; problem: string }> = [];
  const result = transformNode(schema, "", 0, new Map(), problems);
  if (problems.length > 0) throw new UnsafeSchemaError(problems);
  return result as T;
}

function isSchemaObject(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function transformNode(node: unknown, pointer: string, depth: number, done: Map<object, unknown>, problems: Array<{ pointer: string; problem: string }>): unknown {
  if (!isSchemaObject(node) || depth > MAX_SCHEMA_DEPTH) return node;
  const known = done.get(node);
  if (known !== undefined) return known;
  // A cycle back to a node in progress keeps the original there.
  done.set(node, node);
  const changes = new Map<string, unknown>();
  for (const keyword of ISOLATED_KEYWORDS) {
    const subschema = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
    if (isSchemaObject(subschema) && Object.keys(subschema).length > 0 && !holdsReferences(subschema)) {
      changes.set(keyword, isolated(subschema, keyword, appendSegment(pointer, keyword), problems));
    }
  }
  for (const keyword of SUBSCHEMA_KEYWORDS) {
    if (!Object.hasOwn(node, keyword) || !isSchemaObject(node[keyword]) || changes.has(keyword)) continue;
    const child = transformNode(node[keyword], appendSegment(pointer, keyword), depth + 1, done, problems);
    if (child !== node[keyword]) changes.set(keyword, child);
  }
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
    const list = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
    if (!Array.isArray(list)) continue;
    const children = list.map((item, index) => transformNode(item, appendSegment(appendSegment(pointer, keyword), index), depth + 1, done, problems));
    if (children.some((child, index) => child !== list[index])) changes.set(keyword, children);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
    if (!isSchemaObject(map)) continue;
    let copy: Node | undefined;
    for (const key of Object.keys(map)) {
      const child = transformNode(map[key], appendSegment(appendSegment(pointer, keyword), key), depth + 1, done, problems);
      if (child === map[key]) continue;
      copy ??= copyObject(map);
      // A property may be called `__proto__`: define it, never assign it.
      defineOwn(copy, key, child);
    }
    if (copy !== undefined) changes.set(keyword, copy);
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

/** Whether a subschema refers anywhere (then it cannot be compiled on its own). */
function holdsReferences(subschema: Node): boolean {
  let found = false;
  walkSchema(subschema, (node) => {
    if (REFERENCE_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword)) || Object.hasOwn(node, "$id") || Object.hasOwn(node, "$anchor")) found = true;
  });
  return found;
}

/** A schema that checks `subschema` with a validator of its own, in a fresh evaluation context. */
function isolated(subschema: Node, keyword: string, pointer: string, problems: Array<{ pointer: string; problem: string }>): Node {
  let transformed: Node;
  try {
    transformed = transformSchema(subschema);
  } catch (error) {
    if (!(error instanceof UnsafeSchemaError)) throw error;
    for (const found of error.problems) problems.push({ pointer: pointer + found.pointer, problem: found.problem });
    return subschema;
  }
  const validator = Compile(transformed as never);
  const refinement: Refinement = {
    check: (value) => validator.Check(value),
    error: () => (keyword === "unevaluatedItems" ? "must match the schema of unevaluated items" : "must match the schema of unevaluated properties"),
  };
  return Object.defineProperty({}, "~refine", { value: [refinement], enumerable: false, writable: true, configurable: true }) as Node;
}

/** The refinements that replace this node's own keywords; the replaced keywords are recorded in `changes` as removed (`undefined`). */
function ownRefinements(node: Node, pointer: string, changes: Map<string, unknown>, problems: Array<{ pointer: string; problem: string }>): Refinement[] {
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
