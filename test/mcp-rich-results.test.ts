import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type CallToolResult, CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { failureContent, isToolContent, toolContent, ToolDefinitionError, ToolRegistry, ToolResultValidationError, Type, type ToolContent } from "../src/index.js";
import { createMcpServer, registerMcpTools } from "../src/mcp/index.js";
import { anthropic } from "../src/providers/index.js";
import { connectInMemory } from "./fixtures-mcp/connect.js";
import { PNG } from "./fixtures/providers/rich.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";

const size = Type.Object({ width: Type.Integer(), height: Type.Integer() });
const plain = (schema: object): unknown => JSON.parse(JSON.stringify(schema));

/** A registry served over MCP to an official SDK client: tools with output schemas, a rich result, and one whose result breaks its schema. */
async function served(): Promise<{ client: Client; registry: ToolRegistry }> {
  const registry = new ToolRegistry();
  registry.register({ name: "measure", description: "Page size", parameters: Type.Object({}), outputSchema: size }, () => ({ width: 2, height: 3 }));
  registry.register({ name: "snapshot", description: "A screenshot", parameters: Type.Object({}), outputSchema: size }, () =>
    toolContent(
      [
        { type: "text", text: "The page:" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      { structuredContent: { width: 1, height: 1 } },
    ),
  );
  registry.register({ name: "broken", description: "Says it counts", parameters: Type.Object({}), outputSchema: Type.Object({ count: Type.Integer() }) }, () => ({ count: "many" }) as never);
  registry.register({ name: "dated", description: "No output schema", parameters: Type.Object({}) }, () => ({ at: new Date(0) }));
  registry.register({ name: "facts", description: "No output schema", parameters: Type.Object({}) }, () => ({ a: [1, { b: "c" }] }));
  return { client: await connectInMemory(createMcpServer(registry, { name: "pages", version: "1.0.0" })), registry };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createMcpServer with output schemas and rich results", () => {
  it("lists a tool's outputSchema as plain JSON beside its inputSchema, and none for a tool without one", async () => {
    const { client } = await served();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "measure")).toEqual({ name: "measure", description: "Page size", inputSchema: plain(Type.Object({})), outputSchema: plain(size) });
    expect(tools.find((tool) => tool.name === "dated")).not.toHaveProperty("outputSchema");
  });

  it("returns the checked value as structuredContent and its JSON as text, which the SDK client accepts against the listed schema", async () => {
    const { client } = await served();
    await client.listTools(); // the SDK client then checks structuredContent itself
    expect(await client.callTool({ name: "measure", arguments: {} })).toEqual({ content: [{ type: "text", text: '{"width":2,"height":3}' }], structuredContent: { width: 2, height: 3 } });
  });

  it("sends a toolContent result's items as they are, then the structured value's JSON as text, with structuredContent", async () => {
    const { client } = await served();
    await client.listTools();
    expect(await client.callTool({ name: "snapshot", arguments: {} })).toEqual({
      content: [
        { type: "text", text: "The page:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "text", text: '{"width":1,"height":1}' },
      ],
      structuredContent: { width: 1, height: 1 },
    });
  });

  it("answers a result that does not match its outputSchema with isError and text saying the tool ran, without the value", async () => {
    const { client } = await served();
    const result = (await client.callTool({ name: "broken", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = result.content.map((item) => (item.type === "text" ? item.text : "")).join("");
    expect(text).toContain('Tool "broken" ran, but its result did not match its declared output');
    expect(text).toContain("/count");
    expect(text).not.toContain("many");
    expect(result).not.toHaveProperty("structuredContent");
  });

  it("reads a value's JSON back only when the value is not JSON data already", async () => {
    const { client } = await served();
    const parse = vi.spyOn(JSON, "parse");
    expect((await client.callTool({ name: "facts", arguments: {} })).structuredContent).toEqual({ a: [1, { b: "c" }] });
    expect(parse).not.toHaveBeenCalled();
    expect((await client.callTool({ name: "dated", arguments: {} })).structuredContent).toEqual({ at: "1970-01-01T00:00:00.000Z" });
    expect(parse).toHaveBeenCalledTimes(1);
  });
});

/** The text of a result's text items, joined. */
const textOf = (result: CallToolResult): string => result.content.map((item) => (item.type === "text" ? item.text : "")).join("");

describe("createMcpServer sends as structuredContent only what matches the outputSchema", () => {
  /** A client that has listed the tools, so the SDK checks each structuredContent against its tool's outputSchema itself. */
  async function servedWith(setUp: (registry: ToolRegistry) => void): Promise<Client> {
    const registry = new ToolRegistry();
    setUp(registry);
    const client = await connectInMemory(createMcpServer(registry, { name: "s", version: "1" }));
    await client.listTools();
    return client;
  }

  it("answers a value whose toJSON turns a checked result into one that does not match with isError saying the tool ran, never the sent value", async () => {
    const client = await servedWith((registry) => {
      registry.register({ name: "price", description: "", parameters: Type.Object({}), outputSchema: Type.Object({ n: Type.Number() }) }, () => ({ n: 1, toJSON: () => ({ n: "not a number" }) }));
    });
    const result = (await client.callTool({ name: "price", arguments: {} })) as CallToolResult;
    expect(result).toEqual({ content: [{ type: "text", text: expect.any(String) }], isError: true });
    expect(textOf(result)).toBe(failureContent(new ToolResultValidationError("price", "x", ["/n: must be number"])));
    expect(textOf(result)).not.toContain("not a number");
  });

  it("answers a Date returned for an object outputSchema (sent as a string, so as no structuredContent) with isError saying the tool ran", async () => {
    const client = await servedWith((registry) => {
      registry.register({ name: "when", description: "", parameters: Type.Object({}), outputSchema: Type.Object({}, { additionalProperties: true }) }, () => new Date(0));
    });
    const result = (await client.callTool({ name: "when", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Tool "when" ran, but its result did not match its declared output');
    expect(textOf(result)).not.toContain("1970");
  });

  it("answers a toolContent result whose structuredContent's toJSON does not match with isError", async () => {
    const client = await servedWith((registry) => {
      registry.register({ name: "shot", description: "", parameters: Type.Object({}), outputSchema: size }, () =>
        toolContent([{ type: "image", data: PNG, mimeType: "image/png" }], { structuredContent: { width: 1, height: 1, toJSON: () => ({ width: "wide" }) } as never }),
      );
    });
    const result = (await client.callTool({ name: "shot", arguments: {} })) as CallToolResult;
    expect(result).not.toHaveProperty("structuredContent");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Tool "shot" ran, but its result did not match its declared output');
  });

  it("sends a result that is not plain JSON data as its JSON read back when that matches too (an undefined property, a class instance)", async () => {
    class Size {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {}
    }
    const client = await servedWith((registry) => {
      registry.register({ name: "loose", description: "", parameters: Type.Object({}), outputSchema: size }, () => ({ width: 2, height: 3, note: undefined }));
      registry.register({ name: "instance", description: "", parameters: Type.Object({}), outputSchema: size }, () => new Size(4, 5));
    });
    expect(await client.callTool({ name: "loose", arguments: {} })).toEqual({ content: [{ type: "text", text: '{"width":2,"height":3}' }], structuredContent: { width: 2, height: 3 } });
    expect(await client.callTool({ name: "instance", arguments: {} })).toEqual({ content: [{ type: "text", text: '{"width":4,"height":5}' }], structuredContent: { width: 4, height: 5 } });
  });
});

/** A low-level SDK server (not this package's) listing `tools` and answering every call with `answer`. */
async function thirdParty(tools: Tool[], answer: () => CallToolResult): Promise<Client> {
  const server = new Server({ name: "third-party", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, answer);
  return connectInMemory(server);
}

const counter: Tool = {
  name: "count",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
};

describe("registerMcpTools with output schemas and rich results", () => {
  it("takes a remote tool's outputSchema into its definition, and returns a matching structured result", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, (await served()).client);
    expect(registry.get("measure")?.outputSchema).toEqual(plain(size));
    expect(registry.get("dated")).not.toHaveProperty("outputSchema");
    expect(await registry.dispatch(toolCall("measure", {}))).toEqual({ width: 2, height: 3 });
  });

  it('reports a remote structuredContent that does not match as "ran, result did not match", not as a failure to retry', async () => {
    const client = await thirdParty([counter], () => ({ content: [{ type: "text", text: '{"count":"seven"}' }], structuredContent: { count: "seven" } }));
    await client.listTools(); // as an application may have: the SDK client now checks what its callTool returns
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    const error = await rejectionOf(registry.dispatch(toolCall("count", {})));
    expect(error).toBeInstanceOf(ToolResultValidationError);
    expect((error as ToolResultValidationError).issues).toEqual(["/count: must be integer"]);
    const [result] = await registry.dispatchAll([toolCall("count", {})]);
    expect(result).toMatchObject({ status: "error", content: expect.stringContaining('Tool "count" ran, but its result did not match its declared output') });
    expect(JSON.stringify(result)).not.toContain("seven");
  });

  it("reports a remote tool with an outputSchema that sends no structuredContent as not matching it", async () => {
    const client = await thirdParty([counter], () => ({ content: [{ type: "text", text: "7" }] }));
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    expect(await rejectionOf(registry.dispatch(toolCall("count", {})))).toBeInstanceOf(ToolResultValidationError);
  });

  it("keeps a remote result's image as toolContent with its structured value, and the Anthropic adapter sends it as an image block", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, (await served()).client);
    const value = await registry.dispatch(toolCall("snapshot", {}));
    expect(isToolContent(value)).toBe(true);
    expect((value as ToolContent).structuredContent).toEqual({ width: 1, height: 1 });
    const [result] = await registry.dispatchAll([toolCall("snapshot", {})]);
    expect(anthropic(registry).result(result!).content).toEqual([
      { type: "text", text: "The page:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "text", text: '{"width":1,"height":1}' },
    ]);
  });

  it("turns a resource link into a line of text, an image with a bad media type into a line saying it was left out, and pads base64", async () => {
    const client = await thirdParty([{ name: "files", inputSchema: { type: "object" } }], () => ({
      content: [
        { type: "image", data: PNG, mimeType: "png" },
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
        { type: "audio", data: "UklG\nRg", mimeType: "audio/wav", annotations: { priority: 1 } },
      ],
    }));
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    expect(((await registry.dispatch(toolCall("files", {}))) as ToolContent).content).toEqual([
      { type: "text", text: '[A content item of type "image" was left out: it cannot be shown here.]' },
      { type: "text", text: '[Resource "a.txt": file:///a.txt]' },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    ]);
  });

  it("keeps an image or a resource whose media type has parameters, without them", async () => {
    const resource = { uri: "file:///report.csv", mimeType: "text/csv; charset=utf-8", text: "a,b\n1,2" };
    const client = await thirdParty([{ name: "files", inputSchema: { type: "object" } }], () => ({
      content: [
        { type: "image", data: PNG, mimeType: "image/png; name=page.png" },
        { type: "resource", resource },
      ],
    }));
    const registry = new ToolRegistry({ cacheKey: "content" });
    await registerMcpTools(registry, client);
    expect(((await registry.dispatch(toolCall("files", {}))) as ToolContent).content).toEqual([
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { ...resource, mimeType: "text/csv" } },
    ]);
  });

  it("skips a remote tool whose outputSchema the registry refuses, as it does a bad inputSchema, and fails the listing with strict: true", async () => {
    const bad: Tool = { name: "bad", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "int" } } } };
    const client = await thirdParty([bad, counter], () => ({ content: [], structuredContent: { count: 1 } }));
    const registry = new ToolRegistry({ cacheKey: "content" });
    const registration = await registerMcpTools(registry, client);
    expect(registration.names).toEqual(["count"]);
    expect(registration.skipped.map(({ name }) => name)).toEqual(["bad"]);
    expect(registration.skipped[0]?.reason).toMatch(/^Invalid definition for tool "bad": .*\/properties\/n/);
    expect(await registry.dispatch(toolCall("count", {}))).toEqual({ count: 1 });
    const strict = await rejectionOf(registerMcpTools(new ToolRegistry({ cacheKey: "content" }), client, { strict: true }));
    expect(strict).toBeInstanceOf(ToolDefinitionError);
  });
});
