import { ToolApprovalRequiredError, ToolDeniedError } from "../errors.js";
import type { ToolResult } from "../types.js";

/**
 * What `dispatch` resolves to for a call's result, or rejects with: the value, the failure's typed
 * error, or the error that says the call awaits approval or was declined.
 */
export function resultValue(result: ToolResult): unknown {
  switch (result.status) {
    case "ok":
      return result.value;
    case "error":
      throw result.error;
    case "approval-required":
      throw new ToolApprovalRequiredError(result.request);
    case "denied":
      throw new ToolDeniedError(result.toolName, result.content);
  }
}
