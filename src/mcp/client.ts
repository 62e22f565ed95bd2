import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TSchema } from "typebox";
import { canonicalJson } from "../schema/canonical.js";
import { NEVER_ABORTED_SIGNAL } from "../dispatch/context.js";
import { ToolDefinitionError } from "../errors.js";
import { isPlainObject, isRecord } from "../objects.js";
import { readsAsJson } from "../results/json-data.js";
import { checkRegistry, describeOption, everyOption, MAX_TIMER_MS, milliseconds, optionalSignal, positiveInteger, refuseUnknownOptions } from "../options.js";
import { isToolNamePrefix } from "../registry/definitions.js";
import type { RegisterOptions, ToolRegistry } from "../registry/registry.js";
import type { ToolDefinition, ToolHandler } from "../types.js";
import { isTextItem, McpListLimitError, McpProtocolError, McpToolError } from "./errors.js";
import { remoteToolContent } from "./remote-content.js";

/**
 * What {@link registerMcpTools} needs of a connected MCP client: the SDK's `Client` has it. When
 * the client has `request` (the SDK's `Client` does), tools are listed and called through it, with
 * the SDK's loosest result schema, so that this library alone reads what the server sent: the
 * SDK's `listTools` refuses a whole listing for one tool its types refuse (or one output schema
 * its validator cannot compile) and drops `__proto__` keys from schemas, and its `callTool` throws
 * for a result that does not match or holds a content item of a newer kind, which would hide that
 * the tool ran. (The SDK still reads each message's envelope: an answer whose `_meta` it refuses is
 * dropped.) Without `request`, `listTools` and `callTool` are used. Either way, a proxied call is
 * sent with no SDK time limit of its own: the registry's `timeoutMs` ends it.
 */
export type McpToolClient = Pick<Client, "listTools" | "callTool"> & Partial<Pick<Client, "request">>;

/** Options of {@link registerMcpTools}. */
export interface RegisterMcpToolsOptions {
  /**
   * Prepended to every tool's name in the registry, to keep several servers
   * apart: with `"github."`, the server's `create_issue` is registered as
   * `github.create_issue` (and still called as `create_issue` on the server).
   * Tool names are 1 to 128 letters, digits, `_`, `-`, `.` or `:`, so a prefix
   * is at most 127 of them.
   * @default ""
   */
  prefix?: string | undefined;
  /**
   * Time limit of each proxied call, in milliseconds (the registry's `timeoutMs` when unset): the
   * only one, since the SDK's own 60 s limit is lifted for proxied calls. A call past it fails with
   * a `ToolTimeoutError` and its request is cancelled (`notifications/cancelled`).
   */
  timeoutMs?: number | undefined;
  /** Aborts this first listing (a `refresh()` takes a signal of its own); nothing is registered then. */
  signal?: AbortSignal | undefined;
  /**
   * Refuse the whole listing when one tool cannot be registered (its name or
   * schema is refused, or its name is taken): the registry is then left as it
   * was. By default that tool is skipped instead, and reported in `skipped`.
   * @default false
   */
  strict?: boolean | undefined;
  /**
   * The most `tools/list` pages followed; a server that pages on past it ends
   * the listing with an {@link McpListLimitError}.
   * @default 100
   */
  maxPages?: number | undefined;
  /**
   * The most tools taken from one listing; a server that lists more ends the
   * listing with an {@link McpListLimitError}.
   * @default 1000
   */
  maxTools?: number | undefined;
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

/** Every option of {@link registerMcpTools}: it refuses any other (a misspelt one). */
const REGISTER_MCP_OPTIONS = everyOption<RegisterMcpToolsOptions>()(["prefix", "timeoutMs", "signal", "strict", "maxPages", "maxTools"]);

/** Every option of {@link McpToolRegistration.refresh}. */
const REFRESH_MCP_OPTIONS = everyOption<RefreshMcpToolsOptions>()(["signal"]);

/** Options of {@link McpToolRegistration.refresh}. */
export interface RefreshMcpToolsOptions {
  /** Aborts this listing; the registry is then left as it was. */
  signal?: AbortSignal | undefined;
}

/**
 * The tools one {@link registerMcpTools} call put in a registry, kept up to
 * date by `refresh()`. It looks after its own proxy tools only: a tool that
 * other code unregistered, or registered anew under the same name, is no
 * longer its to refresh or remove.
 */
export interface McpToolRegistration {
  /** The registry names of the proxy tools, in the server's listing order, as of the last listing. */
  readonly names: readonly string[];
  /**
   * The server's tools that the last listing did not register (a name or
   * schema the registry refuses, or a name already taken), each with the
   * reason. Always empty with `strict: true`, which throws instead.
   */
  readonly skipped: readonly McpSkippedTool[];
  /**
   * Lists the server's tools again and brings the registry up to date: new
   * tools are added, tools the server no longer lists are removed, changed
   * ones are replaced, and a tool whose schema did not change keeps its schema
   * object, so nothing recompiles. The one way to list a server's tools again:
   * call it on `notifications/tools/list_changed`. Refreshes run one at a
   * time, in the order they were asked for; one asked for (with no signal) while another with no
   * signal waits to begin is that one. One that fails (the listing, or
   * with `strict: true` a refused tool) leaves the registry as it was. After
   * `unregister()`, it lists nothing and registers nothing.
   * @returns this registration, up to date
   * @throws as {@link registerMcpTools} does
   */
  refresh(options?: RefreshMcpToolsOptions): Promise<McpToolRegistration>;
  /**
   * Removes this registration's proxy tools from the registry and ends it:
   * `names` becomes empty and `refresh()` does nothing. To take the server's
   * tools again, call {@link registerMcpTools} again.
   * @returns how many tools were removed
   */
  unregister(): number;
}

interface ProxyTool {
  /** The tool's name on the server. */
  readonly remoteName: string;
  readonly definition: ToolDefinition;
  /** What the registry holds for it once registered (its own frozen copy), to tell whether it is still ours. */
  registered?: ToolDefinition | undefined;
  readonly handler: ToolHandler;
  readonly registerOptions: RegisterOptions;
}

/**
 * Registers the tools of a connected MCP client in a registry, as proxy tools:
 * each call's arguments are copied and checked locally against the tool's
 * `inputSchema`, then forwarded as `tools/call` (the handler's `signal`
 * cancels the request). `tools/list` pages are followed to the end. A tool's
 * `outputSchema` becomes its definition's, so the registry checks each result
 * against it: a result that does not match is a `ToolResultValidationError`,
 * which tells the model that the tool ran.
 *
 * What a proxied call returns, when every content item is text: the result's
 * `structuredContent` when there is one, else the text (joined by newlines).
 * A result with images, audio or resources is a `toolContent` value holding
 * the items (and the `structuredContent`, when sent), which the provider
 * adapters send in their native forms; a `resource_link` becomes a line of text.
 * A result with `isError: true` throws an {@link McpToolError}, so `dispatch`
 * rejects with `ToolExecutionError` (and `dispatchAll` reports the server's text to the model).
 *
 * The registration's `refresh()` lists the server's tools again. Calling this
 * function again for the same client is a registration of its own: its names
 * clash with the first one's unless that one was unregistered.
 *
 * Create the registry with `new ToolRegistry({ cacheKey: "content" })`: MCP
 * schemas arrive as fresh objects, and content keys let identical schemas
 * (the same server reached twice, tools sharing one input shape) share one
 * compiled validator.
 *
 * A server you did not write may list a tool the registry refuses (a `/` or
 * a space in its name, `{ type: "int" }` in its input or output schema, a
 * dangling `$ref`, a name already taken) or one it cannot read (a name that is not a string, a
 * schema that is not an object): that tool is skipped and reported in `skipped`, and
 * the others are registered. With `strict: true`, it fails the whole listing instead.
 *
 * @returns the registration, to refresh or remove it
 * @throws ToolDefinitionError (only with `strict: true`) for the first tool the
 * registry refuses; the registry is then left as it was
 * @throws McpProtocolError when the server repeats a pagination cursor, sends one longer than
 * 65,536 characters, or answers `tools/list` with no list of tools
 * @throws McpListLimitError when the listing runs past `maxPages` pages or `maxTools` tools
 * @throws TypeError for a bad option (a `prefix` no tool name can start with, a `signal` that is not
 * an `AbortSignal`, a `strict` that is not a boolean, a bad `timeoutMs`, `maxPages` or `maxTools`),
 * or a `registry` that is not a ToolRegistry; `null` options are none
 * @example
 * ```ts
 * const client = new Client({ name: "agent", version: "1.0.0" });
 * await client.connect(transport);
 * const registry = new ToolRegistry({ cacheKey: "content" });
 * const github = await registerMcpTools(registry, client, { prefix: "github." });
 * client.setNotificationHandler(ToolListChangedNotificationSchema, () => github.refresh());
 * ```
 */
export async function registerMcpTools(registry: ToolRegistry, client: McpToolClient, options: RegisterMcpToolsOptions = {}): Promise<McpToolRegistration> {
  // `null` is no options, as for `dispatch`.
  const given = options ?? {};
  refuseUnknownOptions(given, REGISTER_MCP_OPTIONS);
  const prefix = given.prefix ?? "";
  if (typeof prefix !== "string") throw new TypeError(`prefix must be a string, got ${typeof prefix}`);
  // Refused at once: every name it starts would be refused, so every tool skipped (or, with `strict`, the listing).
  if (!isToolNamePrefix(prefix)) throw new TypeError(`prefix must be at most 127 letters, digits, '_', '-', '.' or ':' (a tool name is 1 to 128 of them), got ${describeOption(prefix)}`);
  const limits = { maxPages: positiveInteger("maxPages", given.maxPages ?? DEFAULT_MAX_PAGES), maxTools: positiveInteger("maxTools", given.maxTools ?? DEFAULT_MAX_TOOLS) };
  checkRegistry(registry);
  const timeoutMs = milliseconds("timeoutMs", given.timeoutMs);
  const registerOptions: RegisterOptions = timeoutMs === undefined ? {} : { timeoutMs };
  const strict = given.strict ?? false;
  if (typeof strict !== "boolean") throw new TypeError(`strict must be a boolean, got ${describeOption(strict)}`);
  const signal = optionalSignal("signal", given.signal);

  // The registration's whole state: nothing about it is kept anywhere else.
  let proxies: ProxyTool[] = [];
  let names: readonly string[] = Object.freeze([]);
  let skipped: readonly McpSkippedTool[] = Object.freeze([]);
  let ended = false;
  let refreshes: Promise<unknown> = Promise.resolve();
  /** A refresh with no signal that has not begun listing yet. */
  let waiting: Promise<McpToolRegistration> | undefined;

  const list = async (signal: AbortSignal | undefined): Promise<void> => {
    if (ended) return;
    const listed = await listAllTools(client, signal, limits, prefix);
    if (ended) return;
    const previous = new Map(proxies.filter((proxy) => isOurs(registry, proxy)).map((proxy) => [proxy.definition.name, proxy] as const));
    const candidates = listed.map((tool) => ("error" in tool ? tool : proxyOf(tool, client, prefix, previous.get(prefix + tool.name), registerOptions)));
    const outcome = replace(registry, previous, candidates, strict);
    proxies = outcome.registered;
    names = Object.freeze(proxies.map((proxy) => proxy.definition.name));
    skipped = Object.freeze(outcome.skipped);
  };

  const registration: McpToolRegistration = Object.freeze({
    get names() {
      return names;
    },
    get skipped() {
      return skipped;
    },
    refresh(refreshOptions?: RefreshMcpToolsOptions) {
      let signal: AbortSignal | undefined;
      try {
        refuseUnknownOptions(refreshOptions ?? {}, REFRESH_MCP_OPTIONS);
        signal = optionalSignal("signal", refreshOptions?.signal);
      } catch (error) {
        return Promise.reject(error);
      }
      // Asked again before the last refresh with no signal began: that one lists what this one would
      // (a server sending a flood of list_changed notifications costs one listing, not one each).
      if (signal === undefined && waiting !== undefined) return waiting;
      // One at a time: a listing that started later must not be overwritten by one that finished later.
      const listing = () => {
        if (waiting === refreshed) waiting = undefined;
        return list(signal);
      };
      const run = refreshes.then(listing, listing);
      refreshes = run.catch(() => undefined);
      const refreshed = run.then(() => registration);
      if (signal === undefined) waiting = refreshed;
      return refreshed;
    },
    unregister() {
      ended = true;
      let removed = 0;
      for (const proxy of proxies) {
        if (!isOurs(registry, proxy)) continue;
        registry.unregister(proxy.definition.name);
        removed++;
      }
      proxies = [];
      names = Object.freeze([]);
      skipped = Object.freeze([]);
      return removed;
    },
  });
  await list(signal);
  return registration;
}

/**
 * A tool of a listing, its fields read here: the SDK's own parse of a `tools/list` page refuses the
 * whole page for one tool it does not like (a property schema `true`, a name that is not a string)
 * with a raw `ZodError`, and drops `__proto__` keys from the schemas, which would make the local
 * check pass what the server's schema refuses.
 */
interface ListedTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly inputSchema: object;
  readonly outputSchema: object | undefined;
}

const DEFAULT_MAX_PAGES = 100;
const DEFAULT_MAX_TOOLS = 1000;
/** The longest `tools/list` cursor taken (they are kept to spot a listing that loops). */
const MAX_CURSOR_LENGTH = 64 * 1024;

/** The whole listing, in order: each tool that can be offered to the registry, or why it is skipped for how it was listed. */
async function listAllTools(
  client: McpToolClient,
  signal: AbortSignal | undefined,
  limits: { maxPages: number; maxTools: number },
  prefix: string,
): Promise<Array<ListedTool | McpSkippedTool>> {
  const tools: Array<ListedTool | McpSkippedTool> = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = readPage(await listPage(client, cursor, signal));
    pages++;
    if (tools.length + page.tools.length > limits.maxTools) throw new McpListLimitError("maxTools", limits.maxTools);
    for (const entry of page.tools) tools.push(listedTool(entry, prefix));
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) throw new McpProtocolError("The MCP server repeated a tools/list cursor; the listing would never end");
      if (pages >= limits.maxPages) throw new McpListLimitError("maxPages", limits.maxPages);
      seenCursors.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}

/** One `tools/list` page, through `request` when the client has it (see {@link McpToolClient}), as it arrived. */
function listPage(client: McpToolClient, cursor: string | undefined, signal: AbortSignal | undefined): Promise<unknown> {
  const params = cursor === undefined ? undefined : { cursor };
  return withRequestSignal(signal, (requestSignal) => {
    const options = requestSignal === undefined ? undefined : { signal: requestSignal };
    if (client.request === undefined) return client.listTools(params, options);
    return client.request(params === undefined ? { method: "tools/list" } : { method: "tools/list", params }, ResultSchema, options);
  });
}

/**
 * Runs `request` with a signal of its own that follows `signal`, and lets go of `signal` once the
 * request is done: the SDK adds an abort listener to the signal a request is given and never
 * removes it, so a long-lived signal (a session's, or the shared one of calls that nothing can
 * abort) would gain one per request, and its abort would cancel every request it ever made.
 */
async function withRequestSignal<T>(signal: AbortSignal | undefined, request: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (signal === undefined || signal === NEVER_ABORTED_SIGNAL) return request(undefined);
  const own = new AbortController();
  const follow = (): void => own.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener("abort", follow, { once: true });
  try {
    return await request(own.signal);
  } finally {
    signal.removeEventListener("abort", follow);
  }
}

/**
 * A page's list of tools and its cursor.
 * @throws McpProtocolError when the page holds no list of tools, or a cursor that is not a string or is too long
 */
function readPage(page: unknown): { tools: readonly unknown[]; nextCursor: string | undefined } {
  const tools = (page as { tools?: unknown } | null | undefined)?.tools;
  if (!Array.isArray(tools)) throw new McpProtocolError("The MCP server answered tools/list with no list of tools");
  const nextCursor = (page as { nextCursor?: unknown }).nextCursor;
  if (nextCursor === undefined || nextCursor === null) return { tools, nextCursor: undefined };
  if (typeof nextCursor !== "string") throw new McpProtocolError("The MCP server answered tools/list with a cursor that is not a string");
  if (nextCursor.length > MAX_CURSOR_LENGTH) throw new McpProtocolError(`The MCP server answered tools/list with a cursor longer than ${MAX_CURSOR_LENGTH} characters`);
  return { tools, nextCursor };
}

/** A listed tool's fields, or why it is skipped: a name that is not a string, a schema that is not an object. A `description` that is not a string is left out. */
function listedTool(entry: unknown, prefix: string): ListedTool | McpSkippedTool {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return malformedTool("", prefix, "the listed tool is not an object");
  const { name, description, inputSchema, outputSchema } = entry as Record<string, unknown>;
  if (typeof name !== "string") return malformedTool("", prefix, 'its "name" is not a string');
  if (!isRecord(inputSchema)) return malformedTool(name, prefix, 'its "inputSchema" is not a JSON Schema object');
  if (outputSchema !== undefined && !isRecord(outputSchema)) return malformedTool(name, prefix, 'its "outputSchema" is not a JSON Schema object');
  return { name, description: typeof description === "string" ? description : undefined, inputSchema, outputSchema };
}

function malformedTool(name: string, prefix: string, problem: string): McpSkippedTool {
  const error = new ToolDefinitionError(prefix + name, problem);
  return { name, reason: error.message, error };
}

/**
 * The SDK's time limit of a proxied call: the longest a timer takes, so that the registry's own
 * limit (`timeoutMs`, which aborts `signal` and so cancels the request) is the one that ends it, as
 * a `ToolTimeoutError`. Left unset, the SDK ends every call after 60 s, whatever `timeoutMs` says.
 */
const UNLIMITED_REQUEST_MS = MAX_TIMER_MS;

/** Why a proxied call's arguments were not sent. */
const NOT_SENDABLE = "its arguments hold values that JSON would change (a Date, a Map, NaN, an infinite number such as 1e400), and the MCP server receives their JSON, which was not checked against its schema; nothing was sent";

function proxyOf(tool: ListedTool, client: McpToolClient, prefix: string, previous: ProxyTool | undefined, registerOptions: RegisterOptions): ProxyTool {
  const name = prefix + tool.name;
  const parameters = sameOrNew(previous?.definition.parameters, tool.inputSchema);
  const outputSchema = tool.outputSchema === undefined ? undefined : sameOrNew(previous?.definition.outputSchema, tool.outputSchema);
  const described = { name, description: tool.description ?? "", parameters };
  const definition: ToolDefinition = outputSchema === undefined ? described : { ...described, outputSchema };
  const remoteName = tool.name;
  const handler: ToolHandler = async (args, { signal }) => {
    // The server receives the arguments' JSON: where it differs from what was checked (a `Date`, a
    // `Map`, `NaN`, or `1e400`, which JSON text reads as Infinity), the server would get arguments
    // no one checked against its schema. A property set to `undefined` is absent in both.
    if (!readsAsJson(args, true)) throw new TypeError(NOT_SENDABLE);
    const params = { name: remoteName, arguments: args as Record<string, unknown> };
    const result: unknown = await withRequestSignal(signal, (requestSignal) => {
      const requestOptions = requestSignal === undefined ? { timeout: UNLIMITED_REQUEST_MS } : { signal: requestSignal, timeout: UNLIMITED_REQUEST_MS };
      return client.request === undefined ? client.callTool(params, undefined, requestOptions) : client.request({ method: "tools/call", params }, ResultSchema, requestOptions);
    });
    return resultValue(name, result);
  };
  return { remoteName, definition, handler, registerOptions };
}

/** The schema a tool had before when the server lists it unchanged, so even an identity-keyed cache finds its validator; else the new one. */
function sameOrNew(before: TSchema | undefined, listed: object): TSchema {
  return before !== undefined && sameJson(before, listed) ? before : (listed as TSchema);
}

/**
 * Unregisters `previous` and registers each of `next`, in listing order. A tool the registry
 * refuses (or that was listed in a way it could not take) is skipped and reported, or with
 * `strict` (and on any other failure) `previous` is put back and the error rethrown.
 */
function replace(
  registry: ToolRegistry,
  previous: Map<string, ProxyTool>,
  next: ReadonlyArray<ProxyTool | McpSkippedTool>,
  strict: boolean,
): { registered: ProxyTool[]; skipped: McpSkippedTool[] } {
  for (const name of previous.keys()) registry.unregister(name);
  const registered: ProxyTool[] = [];
  const skipped: McpSkippedTool[] = [];
  try {
    for (const proxy of next) {
      if ("error" in proxy) {
        // Listed in a way no registry could take: skipped (or refused) in its place in the listing.
        if (strict) throw proxy.error;
        skipped.push(proxy);
        continue;
      }
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

/**
 * The value a proxied call resolves with, from the result as the server sent it (the SDK's types
 * no longer vouch for its fields). An `isError` that is there and not `false` is a failure (a server
 * that writes `"true"` meant it), which throws {@link McpToolError}; a `structuredContent` that is
 * not an object is left out, as MCP defines it as one.
 * @throws McpProtocolError when `content` is there but not a list: nothing the tool said can be read
 */
function resultValue(toolName: string, result: unknown): unknown {
  if (typeof result !== "object" || result === null) return result;
  const { content, structuredContent, isError, toolResult } = result as Record<string, unknown>;
  const failed = isError !== undefined && isError !== false;
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  if (content === undefined && toolResult !== undefined && !failed) return toolResult;
  if (content !== undefined && !Array.isArray(content)) throw new McpProtocolError("The MCP server answered tools/call with a content that is not a list");
  const items = Array.isArray(content) ? (content as unknown[]) : [];
  if (failed) throw new McpToolError(toolName, items);
  const structured = isPlainObject(structuredContent) ? structuredContent : undefined;
  if (!items.every(isTextItem)) return remoteToolContent(items, structured);
  if (structured !== undefined) return structured;
  return items.length > 0 ? items.map((item) => item.text).join("\n") : items;
}

function sameJson(a: unknown, b: unknown): boolean {
  const text = canonicalJson(a);
  return text !== undefined && text === canonicalJson(b);
}

/** Whether the registry still holds what this proxy registered (not a tool other code put under its name since). */
function isOurs(registry: ToolRegistry, proxy: ProxyTool): boolean {
  return proxy.registered !== undefined && registry.get(proxy.definition.name) === proxy.registered;
}
