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
 * An MCP server answered in a way tools cannot be taken from: a `tools/list` page with no list of
 * tools, or with a pagination cursor that is not a string, is longer than 65,536 characters or
 * repeats an earlier one; a `tools/call` result whose `content` is not a list; or (the subclass
 * {@link McpListLimitError}) a listing longer than allowed.
 */
export class McpProtocolError extends ToolRegistryError {
  override readonly name: string = "McpProtocolError";
}

/**
 * An MCP server's `tools/list` ran past `registerMcpTools`'s `maxPages` or
 * `maxTools`: a server that hands out new cursors forever, or lists more
 * tools than an agent can use. The registry was left as it was.
 */
export class McpListLimitError extends McpProtocolError {
  override readonly name = "McpListLimitError";
  /** The option whose limit was reached. */
  readonly option: "maxPages" | "maxTools";
  /** Its value. */
  readonly limit: number;

  constructor(option: "maxPages" | "maxTools", limit: number) {
    const what = option === "maxPages" ? `${limit} pages` : `${limit} tools`;
    super(`The MCP server's tools/list went past ${what} (${option}); the registry was left as it was. Raise ${option} if the server really lists that much.`);
    this.option = option;
    this.limit = limit;
  }
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
