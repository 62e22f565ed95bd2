import { Server, type ServerOptions } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  type Implementation,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { UnknownToolError } from "../errors.js";
import { isPlainObject } from "../objects.js";
import { plainObjectSchema } from "../schema/plain.js";
import { notJsonMessage, valueText } from "../text/result-text.js";
import type { ToolRegistry } from "../registry/registry.js";
import { failureContent } from "../text/results.js";
import { describeName } from "../text/describe.js";
import type { ToolDefinition } from "../types.js";

/**
 * An MCP server (the SDK's low-level `Server`) that serves the registry's
 * tools. Connect it to any transport: `await server.connect(transport)`.
 *
 * - `tools/list` lists the registry's tools as they are at that moment, each
 *   with `inputSchema` set to its schema as plain JSON (TypeBox's symbol keys
 *   dropped; `type: "object"` added to a root without a type).
 * - `tools/call` runs the call through `registry.dispatch`, so the arguments
 *   are copied and checked strictly. Invalid arguments, a failing handler, a
 *   timeout or a broken definition give a result with `isError: true` and the
 *   text written for the model (`failureContent`). An unknown tool is a
 *   JSON-RPC error (`InvalidParams`) whose message names the tool and close names.
 * - A string the handler returns is one text item; any other value is one
 *   text item with its JSON, plus `structuredContent` when it is a plain object.
 *
 * The server declares `tools: { listChanged: true }` and keeps it: while
 * connected, it sends `notifications/tools/list_changed` whenever a tool is
 * registered in or unregistered from the registry (a burst of changes in one
 * turn of the event loop sends one). It stops listening to the registry when
 * its transport closes, so a server per request (stateless HTTP) is released
 * with its request.
 *
 * @param info the server's `{ name, version }` as clients see it
 * @param options the SDK's server options (capabilities, instructions…); the tools capability is added
 * @example
 * ```ts
 * const server = createMcpServer(registry, { name: "files", version: "1.0.0" });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(registry: ToolRegistry, info: Implementation, options: ServerOptions = {}): Server {
  if (typeof registry?.list !== "function" || typeof registry.dispatch !== "function" || typeof registry.onChange !== "function") {
    throw new TypeError("registry must be a ToolRegistry");
  }
  const server = new RegistryServer(registry, info, {
    ...options,
    capabilities: { ...options.capabilities, tools: { ...options.capabilities?.tools, listChanged: true } },
    debouncedNotificationMethods: [...(options.debouncedNotificationMethods ?? []), TOOL_LIST_CHANGED],
  });
  server.setRequestHandler(ListToolsRequestSchema, (): ListToolsResult => ({ tools: registry.list().map(listedTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    let value: unknown;
    try {
      // MCP lets a client leave out `arguments`: that is the empty arguments object.
      value = await registry.dispatch({ type: "tool_call", id: String(extra.requestId), name, arguments: args ?? {} }, { signal: extra.signal });
    } catch (error) {
      // A protocol error, not a tool result: the client asked for a tool this server does not have.
      if (error instanceof UnknownToolError) throw unknownTool(error);
      return { content: [{ type: "text", text: failureContent(error) }], isError: true };
    }
    return successResult(name, value);
  });
  return server;
}

const TOOL_LIST_CHANGED = "notifications/tools/list_changed";

/** The SDK's `Server`, told of the registry's changes while it is connected. */
class RegistryServer extends Server {
  readonly #registry: ToolRegistry;

  constructor(registry: ToolRegistry, info: Implementation, options: ServerOptions) {
    super(info, options);
    this.#registry = registry;
  }

  /** Connects as the SDK does, and listens to the registry until the transport closes. */
  override async connect(transport: Transport): Promise<void> {
    const stopListening = this.#registry.onChange(() => {
      // Not connected yet, or already closed: nobody to tell. A failed send is the transport's to report.
      if (this.transport !== undefined) this.sendToolListChanged().catch(() => {});
    });
    // The SDK keeps a transport's existing onclose and calls it first when the transport closes.
    const onclose = transport.onclose;
    transport.onclose = () => {
      stopListening();
      onclose?.();
    };
    try {
      await super.connect(transport);
    } catch (error) {
      stopListening();
      throw error;
    }
  }
}

function listedTool(definition: ToolDefinition): ListToolsResult["tools"][number] {
  const plain = plainObjectSchema(definition.parameters);
  if ("problem" in plain) {
    throw protocolError(ErrorCode.InternalError, `Tool ${describeName(definition.name)} cannot be listed: at ${plain.problem.pointer}, ${plain.problem.problem}`);
  }
  return { name: definition.name, description: definition.description, inputSchema: plain.schema as ListToolsResult["tools"][number]["inputSchema"] };
}

function successResult(name: string, value: unknown): CallToolResult {
  const text = valueText(value);
  if (text === undefined) return { content: [{ type: "text", text: notJsonMessage(name, value) }], isError: true };
  const result: CallToolResult = { content: [{ type: "text", text }] };
  if (isPlainObject(value)) {
    // The JSON of the value, not the value: a toJSON may turn an object into something else.
    const structured: unknown = JSON.parse(text);
    if (isPlainObject(structured)) result.structuredContent = structured;
  }
  return result;
}

function unknownTool(error: UnknownToolError): Error {
  return protocolError(ErrorCode.InvalidParams, error.message, { toolName: error.toolName, suggestions: [...error.suggestions] });
}

/**
 * An error the SDK sends as a JSON-RPC error with this code, message and data.
 * (An `McpError` would put "MCP error <code>:" into the message, and the
 * client's `McpError` would then say it twice.)
 */
function protocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}
