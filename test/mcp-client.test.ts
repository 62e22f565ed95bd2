import { getEventListeners } from "node:events";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  isToolContent,
  ToolAbortedError,
  ToolArgumentsValidationError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolRegistry,
  ToolTimeoutError,
  Type,
  type ToolContent,
} from "../src/index.js";
import { createMcpServer, McpListLimitError, McpProtocolError, McpToolError, registerMcpTools, type McpToolClient } from "../src/mcp/index.js";
import { NEVER_ABORTED_SIGNAL } from "../src/dispatch/context.js";
import { connectInMemory } from "./fixtures-mcp/connect.js";
import { connectRaw } from "./fixtures-mcp/raw-server.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";

/** A remote registry served over MCP, the runs of its handlers, and an SDK client connected to it. */
async function remote(): Promise<{ remoteRegistry: ToolRegistry; client: Client; runs: unknown[] }> {
  const runs: unknown[] = [];
  const remoteRegistry = new ToolRegistry();
  remoteRegistry.register(
    { name: "create_issue", description: "Open an issue", parameters: Type.Object({ title: Type.String({ minLength: 1 }), labels: Type.Optional(Type.Array(Type.String())) }) },
    (args) => {
      runs.push(args);
      return { number: 7, title: args.title };
    },
  );
  remoteRegistry.register({ name: "echo", description: "Echo", parameters: Type.Object({ text: Type.String() }) }, ({ text }) => {
    runs.push(text);
    return text;
  });
  remoteRegistry.register({ name: "explode", description: "Fails", parameters: Type.Object({}) }, () => {
    throw new Error("rate limited, retry in 30 s");
  });
  const client = await connectInMemory(createMcpServer(remoteRegistry, { name: "github", version: "1.0.0" }));
  return { remoteRegistry, client, runs };
}

describe("registerMcpTools", () => {
  it("registers the server's tools as proxies whose calls are forwarded and answered", async () => {
    const { client, runs } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, client);

    expect(registration.names).toEqual(["create_issue", "echo", "explode"]);
    expect(registry.get("echo")).toEqual({ name: "echo", description: "Echo", parameters: JSON.parse(JSON.stringify(Type.Object({ text: Type.String() }))) });
    expect(await registry.dispatch(toolCall("create_issue", { title: "Bug" }))).toEqual({ number: 7, title: "Bug" });
    expect(await registry.dispatch(toolCall("echo", '{"text":"hi"}'))).toBe("hi");
    expect(runs).toEqual([{ title: "Bug" }, "hi"]);
  });

  it("leaves no abort listener on a long-lived signal once its calls and listings are done, nor on the signal of calls nothing can abort", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry();
    const registration = await registerMcpTools(registry, client);
    const session = new AbortController();
    for (let call = 0; call < 20; call++) await registry.dispatch(toolCall("echo", { text: "hi" }), { signal: session.signal });
    for (let listing = 0; listing < 5; listing++) await registration.refresh({ signal: session.signal });
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
    for (let call = 0; call < 20; call++) await registry.dispatch(toolCall("echo", { text: "hi" }));
    expect(getEventListeners(NEVER_ABORTED_SIGNAL, "abort")).toHaveLength(0);
  });

  it("still cancels the server's run of a call in flight when its long-lived signal aborts", async () => {
    let started = false;
    let remoteAborted = false;
    const remoteRegistry = new ToolRegistry().register({ name: "hold", description: "Holds until cancelled", parameters: Type.Object({}) }, (_args, { signal }) => {
      started = true;
      return new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          remoteAborted = true;
          resolve("cancelled");
        }),
      );
    });
    const client = await connectInMemory(createMcpServer(remoteRegistry, { name: "holder", version: "1.0.0" }));
    const registry = new ToolRegistry();
    await registerMcpTools(registry, client);
    const session = new AbortController();
    const held = registry.dispatch(toolCall("hold", {}), { signal: session.signal });
    await vi.waitFor(() => expect(started).toBe(true));
    session.abort(new Error("user left"));
    expect(await rejectionOf(held)).toBeInstanceOf(ToolAbortedError);
    await vi.waitFor(() => expect(remoteAborted).toBe(true));
  });

  it("sends nothing for arguments whose JSON would differ from what was checked (a Date, a Map, NaN), which only a caller's code can pass", async () => {
    const received: unknown[] = [];
    const server = new Server({ name: "store", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "store", inputSchema: { type: "object" as const, properties: { value: {} }, required: ["value"] } }] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      received.push(request.params.arguments);
      return { content: [{ type: "text" as const, text: "stored" }] };
    });
    const client = await connectInMemory(server);
    const registry = new ToolRegistry();
    await registerMcpTools(registry, client);
    for (const value of [new Date(0), new Map([["k", 1]]), Number.NaN, [undefined]]) {
      const error = await rejectionOf(registry.dispatch(toolCall("store", { value })));
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect((error as ToolExecutionError).cause).toBeInstanceOf(TypeError);
    }
    expect(await registry.dispatch(toolCall("store", { value: [1, "a", null] }))).toBe("stored");
    // A property set to undefined is absent, to the check and in the JSON alike.
    expect(await registry.dispatch(toolCall("store", { value: 1, note: undefined }))).toBe("stored");
    expect(received).toEqual([{ value: [1, "a", null] }, { value: 1 }]);
  });

  it("refuses an option it does not know, at registration and at a refresh, naming it and the ones it takes", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    expect(await rejectionOf(registerMcpTools(registry, client, { timeout: 5 } as never))).toEqual(
      new TypeError('unknown option "timeout": the options are prefix, timeoutMs, signal, strict, maxPages, maxTools'),
    );
    expect(registry.list()).toEqual([]);
    const registration = await registerMcpTools(registry, client);
    expect(await rejectionOf(registration.refresh({ strict: true } as never))).toEqual(new TypeError('unknown option "strict": the options are signal'));
  });

  it("checks arguments locally, so invalid ones never reach the server", async () => {
    const { client, runs } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const error = await rejectionOf(registry.dispatch(toolCall("create_issue", { title: "", labels: "bug" })));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect((error as ToolArgumentsValidationError).issues.map((issue) => issue.split(":")[0])).toEqual(["/title", "/labels"]);
    expect(runs).toEqual([]);
  });

  it("turns an isError result into a ToolExecutionError carrying the server's text", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const error = await rejectionOf(registry.dispatch(toolCall("explode", {})));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).cause).toBeInstanceOf(McpToolError);
    expect((error as Error).message).toBe('Tool "explode" failed: Tool "explode" failed: rate limited, retry in 30 s');
    const [result] = await registry.dispatchAll([toolCall("explode", {})]);
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining("rate limited") });
  });

  it("prefixes registry names and still calls the server by its own names", async () => {
    const { client, runs } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, client, { prefix: "github." });
    expect(registration.names).toEqual(["github.create_issue", "github.echo", "github.explode"]);
    expect(await registry.dispatch(toolCall("github.echo", { text: "via prefix" }))).toBe("via prefix");
    expect(runs).toEqual(["via prefix"]);
  });

  it("lists again without duplicate-name errors: new tools added, removed ones dropped, unchanged ones not recompiled", async () => {
    const { remoteRegistry, client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, client);
    await registry.dispatch(toolCall("echo", { text: "compile me" }));
    const compiled = registry.cacheStats().misses;
    const echoSchema = registry.get("echo")?.parameters;

    remoteRegistry.unregister("explode");
    remoteRegistry.register({ name: "close_issue", description: "Close", parameters: Type.Object({ number: Type.Integer() }) }, () => "closed");
    const refreshed = await registration.refresh();
    await registry.dispatch(toolCall("echo", { text: "again" }));

    expect(refreshed.names).toEqual(["create_issue", "echo", "close_issue"]);
    expect(registry.list().map((definition) => definition.name)).toEqual(["create_issue", "echo", "close_issue"]);
    expect(await registry.dispatch(toolCall("close_issue", { number: 7 }))).toBe("closed");
    expect(registry.cacheStats().misses).toBe(compiled + 1); // close_issue only
    expect(registry.get("echo")?.parameters).toBe(echoSchema); // an unchanged schema keeps its object
  });

  it("is one live registration: refresh() resolves to it, and its names and skipped follow the latest listing", async () => {
    const { remoteRegistry, client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    registry.register({ name: "close_issue", description: "local", parameters: Type.Object({}) }, () => "local");
    const registration = await registerMcpTools(registry, client);
    remoteRegistry.register({ name: "close_issue", description: "Close", parameters: Type.Object({}) }, () => "closed");
    expect(await registration.refresh()).toBe(registration);
    expect(registration.names).toEqual(["create_issue", "echo", "explode"]);
    expect(registration.skipped.map(({ name }) => name)).toEqual(["close_issue"]);
    registry.unregister("close_issue");
    await registration.refresh();
    expect(registration.names).toEqual(["create_issue", "echo", "explode", "close_issue"]);
    expect(registration.skipped).toEqual([]);
  });

  it("treats a second registerMcpTools for the same client and prefix as a registration of its own: each name clashes and is skipped", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const first = await registerMcpTools(registry, client, { prefix: "gh." });
    const before = registry.list();
    const second = await registerMcpTools(registry, client, { prefix: "gh." });
    expect(second.names).toEqual([]);
    expect(second.skipped.map(({ name, reason }) => [name, reason])).toEqual(
      ["create_issue", "echo", "explode"].map((name) => [name, `Invalid definition for tool "gh.${name}": a tool with this name is already registered`]),
    );
    expect(registry.list()).toEqual(before);
    expect(second.unregister()).toBe(0);
    expect(first.names).toHaveLength(3);
    expect(registry.list()).toHaveLength(3);
  });

  it("with strict: true, refuses a second registerMcpTools for the same client with a ToolDefinitionError, leaving the first one's tools", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const before = registry.list();
    const error = await rejectionOf(registerMcpTools(registry, client, { strict: true }));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe("create_issue");
    expect(registry.list()).toEqual(before);
  });

  it("registers the server's tools again with registerMcpTools once the first registration was unregistered", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const first = await registerMcpTools(registry, client);
    expect(first.unregister()).toBe(3);
    expect(first.names).toEqual([]);
    const second = await registerMcpTools(registry, client);
    expect(second.names).toEqual(["create_issue", "echo", "explode"]);
    expect(second.skipped).toEqual([]);
  });

  it("ends a registration with unregister: a later refresh lists nothing and registers nothing", async () => {
    const { client } = await remote();
    let listings = 0;
    const counting = { listTools: (...args: Parameters<Client["listTools"]>) => (listings++, client.listTools(...args)), callTool: client.callTool.bind(client) };
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, counting);
    registration.unregister();
    await registration.refresh();
    expect(listings).toBe(1);
    expect(registry.list()).toEqual([]);
    expect(registration.names).toEqual([]);
  });

  it("registers nothing when unregister comes while a refresh is listing", async () => {
    const { client } = await remote();
    let listingStarted = () => {};
    const watched = {
      listTools: (...args: Parameters<Client["listTools"]>) => (listingStarted(), client.listTools(...args)),
      callTool: client.callTool.bind(client),
    };
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, watched);
    const started = new Promise<void>((resolve) => (listingStarted = resolve));
    const refreshed = registration.refresh();
    await started;
    registration.unregister();
    await refreshed;
    expect(registry.list()).toEqual([]);
  });

  it("leaves alone a tool that other code registered under one of its names since, on refresh and on unregister", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, client);
    registry.unregister("echo");
    registry.register({ name: "echo", description: "local echo", parameters: Type.Object({}) }, () => "local");
    await registration.refresh();
    expect(registry.get("echo")?.description).toBe("local echo");
    expect(registration.skipped.map(({ name }) => name)).toEqual(["echo"]);
    expect(registration.unregister()).toBe(2);
    expect(registry.list().map((definition) => definition.description)).toEqual(["local echo"]);
  });

  it("runs refreshes one at a time, in the order they were asked for", async () => {
    const { client } = await remote();
    let listing = 0;
    let overlapped = false;
    const slow = {
      listTools: async (...args: Parameters<Client["listTools"]>) => {
        overlapped ||= listing > 0;
        listing++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        try {
          return await client.listTools(...args);
        } finally {
          listing--;
        }
      },
      callTool: client.callTool.bind(client),
    };
    const registration = await registerMcpTools(new ToolRegistry({ cacheKey: "content" }), slow);
    await Promise.all([registration.refresh(), registration.refresh(), registration.refresh()]);
    expect(overlapped).toBe(false);
  });

  it("lists once for refreshes asked for before the last one began (a flood of list_changed notifications), and each resolves after a listing that began after it was asked", async () => {
    const { client, remoteRegistry } = await remote();
    let listings = 0;
    const counting = {
      listTools: (...args: Parameters<Client["listTools"]>) => {
        listings++;
        return client.listTools(...args);
      },
      callTool: client.callTool.bind(client),
    };
    const registration = await registerMcpTools(new ToolRegistry({ cacheKey: "content" }), counting);
    listings = 0;
    remoteRegistry.register({ name: "late", description: "Late", parameters: Type.Object({}) }, () => "ok");
    const refreshed = await Promise.all(Array.from({ length: 500 }, () => registration.refresh()));
    expect(listings).toBe(1);
    expect(refreshed.every((each) => each === registration && each.names.includes("late"))).toBe(true);
    // A refresh with a signal of its own is never merged into another.
    const { signal } = new AbortController();
    await Promise.all([registration.refresh(), registration.refresh({ signal }), registration.refresh()]);
    expect(listings).toBe(3);
  });

  it("goes on refreshing after a refresh failed, and leaves the registry as it was when one does", async () => {
    const { client } = await remote();
    let listings = 0;
    // The second listing (the first refresh) loses its connection.
    const flaky = {
      listTools: (...args: Parameters<Client["listTools"]>) => (++listings === 2 ? Promise.reject(new Error("connection lost")) : client.listTools(...args)),
      callTool: client.callTool.bind(client),
    };
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, flaky);
    const failed = registration.refresh();
    // Asked for before the first began, it is that refresh, and fails with it.
    const merged = registration.refresh();
    expect(await rejectionOf(failed)).toMatchObject({ message: "connection lost" });
    expect(await rejectionOf(merged)).toMatchObject({ message: "connection lost" });
    expect(registry.list()).toHaveLength(3);
    expect(await registration.refresh()).toBe(registration);
    expect(registry.list()).toHaveLength(3);
  });

  it("takes a refresh's signal for that refresh only, not the first listing's", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const startup = new AbortController();
    const registration = await registerMcpTools(registry, client, { signal: startup.signal });
    startup.abort();
    await registration.refresh();
    expect(registration.names).toHaveLength(3);
    const aborted = await rejectionOf(registration.refresh({ signal: AbortSignal.abort() }));
    expect(aborted).toBeInstanceOf(Error);
    expect(registry.list()).toHaveLength(3);
  });

  it("keeps nothing outside the registration: two registries take the same client's tools apart", async () => {
    const { remoteRegistry, client } = await remote();
    const [a, b] = [new ToolRegistry({ cacheKey: "content" }), new ToolRegistry({ cacheKey: "content" })];
    const inA = await registerMcpTools(a, client);
    await registerMcpTools(b, client);
    remoteRegistry.unregister("explode");
    await inA.refresh();
    expect(a.list()).toHaveLength(2);
    expect(b.list()).toHaveLength(3);
  });

  it("keeps two servers' tools apart by prefix, and unregisters one registration only", async () => {
    const first = await remote();
    const second = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const a = await registerMcpTools(registry, first.client, { prefix: "a." });
    await registerMcpTools(registry, second.client, { prefix: "b." });
    expect(registry.list()).toHaveLength(6);
    expect(a.unregister()).toBe(3);
    expect(registry.list().map((definition) => definition.name)).toEqual(["b.create_issue", "b.echo", "b.explode"]);
  });

  it("skips a tool whose name is taken by a tool registered otherwise, and reports it", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    registry.register({ name: "echo", description: "local echo", parameters: Type.Object({}) }, () => "local");
    const registration = await registerMcpTools(registry, client);
    expect(registration.names).toEqual(["create_issue", "explode"]);
    expect(registration.skipped).toEqual([{ name: "echo", reason: 'Invalid definition for tool "echo": a tool with this name is already registered', error: expect.any(ToolDefinitionError) }]);
    expect(registry.get("echo")?.description).toBe("local echo");
  });

  it("with strict: true, refuses a name clash and leaves the registry as it was", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    registry.register({ name: "echo", description: "local echo", parameters: Type.Object({}) }, () => "local");
    const error = await rejectionOf(registerMcpTools(registry, client, { strict: true }));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe("echo");
    expect(registry.list().map((definition) => definition.description)).toEqual(["local echo"]);
  });

  it("with strict: true, puts the previous tools back when a new listing cannot be registered", async () => {
    const { client } = await remote();
    let listTwice = false;
    // The same client, whose next listing names one tool twice: registering it fails midway.
    const flaky = {
      listTools: async (...args: Parameters<Client["listTools"]>) => {
        const page = await client.listTools(...args);
        return listTwice ? { ...page, tools: [...page.tools, page.tools[0]!] } : page;
      },
      callTool: client.callTool.bind(client),
    };
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, flaky, { strict: true });
    const before = registry.list();
    listTwice = true;
    expect(await rejectionOf(registration.refresh())).toBeInstanceOf(ToolDefinitionError);
    expect(registry.list()).toEqual(before);
    expect(registry.list().every((definition, index) => definition.parameters === before[index]!.parameters)).toBe(true);
    expect(await registry.dispatch(toolCall("echo", { text: "still here" }))).toBe("still here");
  });

  it("aborts the forwarded request when the dispatch is aborted", async () => {
    const remoteRegistry = new ToolRegistry();
    let serverSawAbort = false;
    remoteRegistry.register({ name: "slow", description: "", parameters: Type.Object({}) }, (_args, { signal }) => {
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => ((serverSawAbort = true), reject(new Error("aborted")))));
    });
    const client = await connectInMemory(createMcpServer(remoteRegistry, { name: "s", version: "1" }));
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const controller = new AbortController();
    const dispatched = registry.dispatch(toolCall("slow", {}), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await rejectionOf(dispatched)).toBeInstanceOf(ToolAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(serverSawAbort).toBe(true);
  });

  it("does not recompile unchanged schemas on refresh, even with identity-keyed validators", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry();
    const registration = await registerMcpTools(registry, client);
    await registry.dispatch(toolCall("echo", { text: "a" }));
    const misses = registry.cacheStats().misses;
    await registration.refresh();
    await registry.dispatch(toolCall("echo", { text: "b" }));
    expect(registry.cacheStats().misses).toBe(misses);
  });

  it("refuses a prefix that is not a string, and something that is not a registry", async () => {
    const { client } = await remote();
    await expect(registerMcpTools(new ToolRegistry(), client, { prefix: 1 as never })).rejects.toThrow(TypeError);
    await expect(registerMcpTools({} as ToolRegistry, client)).rejects.toThrow(TypeError);
  });

  it("takes null options as none, as dispatch does", async () => {
    const { client } = await remote();
    const registration = await registerMcpTools(new ToolRegistry({ cacheKey: "content" }), client, null as never);
    expect(registration.names).toEqual(["create_issue", "echo", "explode"]);
    expect(await registration.refresh(null as never)).toBe(registration);
  });

  it("refuses a signal that is not an AbortSignal, at registration and at a refresh, with a TypeError naming the option", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    expect(await rejectionOf(registerMcpTools(registry, client, { signal: "x" as never }))).toEqual(new TypeError('signal must be an AbortSignal, got "x"'));
    expect(registry.list()).toEqual([]);
    const registration = await registerMcpTools(registry, client);
    expect(await rejectionOf(registration.refresh({ signal: {} as never }))).toEqual(new TypeError("signal must be an AbortSignal, got object"));
  });

  it("refuses a strict that is not a boolean rather than reading it as false", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    expect(await rejectionOf(registerMcpTools(registry, client, { strict: "yes" as never }))).toEqual(new TypeError('strict must be a boolean, got "yes"'));
    expect(registry.list()).toEqual([]);
  });

  it("refuses up front a prefix that no tool name can start with, and a bad timeoutMs even when the server lists no tools", async () => {
    const { client } = await remote();
    const registry = new ToolRegistry({ cacheKey: "content" });
    const names = "letters, digits, '_', '-', '.' or ':' (a tool name is 1 to 128 of them)";
    expect(await rejectionOf(registerMcpTools(registry, client, { prefix: "bad prefix " }))).toEqual(new TypeError(`prefix must be at most 127 ${names}, got "bad prefix "`));
    expect(await rejectionOf(registerMcpTools(registry, client, { prefix: "p".repeat(128) }))).toBeInstanceOf(TypeError);
    expect(registry.list()).toEqual([]);
    expect((await registerMcpTools(registry, client, { prefix: "p".repeat(100) + "._:-" })).names).toHaveLength(3);
    const empty = await connectRaw({ list: () => '{"tools":[]}', call: () => '{"content":[]}' });
    expect(await rejectionOf(registerMcpTools(registry, empty, { timeoutMs: 0 }))).toEqual(
      new TypeError("timeoutMs must be a positive number of milliseconds (at most 2147483647, or Infinity for none), got 0"),
    );
  });
});

/** A remote tool that never answers and notes when its call is cancelled, and a client connected to it (its `request` left out with `withRequest: false`). */
async function neverAnswering(withRequest = true): Promise<{ client: McpToolClient; cancelled: () => boolean }> {
  const remoteRegistry = new ToolRegistry();
  let cancelled = false;
  remoteRegistry.register({ name: "slow", description: "", parameters: Type.Object({}) }, (_args, { signal }) => {
    signal.addEventListener("abort", () => (cancelled = true));
    return new Promise(() => {});
  });
  const client = await connectInMemory(createMcpServer(remoteRegistry, { name: "s", version: "1" }));
  const used: McpToolClient = withRequest ? client : { listTools: client.listTools.bind(client), callTool: client.callTool.bind(client) };
  return { client: used, cancelled: () => cancelled };
}

describe("registerMcpTools time limits", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const withRequest of [true, false]) {
    const through = withRequest ? "client.request" : "client.callTool";
    it(`ends a proxied call at its timeoutMs of 120 s as a ToolTimeoutError that cancels the request, not at the SDK's 60 s (through ${through})`, async () => {
      const { client, cancelled } = await neverAnswering(withRequest);
      const registry = new ToolRegistry({ cacheKey: "content" });
      await registerMcpTools(registry, client, { timeoutMs: 120_000 });
      vi.useFakeTimers();
      const outcome = rejectionOf(registry.dispatch(toolCall("slow", {})));
      await vi.advanceTimersByTimeAsync(120_000);
      const error = await outcome;
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect((error as ToolTimeoutError).timeoutMs).toBe(120_000);
      vi.useRealTimers();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cancelled()).toBe(true);
    });

    it(`puts no time limit of its own on a proxied call when neither it nor the registry has one (through ${through})`, async () => {
      const { client } = await neverAnswering(withRequest);
      const registry = new ToolRegistry({ cacheKey: "content" });
      await registerMcpTools(registry, client);
      vi.useFakeTimers();
      const controller = new AbortController();
      const outcome = rejectionOf(registry.dispatch(toolCall("slow", {}), { signal: controller.signal }));
      let settled = false;
      void outcome.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(settled).toBe(false);
      controller.abort();
      expect(await outcome).toBeInstanceOf(ToolAbortedError);
    });
  }
});

/** A low-level SDK server that pages its tools, `pageSize` per page, with cursors from `cursorOf`. */
async function pagedServer(tools: Tool[], pageSize: number, cursorOf: (page: number) => string): Promise<Client> {
  const server = new Server({ name: "paged", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const page = request.params?.cursor === undefined ? 0 : Number(request.params.cursor.split("-")[1]);
    const next = page + 1;
    const more = next * pageSize < tools.length;
    return { tools: tools.slice(page * pageSize, next * pageSize), ...(more ? { nextCursor: cursorOf(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [
      { type: "text", text: `called ${request.params.name}` },
      { type: "image", data: "aGk=", mimeType: "image/png" },
    ],
  }));
  return connectInMemory(server);
}

describe("registerMcpTools with a paginating server", () => {
  const tools: Tool[] = Array.from({ length: 5 }, (_, index) => ({ name: `tool_${index}`, inputSchema: { type: "object", properties: { n: { type: "number" } } } }));

  it("follows nextCursor to the last page", async () => {
    const client = await pagedServer(tools, 2, (page) => `page-${page}`);
    const registry = new ToolRegistry({ cacheKey: "content" });
    expect((await registerMcpTools(registry, client)).names).toEqual(["tool_0", "tool_1", "tool_2", "tool_3", "tool_4"]);
    expect(registry.get("tool_3")?.description).toBe("");
  });

  // Mixed content was once returned as the raw array, which the adapters sent as JSON text (the
  // image as base64 in the text); as toolContent, each adapter sends the image in its own form.
  it("returns mixed content as a toolContent value holding the items in order", async () => {
    const client = await pagedServer(tools, 5, (page) => `page-${page}`);
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const value = await registry.dispatch(toolCall("tool_0", { n: 1 }));
    expect(isToolContent(value)).toBe(true);
    expect((value as ToolContent).content).toEqual([
      { type: "text", text: "called tool_0" },
      { type: "image", data: "aGk=", mimeType: "image/png" },
    ]);
  });

  it("stops with McpProtocolError when the server repeats a cursor", async () => {
    const client = await pagedServer(tools, 1, () => "page-1");
    expect(await rejectionOf(registerMcpTools(new ToolRegistry({ cacheKey: "content" }), client))).toBeInstanceOf(McpProtocolError);
  });
});

/** A low-level SDK server listing `tools` as they are, answering every call with the tool's name. */
async function listingServer(tools: Tool[]): Promise<Client> {
  const server = new Server({ name: "third-party", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: `called ${request.params.name}` }] }));
  return connectInMemory(server);
}

describe("registerMcpTools with a server it did not write", () => {
  const object = (properties: Record<string, object> = {}): Tool["inputSchema"] => ({ type: "object", properties });
  const tools: Tool[] = [
    { name: "search", inputSchema: object({ q: { type: "string" } }) },
    { name: "files/read", inputSchema: object() },
    { name: "read file", inputSchema: object() },
    { name: "count", inputSchema: object({ n: { type: "int" } }) },
    { name: "linked", inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } },
    { name: "fetch", inputSchema: object({ url: { type: "string" } }) },
  ];

  it("registers the tools the registry accepts and reports each skipped one with its reason", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, await listingServer(tools), { prefix: "web." });
    expect(registration.names).toEqual(["web.search", "web.fetch"]);
    expect(registration.skipped.map(({ name }) => name)).toEqual(["files/read", "read file", "count", "linked"]);
    const [slash, space, int, ref] = registration.skipped.map(({ reason }) => reason);
    expect(slash).toBe(`Invalid definition for tool "web.files/read": the name must be 1 to 128 letters, digits, '_', '-', '.' or ':'`);
    expect(space).toContain('"web.read file"');
    // The schema problems' wording is the registry's (see schema-check tests); here: which tool, and where.
    expect(int).toMatch(/^Invalid definition for tool "web\.count": .*\/properties\/n/);
    expect(ref).toMatch(/^Invalid definition for tool "web\.linked": .*\/properties\/a\/\$ref/);
    expect(registration.skipped.every(({ error }) => error instanceof ToolDefinitionError)).toBe(true);
    expect(await registry.dispatch(toolCall("web.fetch", { url: "https://example.com" }))).toBe("called fetch");
  });

  it("with strict: true, refuses the listing at the first refused tool and registers nothing", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    const error = await rejectionOf(registerMcpTools(registry, await listingServer(tools), { strict: true }));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe("files/read");
    expect(registry.list()).toEqual([]);
  });

  it("reports nothing skipped when every tool is accepted", async () => {
    const registration = await registerMcpTools(new ToolRegistry(), await listingServer([tools[0]!]));
    expect(registration.skipped).toEqual([]);
  });
});

describe("registerMcpTools listing limits", () => {
  it("ends a listing whose server hands out new cursors forever with McpListLimitError (maxPages)", async () => {
    const endless = Array.from({ length: 1000 }, (_, index): Tool => ({ name: `tool_${index}`, inputSchema: { type: "object" } }));
    const client = await pagedServer(endless, 1, (page) => `page-${page}`);
    const error = await rejectionOf(registerMcpTools(new ToolRegistry(), client, { maxPages: 5 }));
    expect(error).toBeInstanceOf(McpListLimitError);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error).toMatchObject({ option: "maxPages", limit: 5 });
    expect((error as Error).message).toBe("The MCP server's tools/list went past 5 pages (maxPages); the registry was left as it was. Raise maxPages if the server really lists that much.");
  });

  it("follows at most 100 pages by default", async () => {
    const endless = Array.from({ length: 500 }, (_, index): Tool => ({ name: `tool_${index}`, inputSchema: { type: "object" } }));
    const error = await rejectionOf(registerMcpTools(new ToolRegistry(), await pagedServer(endless, 1, (page) => `page-${page}`)));
    expect(error).toMatchObject({ option: "maxPages", limit: 100 });
  });

  it("ends a listing longer than maxTools with McpListLimitError, and takes one that fits", async () => {
    const many = Array.from({ length: 30 }, (_, index): Tool => ({ name: `tool_${index}`, inputSchema: { type: "object" } }));
    const registry = new ToolRegistry();
    expect(await rejectionOf(registerMcpTools(registry, await pagedServer(many, 10, (page) => `page-${page}`), { maxTools: 25 }))).toMatchObject({ option: "maxTools", limit: 25 });
    expect(registry.list()).toEqual([]);
    expect((await registerMcpTools(registry, await pagedServer(many, 10, (page) => `page-${page}`), { maxTools: 30 })).names).toHaveLength(30);
  });

  it("takes at most 1000 tools by default", async () => {
    const many = Array.from({ length: 1001 }, (_, index): Tool => ({ name: `tool_${index}`, inputSchema: { type: "object" } }));
    expect(await rejectionOf(registerMcpTools(new ToolRegistry(), await listingServer(many)))).toMatchObject({ option: "maxTools", limit: 1000 });
  });

  it.each([["maxPages", 0], ["maxPages", 1.5], ["maxTools", -1], ["maxTools", Infinity]])("refuses %s: %s with a TypeError", async (option, value) => {
    const client = await listingServer([]);
    await expect(registerMcpTools(new ToolRegistry(), client, { [option]: value })).rejects.toThrow(new TypeError(`${option} must be a positive integer, got ${value}`));
  });
});


describe("registerMcpTools with a server that lists or answers what the SDK's types do not allow", () => {
  /** A server whose listing and answers are sent as given, whatever the SDK's types say. */
  async function looseServer(tools: unknown[], answer: unknown = { content: [{ type: "text", text: "done" }] }): Promise<Client> {
    const server = new Server({ name: "loose", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }) as never);
    server.setRequestHandler(CallToolRequestSchema, () => answer as never);
    return connectInMemory(server);
  }
  const good = { name: "good", inputSchema: { type: "object" } };

  it.each([
    ["a name that is not a string", { name: 7, inputSchema: { type: "object" } }, "", 'Invalid definition for tool "": its "name" is not a string'],
    ["an inputSchema that is not an object", { name: "bad", inputSchema: "object" }, "bad", 'Invalid definition for tool "bad": its "inputSchema" is not a JSON Schema object'],
    ["an outputSchema that is not an object", { name: "bad", inputSchema: { type: "object" }, outputSchema: [] }, "bad", 'Invalid definition for tool "bad": its "outputSchema" is not a JSON Schema object'],
    ["an entry that is not an object", null, "", 'Invalid definition for tool "": the listed tool is not an object'],
  ])("skips a tool with %s and registers the others (the SDK's own parse refused the whole listing)", async (_, bad, name, reason) => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, await looseServer([good, bad]));
    expect(registration.names).toEqual(["good"]);
    expect(registration.skipped).toEqual([{ name, reason, error: expect.any(ToolDefinitionError) }]);
    const error = await rejectionOf(registerMcpTools(new ToolRegistry(), await looseServer([good, bad]), { strict: true }));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as Error).message).toBe(reason);
  });

  it("takes valid JSON Schema the SDK's types refuse (a boolean property schema), and leaves out a description that is not text", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, await looseServer([{ name: "flag", description: 5, inputSchema: { type: "object", properties: { on: true } } }]));
    expect(registration.names).toEqual(["flag"]);
    expect(registry.get("flag")).toMatchObject({ description: "", parameters: { type: "object", properties: { on: true } } });
  });

  it("keeps a __proto__ property of the server's schema, so the local check refuses what the server's schema refuses", async () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","maxLength":3}}}') as object;
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, await looseServer([{ name: "t", inputSchema: schema }]));
    expect(Object.keys((registry.get("t")!.parameters as { properties: object }).properties)).toEqual(["__proto__"]);
    const error = await rejectionOf(registry.dispatch(toolCall("t", '{"__proto__":"far too long"}')));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
  });

  /** A registry with the raw server's one tool, `good`, whose every call is answered with `answer`. */
  async function answering(answer: string, list = '{"tools":[{"name":"good","inputSchema":{"type":"object"}}]}'): Promise<ToolRegistry> {
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, await connectRaw({ list: () => list, call: () => answer }));
    return registry;
  }

  it("answers a result holding a content item of a kind it does not know as the tool's result (it ran), with a line saying the item was left out", async () => {
    const registry = await answering('{"content":[{"type":"text","text":"sent, id 42"},{"type":"video","uri":"x"}]}');
    const [result] = await registry.dispatchAll([toolCall("good", {})]);
    expect(result).toMatchObject({ status: "ok" });
    expect(JSON.stringify(result)).toContain("sent, id 42");
    expect(JSON.stringify(result)).toContain("was left out");
  });

  it.each([
    ['"true"', '{"content":[{"type":"text","text":"quota exceeded"}],"isError":"true"}'],
    ["1", '{"content":[{"type":"text","text":"quota exceeded"}],"isError":1}'],
    ["true, with a toolResult", '{"toolResult":"fine","isError":true}'],
  ])("takes isError %s as a failure: never as a success", async (_, answer) => {
    const error = await rejectionOf((await answering(answer)).dispatch(toolCall("good", {})));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).cause).toBeInstanceOf(McpToolError);
  });

  it("leaves out a structuredContent that is not an object, and answers with the text", async () => {
    expect(await (await answering('{"content":[{"type":"text","text":"sent"}],"structuredContent":null}')).dispatch(toolCall("good", {}))).toBe("sent");
    expect(await (await answering('{"content":[{"type":"text","text":"sent"}],"structuredContent":[1,2]}')).dispatch(toolCall("good", {}))).toBe("sent");
  });

  it("fails a result whose content is not a list with an McpProtocolError, never a success with nothing in it", async () => {
    const error = await rejectionOf((await answering('{"content":"sent"}')).dispatch(toolCall("good", {})));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).cause).toEqual(new McpProtocolError("The MCP server answered tools/call with a content that is not a list"));
  });

  it("with strict: true, refuses at the first tool it cannot take in listing order, whether the registry refused it or it was listed wrongly", async () => {
    const list = '{"tools":[{"name":"files/read","inputSchema":{"type":"object"}},{"name":7,"inputSchema":{"type":"object"}}]}';
    const error = await rejectionOf(registerMcpTools(new ToolRegistry(), await connectRaw({ list: () => list, call: () => "{}" }), { strict: true }));
    expect(error).toMatchObject({ toolName: "files/read" });
    const registration = await registerMcpTools(new ToolRegistry(), await connectRaw({ list: () => list, call: () => "{}" }));
    expect(registration.skipped.map(({ name }) => name)).toEqual(["files/read", ""]);
  });

  it("keeps a __proto__ key of structuredContent", async () => {
    const registry = await answering('{"content":[{"type":"text","text":"x"}],"structuredContent":{"__proto__":"kept","other":1}}');
    const value = await registry.dispatch(toolCall("good", {}));
    expect(Object.keys(value as object)).toEqual(["__proto__", "other"]);
  });

  it("ends a listing with McpListLimitError however many tools one page holds, and a page with no list of tools or a cursor too long with McpProtocolError", async () => {
    const many = Array.from({ length: 150_000 }, (_, index) => ({ name: `t${index}`, inputSchema: { type: "object" } }));
    expect(await rejectionOf(registerMcpTools(new ToolRegistry(), await looseServer(many)))).toBeInstanceOf(McpListLimitError);
    const noList = new Server({ name: "odd", version: "1" }, { capabilities: { tools: {} } });
    noList.setRequestHandler(ListToolsRequestSchema, () => ({ tools: "all of them" }) as never);
    expect(await rejectionOf(registerMcpTools(new ToolRegistry(), await connectInMemory(noList)))).toEqual(new McpProtocolError("The MCP server answered tools/list with no list of tools"));
    const longCursor = new Server({ name: "odd", version: "1" }, { capabilities: { tools: {} } });
    longCursor.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [], nextCursor: "c".repeat(70_000) }));
    const error = await rejectionOf(registerMcpTools(new ToolRegistry(), await connectInMemory(longCursor)));
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as Error).message).toBe("The MCP server answered tools/list with a cursor longer than 65536 characters");
  });
});
