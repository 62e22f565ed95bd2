import type { Static, TSchema } from "typebox";
import type { Validator } from "typebox/compile";
import { copyArguments, CopyRefusal } from "./copy.js";
import { ToolArgumentsValidationError } from "./errors.js";
import { ROOT_ISSUES, toIssues } from "./issues.js";
import type { ToolDefinition } from "./types.js";
import { ValidatorCache } from "./validators.js";

/**
 * Copies `value` privately and checks the copy against `validator`.
 * @returns the checked copy, which nobody else holds
 * @throws ToolArgumentsValidationError
 */
export function copyAndCheck(toolName: string, validator: Validator, value: unknown): unknown {
  if (!isPlainObject(value)) throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  let copy: Record<string, unknown>;
  try {
    copy = copyArguments(value);
  } catch (error) {
    throw new ToolArgumentsValidationError(toolName, [error instanceof CopyRefusal ? error.issue : ROOT_ISSUES.notCloneable]);
  }
  return check(toolName, validator, copy);
}

/**
 * Parses JSON text and checks the result against `validator`. Freshly parsed
 * data has no other holder, so it needs no copy.
 * @throws ToolArgumentsValidationError
 */
export function parseAndCheck(toolName: string, validator: Validator, text: unknown): unknown {
  let value: unknown;
  try {
    if (typeof text !== "string") throw new TypeError("not text");
    value = JSON.parse(text);
  } catch {
    throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notJson]);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolArgumentsValidationError(toolName, [ROOT_ISSUES.notPlainObject]);
  }
  return check(toolName, validator, value);
}

function check(toolName: string, validator: Validator, value: object): unknown {
  let valid: boolean;
  try {
    valid = validator.Check(value);
  } catch (error) {
    throw new ToolArgumentsValidationError(toolName, [error instanceof RangeError ? ROOT_ISSUES.tooDeep : ROOT_ISSUES.notCloneable]);
  }
  if (valid) return value;
  throw new ToolArgumentsValidationError(toolName, issuesOf(validator, value));
}

function issuesOf(validator: Validator, value: object): string[] {
  try {
    const issues = toIssues(validator.Errors(value));
    // A validator that says "invalid" must never be overruled by an empty error list.
    return issues.length > 0 ? issues : ["/: arguments do not match the schema"];
  } catch (error) {
    return [error instanceof RangeError ? ROOT_ISSUES.tooDeep : "/: arguments do not match the schema"];
  }
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

const sharedValidators = new ValidatorCache();

/**
 * Checks `value` against `tool.parameters` and returns a private deep copy of
 * it, typed from the schema. Validators are compiled once per schema object
 * and kept in a shared LRU.
 * @throws ToolArgumentsValidationError when the arguments do not match
 * @throws ToolDefinitionError when the schema cannot compile
 */
export function validateToolArguments<TParameters extends TSchema>(tool: ToolDefinition<TParameters>, value: unknown): Static<TParameters> {
  return copyAndCheck(tool.name, sharedValidators.get(tool.name, tool.parameters), value) as Static<TParameters>;
}

/**
 * Parses `json` (the arguments text a provider delivered) and checks it
 * against `tool.parameters`, with the same rules as {@link validateToolArguments}.
 * @throws ToolArgumentsValidationError when the text is not JSON or does not match
 * @throws ToolDefinitionError when the schema cannot compile
 */
export function parseToolArguments<TParameters extends TSchema>(tool: ToolDefinition<TParameters>, json: string): Static<TParameters> {
  return parseAndCheck(tool.name, sharedValidators.get(tool.name, tool.parameters), json) as Static<TParameters>;
}
