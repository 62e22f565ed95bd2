import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry } from "../../src/index.js";
import { registerMcpTools } from "../../src/mcp/index.js";
import { rejectionOf, toolCall } from "../support/fixtures.js";

const root = resolve(import.meta.dirname, "..", "..");
let folder: string;
let client: Client;

beforeAll(async () => {
  // A private build beside a copy of the example: the shared dist/ is rebuilt by `npm pack`
  // in package.test.ts while other test files run. Inside the repo, so that imports resolve
  // to its node_modules; the example's "../dist/…" imports find this build.
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  folder = mkdtempSync(join(root, "node_modules", ".cache", "ttr-stdio-"));
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", join(folder, "dist"), "--declaration", "false", "--sourceMap", "false"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // Type errors still emit JavaScript (the type check is npm test's first step); only a missing build is fatal here.
    if (!existsSync(join(folder, "dist", "mcp", "index.js"))) throw error;
  }
  mkdirSync(join(folder, "examples"));
  copyFileSync(join(root, "examples", "mcp-stdio-server.mjs"), join(folder, "examples", "mcp-stdio-server.mjs"));

  client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(folder, "examples", "mcp-stdio-server.mjs")], stderr: "pipe" }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe("the example MCP server over stdio, with the official SDK client", () => {
  it("lists the registry's tools with plain JSON input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "text.shout", "fail"]);
    expect(tools[0]).toEqual({
      name: "add",
      description: "Add two integers",
      inputSchema: { type: "object", required: ["a", "b"], properties: { a: { type: "integer" }, b: { type: "integer" } } },
    });
  });

  it("calls tools: an object result as JSON text with structuredContent, a string as text", async () => {
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toEqual({ content: [{ type: "text", text: '{"sum":42}' }], structuredContent: { sum: 42 } });
    expect(await client.callTool({ name: "text.shout", arguments: { text: "hi", exclaim: true } })).toEqual({ content: [{ type: "text", text: "HI!" }] });
  });

  it("answers invalid arguments and a failing tool with isError results, and an unknown tool with a JSON-RPC error", async () => {
    const invalid = await client.callTool({ name: "add", arguments: { a: "2", b: 40 } });
    expect(invalid).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining('Invalid arguments for tool "add"') }] });
    expect(await client.callTool({ name: "fail", arguments: {} })).toEqual({ content: [{ type: "text", text: 'Tool "fail" failed: this tool always fails' }], isError: true });
    const unknown = await rejectionOf(client.callTool({ name: "ad", arguments: {} }));
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toContain('Did you mean "add"?');
  });

  it("serves as the remote side of registerMcpTools", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client, { prefix: "example." });
    expect(await registry.dispatch(toolCall("example.add", { a: 1, b: 2 }))).toEqual({ sum: 3 });
    expect(await rejectionOf(registry.dispatch(toolCall("example.add", { a: 1 })))).toBeInstanceOf(ToolArgumentsValidationError);
  });
});
