import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TSchema } from "typebox";
import { canonicalJson } from "../canonical.js";
import { ToolDefinitionError } from "../errors.js";
import type { RegisterOptions, ToolRegistry } from "../registry.js";
import type { ToolDefinition, ToolHandler } from "../types.js";
import { isTextItem, McpProtocolError, McpToolError } from "./errors.js";

/** What {@link registerMcpTools} needs of a connected MCP client: the SDK's `Client` has it. */
export type McpToolClient = Pick<Client, "listTools" | "callTool">;

/** Options of {@link registerMcpTools}. */
export interface RegisterMcpToolsOptions {
  /**
   * Prepended to every tool's name in the registry, to keep several servers
   * apart: with `"github."`, the server's `create_issue` is registered as
   * `github.create_issue` (and still called as `create_issue` on the server).
   * @default ""
   */
  prefix?: string;
  /** Time limit of each proxied call, in milliseconds (the registry's `timeoutMs` when unset). */
  timeoutMs?: number;
  /** Aborts the listing. */
  signal?: AbortSignal;
}

/** The tools one {@link registerMcpTools} call put in a registry. */
export interface McpToolRegistration {
  /** The registry names of the proxy tools, in the server's listing order. */
  readonly names: readonly string[];
  /**
   * Lists the server's tools again and brings the registry up to date: new
   * tools are added, tools the server no longer lists are removed, changed
   * ones are replaced. Same as calling {@link registerMcpTools} again.
   */
  refresh(): Promise<McpToolRegistration>;
  /** Removes this registration's proxy tools from the registry; returns how many were removed. */
  unregister(): number;
}

interface ProxyTool {
  readonly client: McpToolClient;
  readonly prefix: string;
  readonly definition: ToolDefinition;
  /** What the registry holds for it once registered (its own frozen copy), to tell whether it is still ours. */
  registered?: ToolDefinition | undefined;
  readonly handler: ToolHandler;
  readonly registerOptions: RegisterOptions;
}

// The proxy tools of each registry, so that listing again replaces them instead of clashing.
const proxiesByRegistry = new WeakMap<ToolRegistry, Map<string, ProxyTool>>();

/**
 * Registers the tools of a connected MCP client in a registry, as proxy tools:
 * each call's arguments are copied and checked locally against the tool's
 * `inputSchema`, then forwarded with `client.callTool` (the handler's
 * `signal` cancels the request). `tools/list` pages are followed to the end.
 *
 * What a proxied call returns: the result's `structuredContent` when there is
 * one; else the text when every content item is text (joined by newlines);
 * else the content array as it arrived. A result with `isError: true` throws
 * an {@link McpToolError}, so `dispatch` rejects with `ToolExecutionError`
 * (and `dispatchAll` reports the server's text to the model).
 *
 * Listing again (this function again, or `refresh()`) replaces this client's
 * tools (same prefix) without duplicate-name errors, and a tool whose schema
 * did not change keeps its schema object, so listing again recompiles
 * nothing. Create the registry with `new ToolRegistry({ cacheKey: "content" })`
 * all the same: MCP schemas arrive as fresh objects, and content keys let
 * identical schemas (the same server reached twice, tools sharing one input
 * shape) share one compiled validator.
 *
 * @returns the registration, to refresh or remove it
 * @throws ToolDefinitionError when a tool's name clashes with a tool registered
 * otherwise, or is not a valid registry name; the registry is then left as it was
 * @throws McpProtocolError when the server repeats a pagination cursor
 * @throws TypeError for a bad `prefix` option, or a `registry` that is not a ToolRegistry
 * @example
 * ```ts
 * const client = new Client({ name: "agent", version: "1.0.0" });
 * await client.connect(transport);
 * const registry = new ToolRegistry({ cacheKey: "content" });
 * const github = await registerMcpTools(registry, client, { prefix: "github." });
 * // later, on notifications/tools/list_changed:
 * await github.refresh();
 * ```
 */
export async function registerMcpTools(registry: ToolRegistry, client: McpToolClient, options: RegisterMcpToolsOptions = {}): Promise<McpToolRegistration> {
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string") throw new TypeError(`prefix must be a string, got ${typeof prefix}`);
  checkRegistry(registry);
  const tools = await listAllTools(client, options.signal);

  const owned = proxiesOf(registry);
  // Forget proxies replaced or removed by hand since: they are no longer this package's to manage.
  for (const [name, proxy] of owned) if (registry.get(name) !== proxy.registered) owned.delete(name);
  const previous = new Map([...owned].filter(([, proxy]) => proxy.client === client && proxy.prefix === prefix));
  const registerOptions: RegisterOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const next = tools.map((tool) => proxyOf(tool, client, prefix, previous.get(prefix + tool.name), registerOptions));
  for (const { definition } of next) {
    if (registry.has(definition.name) && !previous.has(definition.name)) {
      throw new ToolDefinitionError(definition.name, "a tool with this name is already registered");
    }
  }
  replace(registry, previous, next);
  for (const name of previous.keys()) owned.delete(name);
  for (const proxy of next) owned.set(proxy.definition.name, proxy);

  const names = Object.freeze(next.map((proxy) => proxy.definition.name));
  return {
    names,
    refresh: () => registerMcpTools(registry, client, options),
    unregister: () => {
      let removed = 0;
      for (const proxy of next) {
        if (registry.get(proxy.definition.name) !== proxy.registered) continue;
        registry.unregister(proxy.definition.name);
        owned.delete(proxy.definition.name);
        removed++;
      }
      return removed;
    },
  };
}

type ListedTool = Awaited<ReturnType<McpToolClient["listTools"]>>["tools"][number];

async function listAllTools(client: McpToolClient, signal: AbortSignal | undefined): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, signal === undefined ? undefined : { signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) throw new McpProtocolError("The MCP server repeated a tools/list cursor; the listing would never end");
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}

function proxyOf(tool: ListedTool, client: McpToolClient, prefix: string, previous: ProxyTool | undefined, registerOptions: RegisterOptions): ProxyTool {
  const name = prefix + tool.name;
  // An unchanged schema keeps its object, so even an identity-keyed cache finds its validator.
  const before = previous?.definition.parameters;
  const parameters: TSchema = before !== undefined && sameJson(before, tool.inputSchema) ? before : tool.inputSchema;
  const definition: ToolDefinition = { name, description: tool.description ?? "", parameters };
  const remoteName = tool.name;
  const handler: ToolHandler = async (args, { signal }) => {
    const result: unknown = await client.callTool({ name: remoteName, arguments: args as Record<string, unknown> }, undefined, { signal });
    return resultValue(name, result);
  };
  return { client, prefix, definition, handler, registerOptions };
}

/** Unregisters `previous` and registers `next`; on any failure puts `previous` back and rethrows. */
function replace(registry: ToolRegistry, previous: Map<string, ProxyTool>, next: readonly ProxyTool[]): void {
  for (const name of previous.keys()) registry.unregister(name);
  const registered: string[] = [];
  try {
    for (const proxy of next) {
      registry.register(proxy.definition, proxy.handler, proxy.registerOptions);
      proxy.registered = registry.get(proxy.definition.name);
      registered.push(proxy.definition.name);
    }
  } catch (error) {
    for (const name of registered) registry.unregister(name);
    for (const proxy of previous.values()) {
      registry.register(proxy.definition, proxy.handler, proxy.registerOptions);
      proxy.registered = registry.get(proxy.definition.name);
    }
    throw error;
  }
}

/** The value a proxied call resolves with; `isError` results throw {@link McpToolError}. */
function resultValue(toolName: string, result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  const { content, structuredContent, isError, toolResult } = result as Record<string, unknown>;
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  if (content === undefined && toolResult !== undefined) return toolResult;
  const items = Array.isArray(content) ? (content as unknown[]) : [];
  if (isError === true) throw new McpToolError(toolName, items);
  if (structuredContent !== undefined) return structuredContent;
  if (items.length > 0 && items.every(isTextItem)) return items.map((item) => item.text).join("\n");
  return items;
}

function sameJson(a: unknown, b: unknown): boolean {
  const text = canonicalJson(a);
  return text !== undefined && text === canonicalJson(b);
}

function proxiesOf(registry: ToolRegistry): Map<string, ProxyTool> {
  let owned = proxiesByRegistry.get(registry);
  if (owned === undefined) {
    owned = new Map();
    proxiesByRegistry.set(registry, owned);
  }
  return owned;
}

function checkRegistry(registry: ToolRegistry): void {
  if (typeof registry?.register !== "function" || typeof registry.unregister !== "function") throw new TypeError("registry must be a ToolRegistry");
}
