import type { TSchema } from "typebox";
import { ToolDefinitionError } from "../errors.js";
import { isPlainObject } from "../objects.js";
import { everyOption, milliseconds, refuseUnknownOptions } from "../options.js";
import { canonicalJson } from "../schema/canonical.js";
import { objectRootProblem } from "../schema/plain.js";
import { snapshotSchema } from "../schema/snapshot.js";
import { assertSoundSchema } from "../schema/soundness.js";
import { validatorSlot } from "../validation/cache.js";
import { isolationProblems } from "../validation/transform.js";
import type { RegisteredTool } from "../dispatch/prepare.js";
import { EXECUTION_OPTIONS, type ExecutionOptions, toolPolicy } from "../policy/policy.js";
import type { ToolDefinition, ToolHandler } from "../types.js";

/**
 * Per-tool options of `register`: its time limit, and how its execution is governed (each off
 * unless given; a tool with none takes the plain path).
 */
export interface RegisterOptions<TArgs = unknown> extends ExecutionOptions<TArgs> {
  /** Overrides the registry's `timeoutMs` for this tool; `Infinity` lifts the registry's limit. */
  timeoutMs?: number | undefined;
}


/** Every option of {@link RegisterOptions}: `register` refuses any other (a misspelt one). */
const REGISTER_OPTIONS = everyOption<RegisterOptions>()(["timeoutMs", ...EXECUTION_OPTIONS]);

/** Letters, digits, `_`, `-`, `.` and `:`; at most 128 characters (what MCP allows, dots included). */
const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/** What starts a tool name, leaving room for one more character: see {@link TOOL_NAME}. */
const TOOL_NAME_PREFIX = /^[A-Za-z0-9_.:-]{0,127}$/;

/** Whether `prefix` can start a tool name the registry accepts (`""` can): else no name it starts is one. */
export function isToolNamePrefix(prefix: string): boolean {
  return TOOL_NAME_PREFIX.test(prefix);
}

/**
 * What `register` checks and keeps: a definition's name, description and handler, and a private,
 * frozen snapshot of its schema, found sound. Tools registered with one unchanged schema object
 * share one snapshot, and so one validator.
 */
export class ToolDefinitions {
  readonly #snapshots = new WeakMap<object, { readonly text: string; readonly snapshot: TSchema }>();

  /**
   * The tool to register.
   * @param isTaken whether a name is already registered
   * @throws ToolDefinitionError for an empty, invalid or taken name, a description that is not a
   * string, a handler that is not a function, another library's schema object, or a schema that is not sound
   * string, a handler that is not a function, another library's schema object, or a schema
   * (`parameters`, `outputSchema`) that is not sound
   * @throws TypeError for an option of the wrong kind
   */
  prepare(definition: ToolDefinition, handler: unknown, options: RegisterOptions, isTaken: (name: string) => boolean): RegisteredTool {
    const { name, description, parameters: declared, outputSchema: declaredOutput, fields } = checkDefinition(definition);
    if (isTaken(name)) throw new ToolDefinitionError(name, "a tool with this name is already registered");
    if (typeof handler !== "function") throw new ToolDefinitionError(name, `the handler must be a function, got ${typeof handler}`);
    options ??= {};
    refuseUnknownOptions(options, REGISTER_OPTIONS);
    const timeoutMs = milliseconds("timeoutMs", options.timeoutMs);
    const parameters = this.#snapshotOf(name, declared);
    const outputSchema = declaredOutput === undefined ? undefined : this.#outputSnapshotOf(name, checkOutputSchema(name, declaredOutput));
    const policy = toolPolicy(name, options, outputSchema);
    const frozen: ToolDefinition = Object.freeze(outputSchema === undefined ? { ...fields, name, description, parameters } : { ...fields, name, description, parameters, outputSchema });
    return { name, definition: frozen, handler: handler as ToolHandler<TSchema>, timeoutMs, policy, options: Object.freeze({ ...options }), lastRefusal: undefined, validatorSlot: validatorSlot() };
  }

  /** The snapshot of an `outputSchema`, its problems marked as the output schema's. */
  #outputSnapshotOf(toolName: string, schema: object): TSchema {
    try {
      return this.#snapshotOf(toolName, schema);
    } catch (error) {
      if (!(error instanceof ToolDefinitionError)) throw error;
      throw new ToolDefinitionError(toolName, error.problems.map((problem) => ({ ...problem, schema: "outputSchema" as const })));
    }
  }

  #snapshotOf(toolName: string, schema: object): TSchema {
    const text = canonicalJson(schema);
    const known = this.#snapshots.get(schema);
    if (known !== undefined && text !== undefined && known.text === text) return known.snapshot;
    const taken = snapshotSchema(schema);
    if ("problem" in taken) throw new ToolDefinitionError(toolName, [taken.problem]);
    const snapshot = taken.snapshot as TSchema;
    assertSoundSchema(toolName, snapshot, text);
    // Only a schema that names them can hold such subschemas.
    if (text === undefined || text.includes('"unevaluated')) {
      const isolation = isolationProblems(snapshot);
      if (isolation.length > 0) throw new ToolDefinitionError(toolName, isolation.map(({ pointer, problem }) => ({ pointer: pointer || "/", problem })));
    }
    const root = objectRootProblem(snapshot);
    if (root !== undefined) throw new ToolDefinitionError(toolName, [root]);
    if (text !== undefined) this.#snapshots.set(schema, { text, snapshot });
    return snapshot;
  }
}

/** An `outputSchema` that is a schema object of the right kind. */
function checkOutputSchema(name: string, schema: unknown): object {
  const vendor = schemaLibraryVendor(schema);
  if (vendor !== undefined) throw new ToolDefinitionError(name, schemaLibraryProblem(vendor).replace("parameters", "outputSchema"));
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new ToolDefinitionError(name, "outputSchema must be a JSON Schema object");
  return schema;
}

/** A definition's fields, each read once, checked for their kinds. */
interface DefinitionFields {
  readonly name: string;
  readonly description: string;
  readonly parameters: object;
  readonly outputSchema: unknown;
  /** Every own enumerable field (the four above as they read a second time, which the registry never uses). */
  readonly fields: Record<string, unknown>;
}

/**
 * The definition's fields, once they are of the right kinds. Each is read once: a getter that
 * answers otherwise the second time is not asked again, and one that throws (or a revoked proxy)
 * is a definition that cannot be read.
 */
function checkDefinition(definition: ToolDefinition): DefinitionFields {
  if (typeof definition !== "object" || definition === null) {
    throw new ToolDefinitionError("", `the definition must be an object, got ${definition === null ? "null" : typeof definition}`);
  }
  let name: unknown, description: unknown, parameters: unknown, outputSchema: unknown, fields: Record<string, unknown>;
  try {
    ({ name, description, parameters, outputSchema } = definition);
    fields = { ...definition };
  } catch (error) {
    // A revoked proxy, or a getter that throws.
    throw new ToolDefinitionError(typeof name === "string" ? name : "", "the definition cannot be read", { cause: error });
  }
  if (typeof name !== "string" || name.length === 0) throw new ToolDefinitionError(String(name ?? ""), "the name must be a non-empty string");
  if (!TOOL_NAME.test(name)) throw new ToolDefinitionError(name, "the name must be 1 to 128 letters, digits, '_', '-', '.' or ':'");
  if (typeof description !== "string") throw new ToolDefinitionError(name, "the description must be a string");
  const vendor = schemaLibraryVendor(parameters);
  if (vendor !== undefined) throw new ToolDefinitionError(name, schemaLibraryProblem(vendor));
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new ToolDefinitionError(name, "parameters must be a JSON Schema object");
  }
  return { name, description, parameters, outputSchema, fields };
}

/**
 * The vendor of a schema object from another library (Zod, Valibot, ArkType…:
 * all carry Standard Schema's `~standard`): `""` when it names none,
 * `undefined` when `value` is not one. JSON Schema that carries `~standard`
 * hidden (what Zod 4's `z.toJSONSchema` returns) is plain data, and welcome.
 */
function schemaLibraryVendor(value: unknown): string | undefined {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return undefined;
  try {
    if (!("~standard" in value)) return undefined;
    if (isPlainObject(value) && !Object.prototype.propertyIsEnumerable.call(value, "~standard")) return undefined;
    const vendor: unknown = (value as { "~standard"?: { vendor?: unknown } })["~standard"]?.vendor;
    return typeof vendor === "string" && /^[\w.@/-]{1,40}$/.test(vendor) ? vendor : "";
  } catch {
    return undefined; // a hostile object (a revoked proxy): the checks after this one refuse it
  }
}

/** What to say about another library's schema passed as `parameters`: it is not JSON Schema, and how to get JSON Schema from it. */
function schemaLibraryProblem(vendor: string): string {
  const how = new Map([
    ["zod", "for Zod 4, z.toJSONSchema(schema)"],
    ["valibot", "for Valibot, toJsonSchema(schema) from @valibot/to-json-schema"],
    ["arktype", "for ArkType, schema.toJsonSchema()"],
  ]);
  const library = vendor === "" ? "a Standard Schema object" : `a ${vendor} schema (a Standard Schema object)`;
  const example = how.get(vendor) ?? "your schema library's JSON Schema output; for Zod 4, z.toJSONSchema(schema)";
  return `parameters is ${library}, not a JSON Schema: pass its JSON Schema instead (${example})`;
}
