import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolRegistry } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import type { Invoker, Subject } from "./subject.js";

const SERVER_INFO = { name: "bench", version: "1.0.0" };
const ONE: CallToolResult = { content: [{ type: "text", text: "1" }] };

/** This library's MCP server, `createMcpServer(registry)`, called by the SDK's `Client` over its in-memory transport. */
export const registryMcpServer: Subject = {
  id: "registry-mcp",
  label: "createMcpServer(registry)",
  packageName: "typebox-tool-registry",
  calls: "createMcpServer(registry) on InMemoryTransport; client.callTool({ name, arguments })",
  connect: async (schemas, handler) => {
    const registry = new ToolRegistry().register({ name: "tool", description: "benchmark tool", parameters: schemas.typebox }, (args) => handler(args));
    return connected(createMcpServer(registry, SERVER_INFO));
  },
};

/** The MCP SDK's own `McpServer` with a Zod schema, on the same transport and client. */
export const sdkMcpServer: Subject = {
  id: "mcp-sdk-zod",
  label: "MCP SDK McpServer, Zod",
  packageName: "@modelcontextprotocol/sdk",
  calls: "new McpServer().registerTool(name, { inputSchema: zodSchema }, handler) on InMemoryTransport; client.callTool",
  connect: async (schemas, handler) => {
    const server = new McpServer(SERVER_INFO);
    server.registerTool("tool", { description: "benchmark tool", inputSchema: schemas.zod }, async (args: unknown) => {
      handler(args);
      return ONE;
    });
    return connected(server);
  },
};

/**
 * The floor of the round trip: the SDK's low-level `Server` whose `tools/call`
 * handler runs the handler on the arguments as they came, unchecked and uncopied.
 */
export const bareMcpServer: Subject = {
  id: "mcp-sdk-bare",
  label: "MCP SDK Server, no check (the protocol's floor)",
  packageName: "@modelcontextprotocol/sdk",
  calls: "new Server() with a tools/call handler that checks nothing; client.callTool",
  connect: async (schemas, handler) => {
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "tool", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      handler(request.params.arguments);
      return ONE;
    });
    return connected(server);
  },
};

async function connected(server: Server | McpServer): Promise<Invoker> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    object: (args) => client.callTool({ name: "tool", arguments: args }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
