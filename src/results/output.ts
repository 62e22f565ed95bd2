import { ToolDefinitionError, ToolResultValidationError } from "../errors.js";
import type { CompiledValidator } from "../validation/cache.js";
import { isToolContent } from "./content.js";

const UNCHECKED = "/: the result could not be checked against the output schema";
const MISMATCH = "/: the result does not match the output schema";

/**
 * Checks a handler's result against its tool's `outputSchema`: the value itself, or a
 * `toolContent` result's `structuredContent` (a rich result without one does not match).
 * @throws ToolResultValidationError with pointer issues, never values, when it does not match
 * @throws ToolDefinitionError when the output schema cannot compile
 */
export function checkOutput(toolName: string, toolCallId: string, validator: CompiledValidator, value: unknown): void {
  const checked = isToolContent(value) ? value.structuredContent : value;
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
