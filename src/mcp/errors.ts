import { ToolRegistryError } from "../errors.js";

const MAX_MESSAGE_CHARACTERS = 1000;

/**
 * An MCP server answered a proxied tool call with `isError: true`. The proxy
 * handler throws it, so `dispatch` rejects with a `ToolExecutionError` whose
 * `cause` is this error and whose message carries the server's text.
 */
export class McpToolError extends ToolRegistryError {
  override readonly name = "McpToolError";
  /** The tool's name in the registry (with any prefix). */
  readonly toolName: string;
  /** The content the server returned with the error, as it arrived. */
  readonly content: readonly unknown[];

  constructor(toolName: string, content: readonly unknown[]) {
    super(errorText(content));
    this.toolName = toolName;
    this.content = Object.freeze([...content]);
  }
}

/**
 * An MCP server answered in a way tools cannot be taken from: a
 * `tools/list` page that repeats an earlier pagination cursor.
 */
export class McpProtocolError extends ToolRegistryError {
  override readonly name = "McpProtocolError";
}

function errorText(content: readonly unknown[]): string {
  const text = content
    .map((item) => (isTextItem(item) ? item.text : ""))
    .filter((part) => part !== "")
    .join("\n");
  if (text === "") return "the MCP server reported an error";
  return text.length > MAX_MESSAGE_CHARACTERS ? `${text.slice(0, MAX_MESSAGE_CHARACTERS)}…` : text;
}

/** Whether an MCP content item is `{ type: "text", text }`. */
export function isTextItem(item: unknown): item is { type: "text"; text: string } {
  return typeof item === "object" && item !== null && (item as { type?: unknown }).type === "text" && typeof (item as { text?: unknown }).text === "string";
}
