import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TSchema } from "typebox";
import { canonicalJson } from "../schema/canonical.js";
import { ToolDefinitionError } from "../errors.js";
import type { RegisterOptions, ToolRegistry } from "../registry/registry.js";
import type { ToolDefinition, ToolHandler } from "../types.js";
import { isTextItem, McpListLimitError, McpProtocolError, McpToolError } from "./errors.js";

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
  /**
   * Refuse the whole listing when one tool cannot be registered (its name or
   * schema is refused, or its name is taken): the registry is then left as it
   * was. By default that tool is skipped instead, and reported in `skipped`.
   * @default false
   */
  strict?: boolean;
  /**
   * The most `tools/list` pages followed; a server that pages on past it ends
   * the listing with an {@link McpListLimitError}.
   * @default 100
   */
  maxPages?: number;
  /**
   * The most tools taken from one listing; a server that lists more ends the
   * listing with an {@link McpListLimitError}.
   * @default 1000
   */
  maxTools?: number;
}

/** A tool of the server that was not registered, and why. */
export interface McpSkippedTool {
  /** The tool's name as the server lists it. */
  readonly name: string;
  /** Why the registry refused it: the error's message. */
  readonly reason: string;
  /** The registry's refusal. */
  readonly error: ToolDefinitionError;
}

/** The tools one {@link registerMcpTools} call put in a registry. */
export interface McpToolRegistration {
  /** The registry names of the proxy tools, in the server's listing order. */
  readonly names: readonly string[];
  /**
   * The server's tools that were not registered (a name or schema the
   * registry refuses, or a name already taken), each with the reason. Always
   * empty with `strict: true`, which throws instead.
   */
  readonly skipped: readonly McpSkippedTool[];
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
  /** The tool's name on the server. */
  readonly remoteName: string;
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
 * A server you did not write may list a tool the registry refuses (a `/` or
 * a space in its name, `{ type: "int" }` in its schema, a dangling `$ref`):
 * that tool is skipped and reported in `skipped`, and the others are
 * registered. With `strict: true`, it fails the whole listing instead.
 *
 * @returns the registration, to refresh or remove it
 * @throws ToolDefinitionError (only with `strict: true`) for the first tool the
 * registry refuses; the registry is then left as it was
 * @throws McpProtocolError when the server repeats a pagination cursor
 * @throws McpListLimitError when the listing runs past `maxPages` pages or `maxTools` tools
 * @throws TypeError for a bad `prefix`, `maxPages` or `maxTools` option, or a `registry` that is not a ToolRegistry
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
  const limits = { maxPages: positiveInteger("maxPages", options.maxPages ?? DEFAULT_MAX_PAGES), maxTools: positiveInteger("maxTools", options.maxTools ?? DEFAULT_MAX_TOOLS) };
  checkRegistry(registry);
  const tools = await listAllTools(client, options.signal, limits);

  const owned = proxiesOf(registry);
  // Forget proxies replaced or removed by hand since: they are no longer this package's to manage.
  for (const [name, proxy] of owned) if (registry.get(name) !== proxy.registered) owned.delete(name);
  const previous = new Map([...owned].filter(([, proxy]) => proxy.client === client && proxy.prefix === prefix));
  const registerOptions: RegisterOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const candidates = tools.map((tool) => proxyOf(tool, client, prefix, previous.get(prefix + tool.name), registerOptions));
  const { registered: next, skipped } = replace(registry, previous, candidates, options.strict === true);
  for (const name of previous.keys()) owned.delete(name);
  for (const proxy of next) owned.set(proxy.definition.name, proxy);

  const names = Object.freeze(next.map((proxy) => proxy.definition.name));
  return {
    names,
    skipped: Object.freeze(skipped),
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

const DEFAULT_MAX_PAGES = 100;
const DEFAULT_MAX_TOOLS = 1000;

async function listAllTools(client: McpToolClient, signal: AbortSignal | undefined, limits: { maxPages: number; maxTools: number }): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, signal === undefined ? undefined : { signal });
    pages++;
    tools.push(...page.tools);
    if (tools.length > limits.maxTools) throw new McpListLimitError("maxTools", limits.maxTools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) throw new McpProtocolError("The MCP server repeated a tools/list cursor; the listing would never end");
      if (pages >= limits.maxPages) throw new McpListLimitError("maxPages", limits.maxPages);
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}

function positiveInteger(option: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`${option} must be a positive integer, got ${String(value)}`);
  return value;
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
  return { remoteName, client, prefix, definition, handler, registerOptions };
}

/**
 * Unregisters `previous` and registers each of `next`. A tool the registry
 * refuses is skipped and reported, or with `strict` (and on any other
 * failure) `previous` is put back and the error rethrown.
 */
function replace(
  registry: ToolRegistry,
  previous: Map<string, ProxyTool>,
  next: readonly ProxyTool[],
  strict: boolean,
): { registered: ProxyTool[]; skipped: McpSkippedTool[] } {
  for (const name of previous.keys()) registry.unregister(name);
  const registered: ProxyTool[] = [];
  const skipped: McpSkippedTool[] = [];
  try {
    for (const proxy of next) {
      try {
        registry.register(proxy.definition, proxy.handler, proxy.registerOptions);
        proxy.registered = registry.get(proxy.definition.name);
        registered.push(proxy);
      } catch (error) {
        if (strict || !(error instanceof ToolDefinitionError)) throw error;
        skipped.push({ name: proxy.remoteName, reason: error.message, error });
      }
    }
  } catch (error) {
    for (const proxy of registered) registry.unregister(proxy.definition.name);
    for (const proxy of previous.values()) {
      registry.register(proxy.definition, proxy.handler, proxy.registerOptions);
      proxy.registered = registry.get(proxy.definition.name);
    }
    throw error;
  }
  return { registered, skipped };
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
