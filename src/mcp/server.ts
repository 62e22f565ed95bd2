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
import type { TSchema } from "typebox";
import { ToolDefinitionError, UnknownToolError } from "../errors.js";
import { isPlainObject } from "../objects.js";
import { isToolContent, type ToolContent } from "../results/content.js";
import { modelItems } from "../results/model-items.js";
import { checkOutput } from "../results/output.js";
import { ValidatorCache } from "../validation/cache.js";
import { isJsonData } from "../results/json-data.js";
import { jsonTextProblem, plainObjectSchema } from "../schema/plain.js";
import { notJsonMessage, valueText } from "../text/result-text.js";
import type { ToolRegistry } from "../registry/registry.js";
import { failureContent } from "../text/results.js";
import type { ToolDefinition } from "../types.js";

/**
 * An MCP server (the SDK's low-level `Server`) that serves the registry's
 * tools. Connect it to any transport: `await server.connect(transport)`.
 *
 * - `tools/list` lists the registry's tools as they are at that moment, each
 *   with `inputSchema` set to its schema as plain JSON (TypeBox's symbol keys
 *   dropped; `type: "object"` added to a root without a type), and
 *   `outputSchema` likewise for a tool that has one. A tool whose schema has
 *   no plain JSON form (a BigInt in an annotation) is left out, and reported as
 *   a `ToolDefinitionError` to the server's `onerror`; a call to it is answered
 *   with `isError: true`, as for a broken definition.
 * - `tools/call` runs the call through `registry.dispatch`, so the arguments
 *   are copied and checked strictly. Invalid arguments, a failing handler, a
 *   timeout or a broken definition give a result with `isError: true` and the
 *   text written for the model (`failureContent`). An unknown tool is a
 *   JSON-RPC error (`InvalidParams`) whose message names the tool and close names.
 * - A string the handler returns is one text item; any other value is one
 *   text item with its JSON, plus `structuredContent` when it is a plain object
 *   (or, for a tool with an `outputSchema`, when its JSON is an object): the
 *   value the registry checked against that schema (a value that is not plain
 *   JSON data is sent as its JSON read back, which is then checked as well). A
 *   result that does not match the tool's `outputSchema` is `isError: true`,
 *   with text saying that the tool ran.
 * - A `toolContent` result's items are sent as they are (images and audio as
 *   base64, resources embedded), followed by the JSON text of its
 *   `structuredContent` unless an item already holds it, as MCP recommends for
 *   clients that read only `content`; its `structuredContent` is sent as well.
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
  server.setRequestHandler(ListToolsRequestSchema, (): ListToolsResult => {
    const tools: ListedTool[] = [];
    for (const definition of registry.list()) {
      const listed = listedTool(definition);
      // One tool that cannot be listed must not hide the others: it is left out, and told to the operator.
      if (listed instanceof ToolDefinitionError) server.onerror?.(listed);
      else tools.push(listed);
    }
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const definition = registry.get(name);
    const unlisted = definition === undefined ? undefined : listingProblem(definition);
    // Not listed, so not served: a client cannot know its schema, and `tools/list` says it is not there.
    if (unlisted !== undefined) return { content: [{ type: "text", text: failureContent(unlisted) }], isError: true };
    let value: unknown;
    try {
      // MCP lets a client leave out `arguments`: that is the empty arguments object.
      value = await registry.dispatch({ type: "tool_call", id: String(extra.requestId), name, arguments: args ?? {} }, { signal: extra.signal });
    } catch (error) {
      // A protocol error, not a tool result: the client asked for a tool this server does not have.
      if (error instanceof UnknownToolError) throw unknownTool(error);
      return { content: [{ type: "text", text: failureContent(error) }], isError: true };
    }
    return successResult(name, String(extra.requestId), value, definition?.outputSchema);
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

type ListedTool = ListToolsResult["tools"][number];

/**
 * A registered tool as `tools/list` lists it (a fresh object: a client may change what it receives),
 * or why it cannot be: a schema that has no plain JSON form (a BigInt in an annotation, which
 * `register` takes).
 */
function listedTool(definition: ToolDefinition): ListedTool | ToolDefinitionError {
  const inputSchema = plainObjectSchema(definition.parameters);
  if ("problem" in inputSchema) return new ToolDefinitionError(definition.name, [inputSchema.problem]);
  const tool: ListedTool = { name: definition.name, description: definition.description, inputSchema: inputSchema.schema as ListedTool["inputSchema"] };
  if (definition.outputSchema === undefined) return tool;
  const outputSchema = plainObjectSchema(definition.outputSchema);
  if ("problem" in outputSchema) return new ToolDefinitionError(definition.name, [{ ...outputSchema.problem, schema: "outputSchema" }]);
  tool.outputSchema = outputSchema.schema as ListedTool["outputSchema"];
  return tool;
}

/**
 * Why a registered tool cannot be listed, or `undefined` when it can: a schema with no JSON text
 * (`register` already refused any other reason {@link listedTool} finds: a root that is not an
 * object schema). Each schema's text is computed once, so a call pays no copy of its schemas.
 */
function listingProblem(definition: ToolDefinition): ToolDefinitionError | undefined {
  const input = jsonTextProblem(definition.parameters);
  if (input !== undefined) return new ToolDefinitionError(definition.name, [input]);
  const output = definition.outputSchema === undefined ? undefined : jsonTextProblem(definition.outputSchema);
  if (output !== undefined) return new ToolDefinitionError(definition.name, [{ ...output, schema: "outputSchema" }]);
  return undefined;
}

/**
 * The result of a call that succeeded. For a tool with an `outputSchema`, the registry checked the
 * handler's value; when that value is not what is sent (an object that is not plain JSON data is
 * sent as its JSON read back), what is sent is checked as well: a `toJSON` or a `Date` must not
 * slip past the check.
 */
function successResult(name: string, toolCallId: string, value: unknown, outputSchema: TSchema | undefined): CallToolResult {
  if (isToolContent(value)) return contentResult(name, toolCallId, value, outputSchema);
  const text = valueText(value);
  if (text === undefined) return { content: [{ type: "text", text: notJsonMessage(name, value) }], isError: true };
  const result: CallToolResult = { content: [{ type: "text", text }] };
  const structured = isPlainObject(value) || outputSchema !== undefined ? structuredOf(value, text) : undefined;
  const mismatch = outputSchema === undefined ? undefined : sentMismatch(name, toolCallId, outputSchema, value, structured);
  if (mismatch !== undefined) return mismatch;
  if (structured !== undefined) result.structuredContent = structured;
  return result;
}

/** A `toolContent` result: its items as they are (MCP's own shapes), then its structured value. */
function contentResult(name: string, toolCallId: string, value: ToolContent, outputSchema: TSchema | undefined): CallToolResult {
  const result: CallToolResult = { content: [...modelItems(value)] };
  if (!("structuredContent" in value)) return result;
  const structured = structuredOf(value.structuredContent, valueText(value.structuredContent));
  const mismatch = outputSchema === undefined ? undefined : sentMismatch(name, toolCallId, outputSchema, value.structuredContent, structured);
  if (mismatch !== undefined) return mismatch;
  if (structured !== undefined) result.structuredContent = structured;
  return result;
}

/** Output validators for what is sent in place of a checked value (rare: a checked value is sent as it is when it can be). */
const sentValidators = new ValidatorCache();

/**
 * The `isError` result for a checked object whose `structuredContent` as sent is another value
 * (its JSON read back, or none) that does not match the output schema: the registry's text for a
 * `ToolResultValidationError`, which says that the tool ran. `undefined` when what is sent is
 * what was checked, or matches too.
 */
function sentMismatch(name: string, toolCallId: string, outputSchema: TSchema, checked: unknown, sent: unknown): CallToolResult | undefined {
  // Only an object passes an object outputSchema, but a result cut to `maxResultBytes` is text: sent as it was.
  if (sent === checked || typeof checked !== "object" || checked === null) return undefined;
  try {
    checkOutput(name, toolCallId, sentValidators.get(name, outputSchema, "outputSchema"), sent);
    return undefined;
  } catch (error) {
    return { content: [{ type: "text", text: failureContent(error) }], isError: true };
  }
}

/**
 * The `structuredContent` of a value whose JSON is `text`: the value itself when it is plain JSON
 * data already (no second copy), else its JSON read back, since a `Date` or a `toJSON` turns an
 * object into something else; `undefined` when that is not a JSON object.
 */
function structuredOf(value: unknown, text: string | undefined): Record<string, unknown> | undefined {
  if (isPlainObject(value) && isJsonData(value)) return value;
  if (text === undefined || typeof value !== "object" || value === null) return undefined;
  const structured: unknown = JSON.parse(text);
  return isPlainObject(structured) ? structured : undefined;
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
