import { Compile, type Validator } from "typebox/compile";
import { Meta } from "typebox/schema";
import { ToolDefinitionError } from "./errors.js";
import { escapePointerSegment } from "./issues.js";

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
 * caught; and every `$ref` must resolve inside the schema, since an
 * unresolvable one compiles into a validator that rejects everything.
 */
export function findSchemaProblems(schema: object): string[] {
  let problems: string[];
  try {
    problems = metaSchemaProblems(schema).concat(findUnresolvableRefs(schema));
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

/** Pointers of `$ref`s that point nowhere inside the schema. */
function findUnresolvableRefs(root: object): string[] {
  const ids = new Set<string>();
  const definitions = new Set<string>();
  const refs: Array<{ ref: string; pointer: string }> = [];
  walk(root, "", (node, pointer) => {
    if (typeof node.$id === "string") ids.add(node.$id);
    if (typeof node.$anchor === "string") ids.add(`#${node.$anchor}`);
    for (const keyword of ["$defs", "definitions"]) {
      const container = node[keyword];
      if (typeof container === "object" && container !== null) for (const key of Object.keys(container)) definitions.add(key);
    }
    if (typeof node.$ref === "string") refs.push({ ref: node.$ref, pointer: `${pointer}/$ref` });
  });
  const problems: string[] = [];
  for (const { ref, pointer } of refs) {
    if (!resolves(root, ref, ids, definitions)) problems.push(`${pointer}: cannot be resolved inside the schema`);
  }
  return problems;
}

function resolves(root: object, ref: string, ids: Set<string>, definitions: Set<string>): boolean {
  if (ref === "#") return true;
  if (ref.startsWith("#/")) return resolvePointer(root, ref.slice(1)) !== undefined;
  // TypeBox's own references name a `$defs` entry or an `$id`.
  return ids.has(ref) || definitions.has(ref);
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

const MAX_WALK_DEPTH = 256;

function walk(root: object, rootPointer: string, visit: (node: Record<string, unknown>, pointer: string) => void): void {
  const seen = new Set<object>();
  const pending: Array<[unknown, string, number]> = [[root, rootPointer, 0]];
  while (pending.length > 0) {
    const [node, pointer, depth] = pending.pop()!;
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    if (depth > MAX_WALK_DEPTH) throw new RangeError("schema nested too deeply");
    seen.add(node);
    if (!Array.isArray(node)) visit(node as Record<string, unknown>, pointer);
    for (const key of Object.keys(node)) pending.push([(node as Record<string, unknown>)[key], `${pointer}/${escapePointerSegment(key)}`, depth + 1]);
  }
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
  try {
    walk(schema, "", (node) => {
      const properties = node.properties;
      if (typeof properties === "object" && properties !== null && Object.keys(properties).some((name) => INHERITED_NAMES.has(name))) found = true;
      if (Array.isArray(node.required) && node.required.some((name) => INHERITED_NAMES.has(name as string))) found = true;
    });
  } catch {
    return true;
  }
  return found;
}
