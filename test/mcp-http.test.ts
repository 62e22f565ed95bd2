import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { createMcpServer, registerMcpTools } from "../src/mcp/index.js";

// The two recipes of docs/mcp.md, served on 127.0.0.1 and called with the SDK's StreamableHTTPClientTransport.
type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Stateless: a server and a transport per request, closed with the response. */
function stateless(registry: ToolRegistry): Handler {
  return async (request, response) => {
    if (request.method !== "POST") return void response.writeHead(405).end();
    const server = createMcpServer(registry, { name: "calc", version: "1.0.0" });
    const transport = new StreamableHTTPServerTransport(); // no session id generator: stateless
    response.on("close", () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
}

/** Stateful: a server and a transport per session, found again by the Mcp-Session-Id header. */
function stateful(registry: ToolRegistry, sessions: Map<string, StreamableHTTPServerTransport>): Handler {
  return async (request, response) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (typeof id === "string" && transport === undefined) return void response.writeHead(404).end();
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void sessions.set(sessionId, created) });
      created.onclose = () => void sessions.delete(created.sessionId ?? "");
      await createMcpServer(registry, { name: "calc", version: "1.0.0" }).connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await transport.close(); // not an initialize request: no session to keep
  };
}

const servers: HttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Resolves once a client's GET stream for server-sent messages is open (its response headers sent).
let streamOpened: () => void = () => {};

async function listen(handler: Handler): Promise<URL> {
  const server = createServer((request, response) => {
    void handler(request, response);
    if (request.method === "GET") {
      const poll = setInterval(() => response.headersSent && (clearInterval(poll), streamOpened()), 5);
      response.on("close", () => clearInterval(poll));
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

async function connect(url: URL): Promise<Client> {
  const client = new Client({ name: "agent", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

function calculator(): ToolRegistry {
  return new ToolRegistry().register({ name: "add", description: "Add two numbers", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, ({ a, b }) => String(a + b));
}

/** Resolves when `count` list-changed notifications have arrived. */
function listChanges(client: Client, onChange: () => Promise<void> = async () => {}): { arrived: (count: number) => Promise<void> } {
  let seen = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    await onChange();
    seen++;
    for (const waiter of waiting) if (seen >= waiter.count) waiter.resolve();
  });
  return { arrived: (count) => new Promise<void>((resolve) => (seen >= count ? resolve() : waiting.push({ count, resolve }))) };
}

describe("a registry served over Streamable HTTP", () => {
  it.each([
    ["stateless", () => stateless(calculator())],
    ["stateful", () => stateful(calculator(), new Map())],
  ])("%s: the SDK's HTTP client lists and calls its tools, and invalid arguments come back as isError", async (_mode, handler) => {
    const client = await connect(await listen(handler()));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "5" }] });
    expect(await client.callTool({ name: "add", arguments: { a: "2", b: 3 } })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("/a: must be number") }] });
  });

  it("stateful: tells connected clients when a tool is registered or unregistered, and refresh() brings a client registry up to date", async () => {
    const served = calculator();
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const opened = new Promise<void>((resolve) => (streamOpened = resolve));
    const client = await connect(await listen(stateful(served, sessions)));
    const local = new ToolRegistry({ cacheKey: "content" });
    const calc = await registerMcpTools(local, client, { prefix: "calc." });
    const changes = listChanges(client, async () => {
      await calc.refresh();
    });
    await opened; // the client opens its stream for server-sent messages after initialization

    served.register({ name: "multiply", description: "Multiply", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, ({ a, b }) => a * b);
    await changes.arrived(1);
    expect(local.list().map((tool) => tool.name)).toEqual(["calc.add", "calc.multiply"]);
    expect(await local.dispatch({ type: "tool_call", id: "1", name: "calc.multiply", arguments: { a: 6, b: 7 } })).toBe("42");

    served.unregister("add");
    await changes.arrived(2);
    expect(local.list().map((tool) => tool.name)).toEqual(["calc.multiply"]);
    expect(sessions.size).toBe(1);
  });

  it("stateful: answers 404 for an unknown session, and keeps no session for a request that did not initialize one", async () => {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const url = await listen(stateful(calculator(), sessions));
    expect((await fetch(url, { method: "POST", headers: { "mcp-session-id": "nope" } })).status).toBe(404);
    const notInitialize = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(notInitialize.status).toBe(400);
    expect(sessions.size).toBe(0);
  });
});
