import { Compile, type Validator } from "typebox/compile";
import { Meta } from "typebox/schema";
import { ToolDefinitionError } from "../errors.js";
import { REFERENCE_KEYWORDS } from "./keywords.js";
import { appendSegment } from "./pointer.js";
import { SchemaReferences } from "./references.js";
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
function findSchemaProblems(schema: object): SchemaProblem[] {
  let problems: SchemaProblem[];
  try {
    problems = metaSchemaProblems(schema);
    if (problems.length === 0) problems = unresolvedReferences(schema);
    if (problems.length === 0) problems = findCompileProblems(schema).map(({ pointer, problem }) => ({ pointer: pointer || "/", problem }));
  } catch {
    problems = [{ pointer: "/", problem: "cannot be read as a JSON Schema" }];
  }
  return problems.slice(0, MAX_REPORTED_PROBLEMS);
}

/**
 * Problems against the meta-schema the schema declares; a schema that
 * declares none may match either draft (TypeBox itself writes tuples in
 * draft-07's `items: [...]` form), and is reported against 2020-12.
 */
function metaSchemaProblems(schema: object): SchemaProblem[] {
  const declared = (schema as { $schema?: unknown }).$schema;
  const normalized = typeof declared === "string" ? declared.replace(/#?$/, "#") : undefined;
  if (normalized === DRAFT_07) return problemsAgainst(DRAFT_07, schema);
  const latest = problemsAgainst(DRAFT_2020_12, schema);
  if (latest.length === 0 || declared !== undefined) return latest;
  return problemsAgainst(DRAFT_07, schema).length === 0 ? [] : latest;
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

/**
 * Throws unless the schema is sound (see {@link findSchemaProblems}).
 * @throws ToolDefinitionError naming the tool and the location of each problem
 */
export function assertSoundSchema(toolName: string, schema: object): void {
  if (soundSchemas.has(schema)) return;
  const problems = findSchemaProblems(schema);
  if (problems.length > 0) throw new ToolDefinitionError(toolName, problems);
  soundSchemas.add(schema);
}

/** `$ref`s that resolve to nothing in the document, which would compile into a validator that refuses everything. */
function unresolvedReferences(root: object): SchemaProblem[] {
  const references = new SchemaReferences(root);
  const problems: SchemaProblem[] = [];
  const stop = walkSchema(root, (node, pointer) => {
    for (const keyword of REFERENCE_KEYWORDS) {
      const ref = node[keyword];
      if (typeof ref === "string" && references.resolve(ref) === undefined) problems.push({ pointer: appendSegment(pointer, keyword), problem: "cannot be resolved inside the schema" });
    }
  });
  return stop === undefined ? problems : [{ pointer: stop.pointer || "/", problem: "the schema is nested too deeply" }];
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
