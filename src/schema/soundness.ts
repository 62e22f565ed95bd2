import { LRUCache } from "lru-cache";
import { Compile, type Validator } from "typebox/compile";
import { Meta } from "typebox/schema";
import { ToolDefinitionError } from "../errors.js";
import { defineOwn } from "../objects.js";
import { MAX_SCHEMA_DEPTH, REFERENCE_KEYWORDS } from "./keywords.js";
import { appendSegment } from "./pointer.js";
import { SchemaReferences } from "./references.js";
import { canonicalJson } from "./canonical.js";
import type { SchemaProblem } from "./plain.js";
import { walkSchema } from "./walk.js";
import { findCompileProblems } from "./compile-problems.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const MAX_REPORTED_PROBLEMS = 3;

// Compiled once, on the first registration, and shared by every registry.
const metaValidators = new Map<string, Validator>();

function metaValidator(uri: string): Validator {
  let validator = metaValidators.get(uri);
  if (validator === undefined) {
    validator = Compile(Meta[uri as keyof typeof Meta] as never) as Validator;
    metaValidators.set(uri, validator);
  }
  return validator;
}

/**
 * Problems that would make a tool's schema validate wrongly, each with its JSON
 * Pointer into the schema; empty when the schema is sound.
 *
 * A schema is checked against the meta-schema it declares (`$schema`), or
 * else against 2020-12 and draft-07, so that `{ type: "nonsense" }`
 * (which TypeBox would compile into a validator that accepts everything) is
 * caught; every `$ref` must resolve inside the schema, since an
 * unresolvable one compiles into a validator that rejects everything; and
 * nothing may keep it from compiling into a validator that is safe on every
 * input (see `findCompileProblems`: patterns that cannot run in linear time, a
 * `$ref` that loops without descending, lists too long to compile).
 */
function findSchemaProblems(schema: object, text: string | undefined): SchemaProblem[] {
  let problems: SchemaProblem[];
  try {
    problems = metaSchemaProblems(schema, text);
    // A schema whose text names no reference has none to resolve.
    if (problems.length === 0 && (text === undefined || REFERENCE_KEYWORDS.some((keyword) => text.includes(`"${keyword}"`)))) problems = unresolvedReferences(schema);
    if (problems.length === 0) problems = findCompileProblems(schema).map(({ pointer, problem }) => ({ pointer: pointer || "/", problem }));
  } catch {
    problems = [{ pointer: "/", problem: "cannot be read as a JSON Schema" }];
  }
  return problems.slice(0, MAX_REPORTED_PROBLEMS);
}

/**
 * Problems against the meta-schema the schema declares (draft-07, else 2020-12). A schema that
 * declares none is read as the library reads it: with every keyword of both drafts (TypeBox
 * itself writes tuples in draft-07's `items: [...]` form, and `$defs` from 2020-12). So every
 * keyword must have the shape its draft gives it. A schema that uses no keyword draft-07 leaves
 * out is checked against draft-07 alone (about a quarter of the cost); any other against 2020-12,
 * with its draft-07 tuples read as 2020-12's `prefixItems`.
 */
function metaSchemaProblems(schema: object, text: string | undefined): SchemaProblem[] {
  const declared = (schema as { $schema?: unknown }).$schema;
  const normalized = typeof declared === "string" ? declared.replace(/#?$/, "#") : undefined;
  if (normalized === DRAFT_07) return problemsAgainst(DRAFT_07, schema);
  if (declared !== undefined) return problemsAgainst(DRAFT_2020_12, schema);
  // The canonical text tells at once that no later keyword appears; a name found there may be a property's, and the walk decides.
  const maybeLater = text === undefined || LATER_KEYWORDS.some((keyword) => text.includes(`"${keyword}"`));
  if (!maybeLater || !usesLaterKeywords(schema)) return problemsAgainst(DRAFT_07, schema);
  return problemsAgainst(DRAFT_2020_12, withLaterTuples(schema));
}

/** Keywords that draft-07's meta-schema does not know, and so does not check the shape of. */
const LATER_KEYWORDS = [
  "$anchor",
  "$defs",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "$vocabulary",
  "contentSchema",
  "dependentRequired",
  "dependentSchemas",
  "maxContains",
  "minContains",
  "prefixItems",
  "unevaluatedItems",
  "unevaluatedProperties",
];

function usesLaterKeywords(schema: object): boolean {
  let found = false;
  const stop = walkSchema(schema, (node) => {
    if (!found) found = LATER_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword));
  });
  return found || stop !== undefined;
}

/**
 * A copy of `schema` with draft-07 tuples written as 2020-12 writes them (`items: [...]` as
 * `prefixItems`, `additionalItems` as `items`), for the 2020-12 meta-schema; the schema itself
 * when it has none.
 */
function withLaterTuples(schema: object): object {
  let changed = false;
  const rewrite = (node: unknown, depth: number): unknown => {
    if (typeof node !== "object" || node === null || depth > MAX_SCHEMA_DEPTH * 2) return node;
    if (Array.isArray(node)) return node.map((item) => rewrite(item, depth + 1));
    const copy: Record<string, unknown> = {};
    const tuple = Array.isArray((node as Record<string, unknown>).items);
    for (const key of Object.keys(node)) {
      const value = rewrite((node as Record<string, unknown>)[key], depth + 1);
      if (tuple && key === "items") {
        changed = true;
        defineOwn(copy, "prefixItems", value);
      } else if (tuple && key === "additionalItems") defineOwn(copy, "items", value);
      else defineOwn(copy, key, value);
    }
    return copy;
  };
  const copy = rewrite(schema, 0) as object;
  return changed ? copy : schema;
}

function problemsAgainst(uri: string, schema: object): SchemaProblem[] {
  const meta = metaValidator(uri);
  if (meta.Check(schema)) return [];
  // A failed `anyOf` reports each branch: the first error at a location is the telling one.
  const first = new Map<string, string>();
  for (const error of meta.Errors(schema)) if (!first.has(error.instancePath)) first.set(error.instancePath, error.message);
  // A location's failure echoes up to every enclosing one: report only the deepest.
  const pointers = [...first.keys()];
  const problems = pointers
    .filter((pointer) => !pointers.some((other) => other !== pointer && other.startsWith(`${pointer}/`)))
    .map((pointer) => ({ pointer: pointer || "/", problem: first.get(pointer)! }));
  return problems.length > 0 ? problems : [{ pointer: "/", problem: "does not match the JSON Schema meta-schema" }];
}

// Schema objects already found sound: registering and then compiling one checks it once.
// Registered schemas are private frozen snapshots, so a verdict cannot go stale.
const soundSchemas = new WeakSet<object>();
// And by canonical text, so that a fresh copy of a schema already found sound (an MCP server's
// listing again, a schema recompiled after its validator was evicted) is not checked again.
const soundTexts = new LRUCache<string, true>({ max: 4096 });

/**
 * Throws unless the schema is sound (see {@link findSchemaProblems}).
 * @param canonicalText the schema's canonical JSON, when the caller has it
 * @throws ToolDefinitionError naming the tool and the location of each problem
 */
export function assertSoundSchema(toolName: string, schema: object, canonicalText?: string): void {
  if (soundSchemas.has(schema)) return;
  const text = canonicalText ?? canonicalJson(schema);
  if (text !== undefined && soundTexts.has(text)) {
    soundSchemas.add(schema);
    return;
  }
  const problems = findSchemaProblems(schema, text);
  if (problems.length > 0) throw new ToolDefinitionError(toolName, problems);
  soundSchemas.add(schema);
  if (text !== undefined) soundTexts.set(text, true);
}

/** `$ref`s that resolve to nothing in the document, which would compile into a validator that refuses everything. */
function unresolvedReferences(root: object): SchemaProblem[] {
  const references = new SchemaReferences(root);
  // A name that is not a pointer or an anchor resolves by `$id` alone for the compiled check (a
  // definition's key is no name of its own unless its `$id` says so, as `Type.Cyclic` writes it).
  const ids = new Set<string>();
  walkSchema(root, (node) => {
    if (typeof node.$id === "string") ids.add(node.$id);
  });
  const problems: SchemaProblem[] = [];
  const stop = walkSchema(root, (node, pointer) => {
    for (const keyword of REFERENCE_KEYWORDS) {
      const ref = node[keyword];
      if (typeof ref !== "string") continue;
      const problem = referenceProblem(ref, ref.startsWith("#") ? references.resolve(ref) : ids.has(ref) ? true : undefined);
      if (problem !== undefined) problems.push({ pointer: appendSegment(pointer, keyword), problem });
    }
  });
  if (stop !== undefined) return [{ pointer: stop.pointer || "/", problem: "the schema is nested too deeply" }];
  const twice = namedTwice(root);
  if (twice !== undefined) problems.push({ pointer: "/", problem: `names ${twice} twice, which validators resolve to different subschemas` });
  return problems;
}

/** Names that TypeBox refuses as keys on the way of a reference. */
const UNSAFE_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/** What is wrong with a reference, given what it resolves to here (`undefined`: nothing), if anything. */
function referenceProblem(ref: string, target: unknown): string | undefined {
  if (target === undefined) return "cannot be resolved inside the schema";
  // TypeBox decodes a whole pointer before splitting it; this library splits, then decodes: `%2F` is read two ways.
  if (/%2f/i.test(ref)) return "holds an encoded / (%2F), which validators read in two ways";
  if (ref.startsWith("#/") && ref.slice(2).split("/").some((segment) => UNSAFE_SEGMENTS.has(segment))) return "passes through a key named __proto__, constructor or prototype, which the compiled check does not follow";
  if (typeof target !== "boolean" && (typeof target !== "object" || target === null || Array.isArray(target))) return "does not lead to a schema";
  return undefined;
}

/**
 * An `$id` or `$anchor` given to two different schemas anywhere in the document, keywords unknown
 * to JSON Schema included (a reference by that name may resolve to either, and TypeBox takes the
 * last), quoted.
 */
function namedTwice(root: object): string | undefined {
  // Each name with the text of the schema it names: the same schema twice (a type used in two places) is no ambiguity.
  const names = new Map<string, string | undefined>();
  const pending: Array<[unknown, number]> = [[root, 0]];
  for (let visits = 0; pending.length > 0 && visits < 1_000_000; visits++) {
    const [value, depth] = pending.pop()!;
    if (typeof value !== "object" || value === null || depth > 2 * MAX_SCHEMA_DEPTH) continue;
    if (!Array.isArray(value)) {
      let text: string | undefined;
      for (const keyword of ["$id", "$anchor"]) {
        const name = (value as Record<string, unknown>)[keyword];
        if (typeof name !== "string") continue;
        const key = `${keyword} ${JSON.stringify(name)}`;
        text ??= canonicalJson(value) ?? "";
        if (names.has(key) && names.get(key) !== text) return key;
        names.set(key, text);
      }
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
  }
  return undefined;
}

/** `Object.prototype` members, which TypeBox's `in` checks would find on every object. */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** What a compiled check of a schema must take care of, found in one walk of it. */
export interface CheckNeeds {
  /**
   * Whether the schema names a property that every object inherits (`toString`, `constructor`,
   * `__proto__`, …). TypeBox tests presence with `in`, which would see such a property on `{}`;
   * these schemas are checked on null-prototype copies instead.
   */
  readonly namesInheritedProperties: boolean;
  /** Whether it has `uniqueItems: true`, whose arrays share their items' identities within one check. */
  readonly uniqueItems: boolean;
}

/** {@link CheckNeeds} of `schema`; a schema too deep to walk whole is taken to need both. */
export function checkNeedsOf(schema: object): CheckNeeds {
  let inherited = false;
  let uniqueItems = false;
  const stop = walkSchema(schema, (node) => {
    if (node.uniqueItems === true) uniqueItems = true;
    const properties = node.properties;
    if (typeof properties === "object" && properties !== null && Object.keys(properties).some((name) => INHERITED_NAMES.has(name))) inherited = true;
    if (Array.isArray(node.required) && node.required.some((name) => INHERITED_NAMES.has(name as string))) inherited = true;
    for (const keyword of ["dependentRequired", "dependencies", "dependentSchemas"]) {
      const dependencies = node[keyword];
      if (typeof dependencies !== "object" || dependencies === null) continue;
      for (const [trigger, names] of Object.entries(dependencies)) {
        if (INHERITED_NAMES.has(trigger) || (Array.isArray(names) && names.some((name) => INHERITED_NAMES.has(name as string)))) inherited = true;
      }
    }
  });
  return { namesInheritedProperties: inherited || stop !== undefined, uniqueItems: uniqueItems || stop !== undefined };
}
