import { ToolDefinitionError, ToolResultValidationError } from "../errors.js";
import type { CompiledValidator } from "../validation/cache.js";
import { isToolContent } from "./content.js";
import { readsAsJson } from "./json-data.js";

const UNCHECKED = "/: the result could not be checked against the output schema";
const MISMATCH = "/: the result does not match the output schema";

/**
 * Checks a handler's result against its tool's `outputSchema`: the value itself, or a
 * `toolContent` result's `structuredContent` (a rich result without one does not match), as it
 * reaches the model: its JSON, when it is not plain JSON data already (a class instance whose
 * getters JSON does not read, a `toJSON`, a `Date`). A value with no JSON is checked as it is.
 * @throws ToolResultValidationError with pointer issues, never values, when it does not match
 * @throws ToolDefinitionError when the output schema cannot compile
 */
export function checkOutput(toolName: string, toolCallId: string, validator: CompiledValidator, value: unknown): void {
  const result = isToolContent(value) ? value.structuredContent : value;
  let checked = result;
  if (!readsAsJson(result, false)) {
    const form = jsonFormOf(result);
    if (form !== NO_JSON) checked = form;
  }
  let valid: boolean;
  try {
    valid = validator.Check(checked);
  } catch (error) {
    // The output schema compiles on its second use: a schema that cannot is the definition's fault, not the result's.
    if (error instanceof ToolDefinitionError) throw error;
    throw new ToolResultValidationError(toolName, toolCallId, [UNCHECKED]);
  }
  if (valid) return;
  let issues: string[];
  try {
    issues = validator.explain(checked);
  } catch {
    issues = [MISMATCH];
  }
  throw new ToolResultValidationError(toolName, toolCallId, issues);
}

/** What {@link jsonFormOf} returns for a value with no JSON text. */
const NO_JSON: unique symbol = Symbol("no JSON");

/** What a value reaches the model as: the parse of its JSON text, or {@link NO_JSON}. */
function jsonFormOf(value: unknown): unknown {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? JSON.parse(text) : NO_JSON;
  } catch {
    return NO_JSON;
  }
}
