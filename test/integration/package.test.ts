import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The packed package, installed into an empty folder, is what a user gets: test that, not src/.
const root = resolve(import.meta.dirname, "..", "..");
let folder: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "ttr-pack-"));
  // dist/ was built by the global setup; building again here would race the other test files.
  run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", folder], root);
  const tarball = readdirSync(folder).find((file) => file.endsWith(".tgz"));
  if (tarball === undefined) throw new Error("npm pack wrote no tarball");
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // The MCP SDK is an optional peer dependency: a user of the ./mcp subpath installs it beside us.
  const sdk = JSON.parse(readFileSync(join(root, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8")) as { version: string };
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(folder, tarball), `@modelcontextprotocol/sdk@${sdk.version}`], folder);
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the packed package", () => {
  it("imports from plain Node ESM and dispatches a tool call", () => {
    writeFileSync(
      join(folder, "main.mjs"),
      `import { ToolRegistry, Type, ToolArgumentsValidationError } from "typebox-tool-registry";
const registry = new ToolRegistry();
registry.register({ name: "read", description: "Read", parameters: Type.Object({ path: Type.String() }) }, ({ path }) => "read " + path);
const ok = await registry.dispatch({ type: "tool_call", id: "1", name: "read", arguments: '{"path":"a"}' });
const bad = await registry.dispatch({ type: "tool_call", id: "2", name: "read", arguments: { path: 20 } }).catch((error) => error);
console.log(JSON.stringify({ ok, bad: bad instanceof ToolArgumentsValidationError, issues: bad.issues }));
`,
    );
    expect(JSON.parse(run("node", ["main.mjs"], folder))).toEqual({ ok: "read a", bad: true, issues: ["/path: must be string"] });
  });

  it("serves the providers and mcp subpaths: a real MCP client lists and calls a registry tool", () => {
    writeFileSync(
      join(folder, "subpaths.mjs"),
      `import { ToolRegistry, Type } from "typebox-tool-registry";
import { anthropic, openAIChat } from "typebox-tool-registry/providers";
import { createMcpServer } from "typebox-tool-registry/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
const registry = new ToolRegistry().register({ name: "add", description: "Add", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) }, ({ a, b }) => String(a + b));
const viaOpenAI = await registry.dispatch(openAIChat(registry).call({ id: "c1", type: "function", function: { name: "add", arguments: '{"a":1,"b":2}' } }));
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await createMcpServer(registry, { name: "demo", version: "1.0.0" }).connect(serverTransport);
const client = new Client({ name: "consumer", version: "1.0.0" });
await client.connect(clientTransport);
const listed = (await client.listTools()).tools.map((tool) => tool.name);
const called = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
const refused = await client.callTool({ name: "add", arguments: { a: "2", b: 3 } });
console.log(JSON.stringify({ viaOpenAI, anthropic: anthropic(registry).tools().map((tool) => tool.name), listed, called: called.content[0].text, refused: refused.isError }));
await client.close();
`,
    );
    expect(JSON.parse(run("node", ["subpaths.mjs"], folder))).toEqual({ viaOpenAI: "3", anthropic: ["add"], listed: ["add"], called: "5", refused: true });
  });

  it("type-checks a TypeScript consumer against the shipped declarations", () => {
    writeFileSync(
      join(folder, "consumer.ts"),
      `import { ToolRegistry, Type, type Static, type ToolDefinition, type ToolResult } from "typebox-tool-registry";
import { openAIChat } from "typebox-tool-registry/providers";
const parameters = Type.Object({ path: Type.String(), offset: Type.Optional(Type.Integer()) });
const read = { name: "read", description: "Read a file", parameters } satisfies ToolDefinition<typeof parameters>;
const registry = new ToolRegistry({ cacheSize: 64 });
registry.register(read, (args, context) => {
  const path: string = args.path;
  const offset: number | undefined = args.offset;
  return \`\${path}:\${offset ?? 0}:\${context.toolCallId}\`;
});
// @ts-expect-error the schema says path is a string
registry.register({ ...read, name: "read2" }, (args: { path: number }) => args.path);
const json = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;
registry.register({ name: "forecast", description: "", parameters: json }, ({ city }) => city.toUpperCase());
type Read = Static<typeof parameters>;
const sample: Read = { path: "a" };
const results: Promise<ToolResult[]> = registry.dispatchAll([{ type: "tool_call", id: "1", name: "read", arguments: sample }]);
export const tools = openAIChat(registry, { names: "map", strict: true }).tools();
export { results };
`,
    );
    writeFileSync(
      join(folder, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true, skipLibCheck: false, types: [] }, files: ["consumer.ts"] }),
    );
    run(join(root, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], folder);
  });

  it("can be required from CommonJS, as the README says for Node 20.19 or later", () => {
    writeFileSync(
      join(folder, "main.cjs"),
      `const { ToolRegistry, Type } = require("typebox-tool-registry");
const { openAIChat } = require("typebox-tool-registry/providers");
const registry = new ToolRegistry().register({ name: "ping", description: "Ping", parameters: Type.Object({}) }, () => "pong");
console.log(JSON.stringify(openAIChat(registry).tools().map((tool) => tool.function.name)));
`,
    );
    const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
    expect(major > 20 || minor >= 19).toBe(true); // the README's floor for require(): this test runs above it
    expect(JSON.parse(run("node", ["main.cjs"], folder))).toEqual(["ping"]);
  });

  it.each(["NodeNext", "Node16", "Bundler"])("resolves every subpath's types with moduleResolution %s", (moduleResolution) => {
    writeFileSync(
      join(folder, "subpaths.ts"),
      `import { ToolRegistry } from "typebox-tool-registry";
import { openAIChat } from "typebox-tool-registry/providers";
import { createMcpServer } from "typebox-tool-registry/mcp";
import type { PrecompiledValidators } from "typebox-tool-registry/precompiled";
const validators: PrecompiledValidators = {};
export const server = createMcpServer(new ToolRegistry({ precompiled: validators }), { name: "s", version: "1" });
export const tools = openAIChat(new ToolRegistry()).tools();
`,
    );
    const module = moduleResolution === "Bundler" ? "ESNext" : moduleResolution;
    writeFileSync(
      join(folder, `tsconfig.${moduleResolution}.json`),
      JSON.stringify({ compilerOptions: { strict: true, module, moduleResolution, target: "ES2022", noEmit: true, skipLibCheck: true, types: [] }, files: ["subpaths.ts"] }),
    );
    run(join(root, "node_modules", ".bin", "tsc"), ["-p", `tsconfig.${moduleResolution}.json`], folder);
  });

  it("ships JavaScript and type declarations only", () => {
    const files = readdirSync(join(folder, "node_modules", "typebox-tool-registry", "dist"));
    expect(files).toContain("index.js");
    expect(files).toContain("index.d.ts");
    expect(files.some((file) => file.endsWith(".test.js"))).toBe(false);
  });
});
