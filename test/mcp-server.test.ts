import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { failureContent, ToolDefinitionError, ToolRegistry, Type } from "../src/index.js";
import { createMcpServer } from "../src/mcp/index.js";
import { connectInMemory } from "./fixtures-mcp/connect.js";
import { rejectionOf } from "./support/fixtures.js";
import { collectGarbage } from "./support/garbage.js";

const readParameters = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })) });

/** A registry and an official SDK client connected to it over the in-memory transport, with a count of handler runs. */
async function served(setUp: (registry: ToolRegistry) => void = () => {}): Promise<{ registry: ToolRegistry; client: Client; runs: string[] }> {
  const runs: string[] = [];
  const registry = new ToolRegistry();
  registry.register({ name: "read", description: "Read a file", parameters: readParameters }, ({ path, offset }) => {
    runs.push("read");
    return `contents of ${path} from ${offset ?? 0}`;
  });
  registry.register({ name: "stat", description: "File facts", parameters: Type.Object({ path: Type.String() }) }, ({ path }) => {
    runs.push("stat");
    return { path, size: 42, modified: new Date(0) };
  });
  registry.register({ name: "fail", description: "Always fails", parameters: Type.Object({}) }, () => {
    runs.push("fail");
    throw new Error("disk on fire");
  });
  setUp(registry);
  const client = await connectInMemory(createMcpServer(registry, { name: "files", version: "1.2.3" }));
  return { registry, client, runs };
}

describe("createMcpServer: tools/list", () => {
  it("lists the registry's tools with their schemas as plain JSON inputSchema", async () => {
    const { client } = await served();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["read", "stat", "fail"]);
    expect(tools[0]).toEqual({ name: "read", description: "Read a file", inputSchema: JSON.parse(JSON.stringify(readParameters)) });
    expect(client.getServerVersion()).toMatchObject({ name: "files", version: "1.2.3" });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it("lists the registry as it is at each request", async () => {
    const { registry, client } = await served();
    registry.register({ name: "write", description: "Write", parameters: Type.Object({ path: Type.String() }) }, () => "ok");
    registry.unregister("fail");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["read", "stat", "write"]);
  });
});

describe("createMcpServer: a tool that cannot be listed", () => {
  /** A registry holding tools whose parameters or outputSchema hold a BigInt (no JSON form), served to a client; what the server reported to `onerror`. */
  async function servedWithUnlistable(): Promise<{ client: Client; reported: Error[]; runs: string[] }> {
    const registry = new ToolRegistry();
    const runs: string[] = [];
    registry.register({ name: "good", description: "", parameters: Type.Object({}) }, () => "fine");
    registry.register({ name: "bad_input", description: "", parameters: Type.Object({ a: Type.Number({ default: 10n as never }) }) }, () => (runs.push("bad_input"), 1));
    registry.register({ name: "bad_output", description: "", parameters: Type.Object({}), outputSchema: Type.Object({ a: Type.Number({ examples: [1n as never] }) }) }, () => (runs.push("bad_output"), { a: 1 }));
    const server = createMcpServer(registry, { name: "s", version: "1" });
    const reported: Error[] = [];
    server.onerror = (error) => reported.push(error);
    return { client: await connectInMemory(server), reported, runs };
  }

  it("leaves it out of tools/list, so the other tools stay listed, and reports each to the server's onerror as a ToolDefinitionError", async () => {
    const { client, reported } = await servedWithUnlistable();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["good"]);
    expect(reported).toHaveLength(2);
    expect(reported.every((error) => error instanceof ToolDefinitionError)).toBe(true);
    expect(reported.map((error) => error.message)).toEqual([
      'Invalid definition for tool "bad_input": its parameters schema is invalid at /: the schema is not plain JSON (it holds a BigInt or a throwing toJSON)',
      'Invalid definition for tool "bad_output": its outputSchema is invalid at /: the schema is not plain JSON (it holds a BigInt or a throwing toJSON)',
    ]);
  });

  it("answers a call to it with isError, as for a broken definition, without running its handler", async () => {
    const { client, runs } = await servedWithUnlistable();
    for (const name of ["bad_input", "bad_output"]) {
      expect(await client.callTool({ name, arguments: { a: 1 } })).toEqual({ content: [{ type: "text", text: `Tool "${name}" is unavailable because its definition is invalid.` }], isError: true });
    }
    expect(runs).toEqual([]);
    expect(await client.callTool({ name: "good", arguments: {} })).toEqual({ content: [{ type: "text", text: "fine" }] });
  });
});

describe("createMcpServer: tools/call", () => {
  it("returns a handler's string as one text item", async () => {
    const { client } = await served();
    const result = await client.callTool({ name: "read", arguments: { path: "a.txt", offset: 3 } });
    expect(result).toEqual({ content: [{ type: "text", text: "contents of a.txt from 3" }] });
  });

  it("returns any other value as its JSON text, with structuredContent for a plain object", async () => {
    const { client } = await served((registry) => {
      registry.register({ name: "list", description: "", parameters: Type.Object({}) }, () => ["a", "b"]);
    });
    const stat = await client.callTool({ name: "stat", arguments: { path: "a.txt" } });
    const expected = { path: "a.txt", size: 42, modified: "1970-01-01T00:00:00.000Z" };
    expect(stat).toEqual({ content: [{ type: "text", text: JSON.stringify(expected) }], structuredContent: expected });
    expect(await client.callTool({ name: "list", arguments: {} })).toEqual({ content: [{ type: "text", text: '["a","b"]' }] });
  });

  it("answers invalid arguments with isError and the model-facing text, without running the handler or echoing values", async () => {
    const { client, runs } = await served();
    const args = { path: "a.txt", offset: "-7" };
    const result = await client.callTool({ name: "read", arguments: args });
    // A registry of its own: the served one would count this call as a repeat of the one before.
    const { registry: fresh } = await served();
    const expected = failureContent(await rejectionOf(fresh.dispatch({ id: "local", name: "read", arguments: args })));
    expect(expected).toContain('Invalid arguments for tool "read"');
    expect(result).toEqual({ content: [{ type: "text", text: expected }], isError: true });
    expect(JSON.stringify(result)).not.toContain("-7");
    expect(runs).toEqual([]);
  });

  it("answers a failing handler with isError and its message", async () => {
    const { client } = await served();
    expect(await client.callTool({ name: "fail", arguments: {} })).toEqual({ content: [{ type: "text", text: 'Tool "fail" failed: disk on fire' }], isError: true });
  });

  it("treats left-out arguments as the empty arguments object", async () => {
    const { client } = await served();
    expect(await client.callTool({ name: "fail" })).toMatchObject({ isError: true, content: [{ text: 'Tool "fail" failed: disk on fire' }] });
    const missing = await client.callTool({ name: "stat" });
    expect(missing).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("/path: must have required properties path") }] });
  });

  it("answers an unknown tool with an InvalidParams JSON-RPC error naming it and close names", async () => {
    const { client } = await served();
    const error = await rejectionOf(client.callTool({ name: "raed", arguments: {} }));
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toBe('MCP error -32602: Unknown tool "raed". Did you mean "read"?');
    expect((error as McpError).data).toEqual({ toolName: "raed", suggestions: ["read"] });
  });

  it("answers a value with no JSON text with isError naming its type", async () => {
    const { client } = await served((registry) => {
      registry.register({ name: "big", description: "", parameters: Type.Object({}) }, () => 10n);
    });
    expect(await client.callTool({ name: "big", arguments: {} })).toEqual({
      content: [{ type: "text", text: 'Tool "big" returned a value that cannot be sent as JSON (bigint).' }],
      isError: true,
    });
  });

  it("aborts the handler's signal when the client cancels the request", async () => {
    let aborted: (value: boolean) => void = () => {};
    const sawAbort = new Promise<boolean>((resolve) => (aborted = resolve));
    const { client } = await served((registry) => {
      registry.register({ name: "slow", description: "", parameters: Type.Object({}) }, (_args, { signal }) => {
        signal.addEventListener("abort", () => aborted(true));
        return new Promise(() => {});
      });
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toThrow();
    expect(await sawAbort).toBe(true);
  });

  it("refuses something that is not a registry", () => {
    expect(() => createMcpServer({} as ToolRegistry, { name: "x", version: "1" })).toThrow(TypeError);
  });
});

/** Counts the client's notifications/tools/list_changed. */
function countListChanges(client: Client): { count: () => number } {
  let count = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
  });
  return { count: () => count };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("createMcpServer: notifications/tools/list_changed", () => {
  it("tells the connected client when a tool is registered or unregistered", async () => {
    const { registry, client } = await served();
    const changes = countListChanges(client);
    registry.register({ name: "write", description: "Write", parameters: Type.Object({ path: Type.String() }) }, () => "ok");
    await settle();
    expect(changes.count()).toBe(1);
    registry.unregister("write");
    await settle();
    expect(changes.count()).toBe(2);
    registry.unregister("write"); // nothing removed
    await settle();
    expect(changes.count()).toBe(2);
  });

  it("sends one notification for a burst of changes made in one go", async () => {
    const { registry, client } = await served();
    const changes = countListChanges(client);
    for (let index = 0; index < 10; index++) registry.register({ name: `tool_${index}`, description: "", parameters: Type.Object({}) }, () => index);
    await settle();
    expect(changes.count()).toBe(1);
  });

  it("stops listening to the registry when its transport closes, so that a closed server can be collected", async () => {
    const registry = new ToolRegistry();
    const refs = await Promise.all(
      [true, false].map(async (close) => {
        const server = createMcpServer(registry, { name: "s", version: "1" });
        const client = await connectInMemory(server);
        if (close) await client.close();
        return { close, ref: new WeakRef(server), client };
      }),
    );
    for (let attempt = 0; attempt < 20 && refs[0]!.ref.deref() !== undefined; attempt++) {
      await settle();
      collectGarbage();
    }
    expect(refs[0]!.ref.deref()).toBeUndefined(); // closed: released
    expect(refs[1]!.ref.deref()).toBeDefined(); // connected: still listening
    registry.register({ name: "after", description: "", parameters: Type.Object({}) }, () => 1); // no closed server is told
    await refs[1]!.client.close();
  });
});

