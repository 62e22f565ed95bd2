import { describeName, describeType } from "./describe.js";
import { approvalRequiredMessage } from "../errors.js";
import type { ToolResult } from "../types.js";
import type { ModelNames } from "./model-names.js";

/** A tool result as text for the model, and whether it reports a failure. */
interface ResultText {
  text: string;
  isError: boolean;
}

/**
 * The text a provider's tool-result message carries:
 * - a failure: its `content`, written for the model;
 * - a declined call: its `content` (not a failure);
 * - a call waiting for approval: that it has not run yet (not a failure);
 * - a string the handler returned: that string;
 * - `undefined` (the handler returned nothing): empty text;
 * - anything else: its JSON text.
 *
 * A value with no JSON text (a BigInt, a cycle, a function) becomes a failure
 * that names the value's type, never the value. (It answers one call, so it
 * need not name the tool: the registry's name may not be the one the model knows.)
 * @param names the names the model was sent, when the tools went through a name map: a declined
 * call and one waiting for approval name the tool by its name there
 */
export function resultText(result: ToolResult, names?: Pick<ModelNames, "providerNameOf">): ResultText {
  if (result.isError) return { text: result.content, isError: true };
  const shown = names?.providerNameOf(result.toolName);
  if (result.status === "denied") {
    // Its text names the tool first (a reason given after it may repeat the name): that first mention is the one to change.
    const text = shown === undefined ? result.content : result.content.replace(describeName(result.toolName), () => describeName(shown));
    return { text, isError: false };
  }
  if (result.status === "approval-required") return { text: approvalRequiredMessage(shown ?? result.toolName), isError: false };
  const text = valueText(result.value);
  if (text !== undefined) return { text, isError: false };
  return { text: notJsonMessage(undefined, result.value), isError: true };
}

/**
 * The text of a handler's return value: a string as is, `undefined` as empty
 * text, anything else as JSON. `undefined` when the value has no JSON text.
 */
export function valueText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The model-facing text for a return value that cannot be sent as JSON, naming the tool if given. */
export function notJsonMessage(toolName: string | undefined, value: unknown): string {
  const tool = toolName === undefined ? "The tool" : `Tool ${describeName(toolName)}`;
  return `${tool} returned a value that cannot be sent as JSON (${describeType(value)}).`;
}
