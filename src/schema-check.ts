import { Compile, type Validator } from "typebox/compile";
import { Meta } from "typebox/schema";
import { ToolDefinitionError } from "./errors.js";
import { REFERENCE_KEYWORDS } from "./schema/keywords.js";
import { appendSegment } from "./schema/pointer.js";
import { SchemaReferences } from "./schema/references.js";
import { walkSchema } from "./schema/walk.js";

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
 * Problems that would make a tool's schema validate wrongly, each as
 * `<JSON Pointer into the schema>: <problem>`; empty when the schema is sound.
 *
 * A schema is checked against the meta-schema it declares (`$schema`), or
 * else against 2020-12 and draft-07, so that `{ type: "nonsense" }`
 * (which TypeBox would compile into a validator that accepts everything) is
 * caught; every `$ref` must resolve inside the schema, since an
 * unresolvable one compiles into a validator that rejects everything; and no
 * `$ref` may lead back to itself without descending into the value (`$ref: "#"`
 * at the root), which no value could ever satisfy.
 */
export function findSchemaProblems(schema: object): string[] {
  let problems: string[];
  try {
    problems = metaSchemaProblems(schema);
    if (problems.length === 0) problems = referenceProblems(schema);
  } catch {
    problems = ["/: cannot be read as a JSON Schema"];
  }
  return problems.slice(0, MAX_REPORTED_PROBLEMS);
}

/**
 * Problems against the meta-schema the schema declares; a schema that
 * declares none may match either draft (TypeBox itself writes tuples in
 * draft-07's `items: [...]` form), and is reported against 2020-12.
 */
function metaSchemaProblems(schema: object): string[] {
  const declared = (schema as { $schema?: unknown }).$schema;
  const normalized = typeof declared === "string" ? declared.replace(/#?$/, "#") : undefined;
  if (normalized === DRAFT_07) return problemsAgainst(DRAFT_07, schema);
  const latest = problemsAgainst(DRAFT_2020_12, schema);
  if (latest.length === 0 || declared !== undefined) return latest;
  return problemsAgainst(DRAFT_07, schema).length === 0 ? [] : latest;
}

function problemsAgainst(uri: string, schema: object): string[] {
  const meta = metaValidator(uri);
  if (meta.Check(schema)) return [];
  // A failed `anyOf` reports each branch: the first error at a location is the telling one.
  const first = new Map<string, string>();
  for (const error of meta.Errors(schema)) if (!first.has(error.instancePath)) first.set(error.instancePath, error.message);
  // A location's failure echoes up to every enclosing one: report only the deepest.
  const pointers = [...first.keys()];
  const problems = pointers
    .filter((pointer) => !pointers.some((other) => other !== pointer && other.startsWith(`${pointer}/`)))
    .map((pointer) => `${pointer || "/"}: ${first.get(pointer)}`);
  return problems.length > 0 ? problems : ["/: does not match the JSON Schema meta-schema"];
}

// Schema objects already found sound: registering and then compiling one checks it once.
// Registered schemas are private frozen snapshots, so a verdict cannot go stale.
const soundSchemas = new WeakSet<object>();

/**
 * Throws unless the schema is sound (see {@link findSchemaProblems}).
 * @throws ToolDefinitionError naming the tool and the location of each problem
 */
export function assertSoundSchema(toolName: string, schema: object): void {
  if (soundSchemas.has(schema)) return;
  const problems = findSchemaProblems(schema);
  if (problems.length > 0) throw new ToolDefinitionError(toolName, `its parameters schema is invalid at ${problems.join("; ")}`);
  soundSchemas.add(schema);
}

/** Keywords whose subschemas apply to the very value their schema applies to (no descent into it). */
const IN_PLACE_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_KEYWORDS = ["not", "if", "then", "else"] as const;

/**
 * `$ref`s that resolve to nothing in the document, and `$ref` chains that come back to where
 * they started without descending into the value (through `$ref`, `allOf`, `anyOf`, `oneOf`,
 * `not`, `if`/`then`/`else` and `dependentSchemas` only): such a schema loops forever or
 * refuses everything.
 */
function referenceProblems(root: object): string[] {
  const references = new SchemaReferences(root);
  const pointers = new Map<object, string>();
  const problems: string[] = [];
  const stop = walkSchema(root, (node, pointer) => {
    pointers.set(node, pointer);
    for (const keyword of REFERENCE_KEYWORDS) {
      const ref = node[keyword];
      if (typeof ref === "string" && references.resolve(ref) === undefined) problems.push(`${appendSegment(pointer, keyword)}: cannot be resolved inside the schema`);
    }
  });
  if (stop !== undefined) return [`${stop.pointer || "/"}: the schema is nested too deeply`];
  if (problems.length > 0) return problems;
  const cycle = findInPlaceCycle(pointers, references);
  return cycle === undefined ? [] : [`${cycle}: refers back to itself without descending into the value`];
}

/** The schema nodes applied to the same value as `node`. */
function inPlaceSuccessors(node: Readonly<Record<string, unknown>>, references: SchemaReferences): unknown[] {
  const successors: unknown[] = [];
  for (const keyword of REFERENCE_KEYWORDS) if (typeof node[keyword] === "string") successors.push(references.resolve(node[keyword]));
  for (const keyword of IN_PLACE_LIST_KEYWORDS) if (Array.isArray(node[keyword])) successors.push(...(node[keyword] as unknown[]));
  for (const keyword of IN_PLACE_KEYWORDS) if (Object.hasOwn(node, keyword)) successors.push(node[keyword]);
  const dependent = node.dependentSchemas;
  if (typeof dependent === "object" && dependent !== null) successors.push(...Object.values(dependent));
  return successors;
}

/** The pointer of a `$ref` on a cycle of in-place applications, or `undefined` when there is none. */
function findInPlaceCycle(pointers: ReadonlyMap<object, string>, references: SchemaReferences): string | undefined {
  const done = new Set<object>();
  for (const start of pointers.keys()) {
    if (done.has(start)) continue;
    // Iterative depth-first search: the nodes on the current path are `active`.
    const active = new Set<object>([start]);
    const stack: Array<{ node: object; next: unknown[] }> = [{ node: start, next: inPlaceSuccessors(start as Record<string, unknown>, references) }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next.length === 0) {
        stack.pop();
        active.delete(top.node);
        done.add(top.node);
        continue;
      }
      const successor = top.next.pop();
      if (typeof successor !== "object" || successor === null || done.has(successor)) continue;
      if (active.has(successor)) {
        // The first node of the cycle that holds a reference is where to look.
        const onCycle = stack.slice(stack.findIndex((frame) => frame.node === successor)).map((frame) => frame.node);
        const holder = onCycle.find((node) => REFERENCE_KEYWORDS.some((keyword) => typeof (node as Record<string, unknown>)[keyword] === "string")) ?? successor;
        const keyword = REFERENCE_KEYWORDS.find((name) => typeof (holder as Record<string, unknown>)[name] === "string") ?? "$ref";
        return appendSegment(pointers.get(holder) ?? "", keyword);
      }
      active.add(successor);
      stack.push({ node: successor, next: inPlaceSuccessors(successor as Record<string, unknown>, references) });
    }
  }
  return undefined;
}

/** `Object.prototype` members, which TypeBox's `in` checks would find on every object. */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether the schema names a property that every object inherits (`toString`,
 * `constructor`, `__proto__`, …). TypeBox tests presence with `in`, which
 * would see such a property on `{}`; these schemas are checked on
 * null-prototype copies instead.
 */
export function namesInheritedProperties(schema: object): boolean {
  let found = false;
  const stop = walkSchema(schema, (node) => {
    const properties = node.properties;
    if (typeof properties === "object" && properties !== null && Object.keys(properties).some((name) => INHERITED_NAMES.has(name))) found = true;
    if (Array.isArray(node.required) && node.required.some((name) => INHERITED_NAMES.has(name as string))) found = true;
    for (const keyword of ["dependentRequired", "dependencies"]) {
      const dependencies = node[keyword];
      if (typeof dependencies !== "object" || dependencies === null) continue;
      for (const [trigger, names] of Object.entries(dependencies)) {
        if (INHERITED_NAMES.has(trigger) || (Array.isArray(names) && names.some((name) => INHERITED_NAMES.has(name as string)))) found = true;
      }
    }
  });
  return found || stop !== undefined;
}
