// An MCP server over stdio that serves a ToolRegistry's tools.
// Build first (`npm run build`), then: node examples/mcp-stdio-server.mjs
// Any MCP client can spawn it, e.g. the SDK's StdioClientTransport({ command: "node", args: [thisFile] }).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer } from "../dist/mcp/index.js";
import { ToolRegistry, Type } from "../dist/index.js";

const registry = new ToolRegistry({ timeoutMs: 10_000 });

registry.register(
  {
    name: "add",
    description: "Add two integers",
    parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }),
  },
  ({ a, b }) => ({ sum: a + b }),
);

registry.register(
  {
    name: "text.shout",
    description: "Upper-case a text, optionally with an exclamation mark",
    parameters: Type.Object({ text: Type.String({ maxLength: 1000 }), exclaim: Type.Optional(Type.Boolean()) }),
  },
  ({ text, exclaim }) => `${text.toUpperCase()}${exclaim ? "!" : ""}`,
);

registry.register(
  {
    name: "fail",
    description: "Always fails, to show how a failure reaches the client",
    parameters: Type.Object({}),
  },
  () => {
    throw new Error("this tool always fails");
  },
);

const server = createMcpServer(registry, { name: "typebox-tool-registry-example", version: "1.0.0" });
await server.connect(new StdioServerTransport());
// stdout carries the protocol: log to stderr only.
console.error(`serving ${registry.list().length} tools over stdio`);
