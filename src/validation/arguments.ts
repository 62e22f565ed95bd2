import type { Static, TSchema } from "typebox";
import { copyArguments, CopyRefusal, isPlainArguments } from "./copy.js";
import type { FusedCopy } from "./fused.js";
import type { JsonReader } from "./json-reader.js";
import { type FusedState, NOT_PLAIN } from "./fused-runtime.js";
import { ToolArgumentsValidationError, ToolDefinitionError, ToolHookError } from "../errors.js";
import { ROOT_ISSUES } from "../text/issues.js";
import { snapshotSchema } from "../schema/snapshot.js";
import type { ArgumentRepair } from "../types.js";
import { repairArguments } from "./repair.js";
import type { ToolDefinition } from "../types.js";
import { type CompiledValidator, ValidatorCache } from "./cache.js";

/**
 * Copies `value` privately and checks the copy against `validator`.
 * @returns the checked copy, which nobody else holds
 * @throws ToolArgumentsValidationError
 */
function copyAndCheck(toolName: string, validator: CompiledValidator, value: unknown): unknown {
  return checkArguments(toolName, validator, privateCopy(toolName, value));
}

/**
 * A private deep copy of object arguments made by a schema's fused copy-and-check, its verdict in
 * `state`: the same copy and the same refusals as {@link privateCopy}.
 * @throws ToolArgumentsValidationError when the value is not a plain object or cannot be copied
 */
export function fusedPrivateCopy(toolName: string, fused: FusedCopy, value: unknown, state: FusedState): Record<string, unknown> {
  // The fused function checks the prototype itself, where it costs less (see `fusedSource`).
  if (typeof value !== "object" || value === null) throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  let copy: Record<string, unknown>;
  try {
    copy = fused(value, state);
  } catch (error) {
    throw new ToolArgumentsValidationError(toolName, [error instanceof CopyRefusal ? error.issue : ROOT_ISSUES.notCloneable]);
  }
  if (copy === NOT_PLAIN) throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  return copy;
}

/**
 * A private deep copy of object arguments, which nobody else holds.
 * @throws ToolArgumentsValidationError when the value is not a plain object or cannot be copied
 */
export function privateCopy(toolName: string, value: unknown): Record<string, unknown> {
  if (!isPlainArguments(value)) throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  try {
    return copyArguments(value);
  } catch (error) {
    throw new ToolArgumentsValidationError(toolName, [error instanceof CopyRefusal ? error.issue : ROOT_ISSUES.notCloneable]);
  }
}

/** The default bound on JSON arguments text: 16 MiB of UTF-8. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 16 * 1024 * 1024;

/**
 * Parses JSON text and checks the result against `validator`. Freshly parsed
 * data has no other holder, so it needs no copy. Text over `maxBytes` (UTF-8)
 * is refused before it is parsed.
 * @throws ToolArgumentsValidationError
 */
function parseAndCheck(toolName: string, validator: CompiledValidator, text: unknown, maxBytes = DEFAULT_MAX_ARGUMENT_BYTES): unknown {
  return checkArguments(toolName, validator, parsedArguments(toolName, text, maxBytes, typeof text === "string" ? validator.reader : undefined));
}

/**
 * The arguments object JSON text holds (freshly parsed, so private), read only when the text is
 * within `maxBytes` of UTF-8.
 * @param reader the schema's JSON reader, which reads what it can of the text as `JSON.parse` would, faster
 * @throws ToolArgumentsValidationError when the text is too large, not JSON, or not an object
 */
export function parsedArguments(toolName: string, text: unknown, maxBytes: number, reader?: JsonReader): object {
  if (typeof text !== "string") throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notJson]);
  if (exceedsUtf8Bytes(text, maxBytes)) throw new ToolArgumentsValidationError(toolName, [`/: arguments must not be larger than ${maxBytes} bytes`]);
  if (reader !== undefined) {
    let read: object | undefined;
    try {
      read = reader(text);
    } catch {
      // Out of stack, called near its end with a deeply nested text: JSON.parse needs none.
      read = undefined;
    }
    if (read !== undefined) return read;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notJson]);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  }
  return value;
}

/**
 * The failure path of an opt-in repair: converts what is unambiguous in the private value that
 * failed its check (it passed every gate before the check: size, JSON, copy), and checks again.
 * @param maxParseBytes the most UTF-8 bytes of JSON text inside the value that repair may parse,
 * all texts together (the registry's `maxArgumentBytes`)
 * @returns the repaired value and its repairs, or `undefined` when nothing
 * could be repaired or the repaired value still fails (the original error stands)
 */
export function repairAndCheck(validator: CompiledValidator, schema: object, value: object, maxParseBytes: number): { value: unknown; repairs: ArgumentRepair[] } | undefined {
  try {
    const repaired = repairArguments(schema, value, { maxParseBytes });
    if (repaired.repairs.length === 0 || !validator.Check(repaired.value)) return undefined;
    return repaired;
  } catch {
    return undefined;
  }
}

/** How a check of a private value ended: valid, invalid, or unfinished (the check threw before it could decide: the value is nested deeper than the stack allows, or a refinement threw). */
export const CheckOutcome = { Valid: 0, Invalid: 1, Unfinished: 2 } as const;
/** One of {@link CheckOutcome}'s values. */
export type CheckOutcome = (typeof CheckOutcome)[keyof typeof CheckOutcome];

/**
 * Checks a private value of the arguments.
 * @throws ToolDefinitionError when the schema cannot compile (its check compiles on its second use)
 */
export function checkValue(validator: CompiledValidator, value: object): CheckOutcome {
  try {
    return validator.Check(value) ? CheckOutcome.Valid : CheckOutcome.Invalid;
  } catch (error) {
    if (error instanceof ToolDefinitionError) throw error;
    return CheckOutcome.Unfinished;
  }
}

/**
 * Checks a private value of the arguments against `validator`.
 * @returns the value itself
 * @throws ToolArgumentsValidationError with the issues, when it does not match
 */
export function checkArguments(toolName: string, validator: CompiledValidator, value: object): unknown {
  const outcome = checkValue(validator, value);
  if (outcome === CheckOutcome.Valid) return value;
  throw refusal(toolName, validator, value, outcome);
}

/**
 * Arguments a hook gave, as a checked private copy.
 * @throws ToolHookError with the issues, when they are not plain data or do not match
 */
export function recheckArguments(toolName: string, validator: CompiledValidator, value: unknown): unknown {
  try {
    return checkArguments(toolName, validator, privateCopy(toolName, value));
  } catch (error) {
    if (error instanceof ToolArgumentsValidationError) throw new ToolHookError(toolName, { issues: error.issues });
    throw error;
  }
}

/** Values nested at least this deep, when a check could not finish, are reported as nested too deeply. */
const DEEP_NESTING = 1_000;

/** The error that refuses a value the check did not accept: the explained issues, or why the check could not finish. */
export function refusal(toolName: string, validator: CompiledValidator, value: object, outcome: typeof CheckOutcome.Invalid | typeof CheckOutcome.Unfinished): ToolArgumentsValidationError {
  return new ToolArgumentsValidationError(toolName, refusalIssues(validator, value, outcome));
}

/** The issues of {@link refusal}: why the check refused `value` (or could not finish). */
export function refusalIssues(validator: CompiledValidator, value: object, outcome: typeof CheckOutcome.Invalid | typeof CheckOutcome.Unfinished): string[] {
  if (outcome === CheckOutcome.Unfinished) return [nestedAtLeast(value, DEEP_NESTING) ? ROOT_ISSUES.tooDeep : ROOT_ISSUES.unchecked];
  try {
    return validator.explain(value);
  } catch {
    // The verdict is the validator's: an explanation that fails still refuses the call.
    return [ROOT_ISSUES.mismatch];
  }
}

/**
 * Whether `value` holds objects or arrays nested `depth` deep (a cycle nests without end), found
 * without recursion and within a bounded number of visits.
 */
function nestedAtLeast(value: unknown, depth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let visits = 0; pending.length > 0 && visits < 1_000_000; visits++) {
    const [node, level] = pending.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (level >= depth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (typeof child === "object" && child !== null) pending.push([child, level + 1]);
  }
  return false;
}

/** Whether `text` takes more than `maxBytes` bytes in UTF-8, counted only as far as needed. */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  // A UTF-16 code unit takes 1 to 3 bytes in UTF-8 (a surrogate pair, two units, takes 4).
  if (text.length * 3 <= maxBytes) return false;
  if (text.length > maxBytes) return true;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
    if (bytes > maxBytes) return true;
  }
  return false;
}
const sharedValidators = new ValidatorCache();

/**
 * The private, deeply frozen snapshot of each `parameters` object given to
 * {@link validateToolArguments} and {@link parseToolArguments}, keyed by that object: taken and
 * found sound on its first use, and the only schema checked from then on, so that later changes to
 * the caller's object change nothing (as for `register`).
 */
const parameterSnapshots = new WeakMap<object, TSchema>();

/** The `parameters` object looked up last, and its snapshot: a loop over one tool skips the WeakMap. */
let lastParameters: object | undefined;
let lastSnapshot: TSchema | undefined;

/**
 * The name of a tool given without a registry.
 * @throws ToolDefinitionError for a definition that is not an object, cannot be read, or whose name is not a string
 */
function toolNameOf(tool: unknown): string {
  if (typeof tool !== "object" || tool === null) throw new ToolDefinitionError("", `the definition must be an object, got ${tool === null ? "null" : typeof tool}`);
  let name: unknown;
  try {
    name = (tool as { name?: unknown }).name;
  } catch (error) {
    throw new ToolDefinitionError("", "the definition cannot be read", { cause: error });
  }
  if (typeof name !== "string") throw new ToolDefinitionError("", `the name must be a string, got ${typeof name}`);
  return name;
}

/**
 * The validator of a tool's `parameters`, given without a registry: on the first use of a
 * `parameters` object, its snapshot is taken and found sound (a broken schema throws, and is
 * checked again on its next use); later uses look the snapshot up by the object.
 * @throws ToolDefinitionError when the definition cannot be read, or its schema is not an object, cannot be
 * snapshot, or is not sound
 */
function validatorOf(toolName: string, tool: object): CompiledValidator {
  let parameters: unknown;
  try {
    parameters = (tool as { parameters?: unknown }).parameters;
  } catch (error) {
    throw new ToolDefinitionError(toolName, "the definition cannot be read", { cause: error });
  }
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
    throw new ToolDefinitionError(toolName, "parameters must be a JSON Schema object");
  }
  if (parameters === lastParameters) return sharedValidators.get(toolName, lastSnapshot!);
  const known = parameterSnapshots.get(parameters);
  if (known !== undefined) {
    lastParameters = parameters;
    lastSnapshot = known;
    return sharedValidators.get(toolName, known);
  }
  const taken = snapshotSchema(parameters);
  if ("problem" in taken) throw new ToolDefinitionError(toolName, [taken.problem]);
  const snapshot = taken.snapshot as TSchema;
  // Checks the snapshot (and compiles it lazily): only a sound snapshot is kept.
  const validator = sharedValidators.get(toolName, snapshot);
  parameterSnapshots.set(parameters, snapshot);
  return validator;
}

/**
 * Checks `value` against `tool.parameters` and returns a private deep copy of
 * it, typed from the schema. The schema is snapshot and checked on the first use of its object
 * (later changes to that object change nothing); validators are compiled once per schema and
 * kept in a shared LRU.
 * @throws ToolArgumentsValidationError when the arguments do not match
 * @throws ToolDefinitionError when the definition is not an object with a string `name`, or its
 * schema is not a sound JSON Schema object or cannot compile
 */
export function validateToolArguments<TParameters extends TSchema>(tool: ToolDefinition<TParameters>, value: unknown): Static<TParameters> {
  const name = toolNameOf(tool);
  return copyAndCheck(name, validatorOf(name, tool), value) as Static<TParameters>;
}

/**
 * Parses `json` (the arguments text a provider delivered) and checks it
 * against `tool.parameters`, with the same rules as {@link validateToolArguments}.
 * @throws ToolArgumentsValidationError when the text is not JSON or does not match
 * @throws ToolDefinitionError when the definition is not an object with a string `name`, or its
 * schema is not a sound JSON Schema object or cannot compile
 */
export function parseToolArguments<TParameters extends TSchema>(tool: ToolDefinition<TParameters>, json: string): Static<TParameters> {
  const name = toolNameOf(tool);
  return parseAndCheck(name, validatorOf(name, tool), json, DEFAULT_MAX_ARGUMENT_BYTES) as Static<TParameters>;
}
