import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, Tool, ToolResultBlockParam, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { ToolRegistry, Type, type ToolResult } from "../src/index.js";
import { anthropic, ProviderFormatError, ProviderNameError } from "../src/providers/index.js";
import { demand, type RecordedRequest, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { type CallLog, weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { thrownBy } from "./support/fixtures.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A good call, a good call to the mapped name, an input missing `city` with a bad unit, and a misspelled tool.
const TOOL_USES = [
  { id: "toolu_1", name: "get_weather", input: { city: "Kyoto", unit: "fahrenheit" } },
  { id: "toolu_2", name: "uber_ride", input: { loc: "Kyoto station", type: "comfort", time: 5 } },
  { id: "toolu_3", name: "get_weather", input: { unit: "kelvin" } },
  { id: "toolu_4", name: "get_wether", input: { city: "Osaka" } },
];

const usage = { input_tokens: 120, output_tokens: 60, cache_creation_input_tokens: null, cache_read_input_tokens: null, server_tool_use: null, service_tier: "standard" };

/** A documented Messages API response that stops for tool use. */
function messageWithToolUse(): unknown {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [{ type: "text", text: "Let me check.", citations: null }, ...TOOL_USES.map((use) => ({ type: "tool_use", ...use }))],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage,
  };
}

function finalMessage(text: string): unknown {
  return { id: "msg_2", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [{ type: "text", text, citations: null }], stop_reason: "end_turn", stop_sequence: null, usage };
}

/** The documented server-sent events of the same turn, each input streamed as input_json_delta pieces. */
function streamedEvents(): Array<{ event: string; data: unknown }> {
  const event = (type: string, body: Record<string, unknown> = {}) => ({ event: type, data: { type, ...body } });
  const events = [
    event("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage } }),
    event("content_block_start", { index: 0, content_block: { type: "text", text: "", citations: null } }),
    event("ping"),
    event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Let me check." } }),
    event("content_block_stop", { index: 0 }),
  ];
  TOOL_USES.forEach(({ id, name, input }, position) => {
    const index = position + 1;
    const json = JSON.stringify(input);
    events.push(event("content_block_start", { index, content_block: { type: "tool_use", id, name, input: {} } }));
    events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } }));
    for (let start = 0; start < json.length; start += 6) events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json.slice(start, start + 6) } }));
    events.push(event("content_block_stop", { index }));
  });
  events.push(event("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 60 } }));
  events.push(event("message_stop"));
  return events;
}

/** The server's check of the second request: a user message of tool_result blocks, failures flagged with is_error. */
function checkToolResults(request: RecordedRequest): void {
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.at(-1);
  demand(last?.role === "user" && Array.isArray(last.content), "tool results must come in a user message of blocks");
  const blocks = last.content as Array<Record<string, unknown>>;
  demand(blocks.every((block) => block.type === "tool_result"), "every block must be a tool_result");
  demand(blocks.map((block) => block.tool_use_id).join() === "toolu_1,toolu_2,toolu_3,toolu_4", "each result must answer its tool_use id, in order");
  demand(blocks.map((block) => block.is_error === true).join() === "false,false,true,true", "failures, and only failures, must carry is_error: true");
  demand(!("is_error" in blocks[0]!) && typeof blocks[0]!.content === "string", "a success must be text without is_error");
  demand(blocks[1]!.content === "Booked a comfort ride from Kyoto station in 5 minutes", "a string result must be sent as is");
  const invalid = String(blocks[2]!.content);
  demand(invalid.includes("/city: must have required properties city") && !invalid.includes("kelvin"), "invalid input must be reported without its values");
  demand(String(blocks[3]!.content).includes('Did you mean "get_weather"?'), "an unknown tool must be reported with a suggestion");
  demand(messages[1]?.role === "assistant", "the assistant turn with its tool_use blocks must be sent back");
}

function checkTools(request: RecordedRequest): void {
  const tools = (request.body as { tools: Array<{ name: string; input_schema: { type: string } }> }).tools;
  demand(tools.map((tool) => tool.name).join() === "get_weather,uber_ride", "tools must be sent with Anthropic-safe names");
  demand(tools.every((tool) => tool.input_schema.type === "object"), "each input_schema must be an object schema");
}

async function runTurn(streaming: boolean): Promise<{ log: CallLog; reply: string }> {
  const log: CallLog = [];
  const registry = weatherAndRideRegistry(log);
  const claude = anthropic(registry, { names: "map" });
  const client = new Anthropic({ apiKey: "test-key", baseURL: server!.origin, maxRetries: 0 });
  const messages: MessageParam[] = [{ role: "user", content: "Weather in Kyoto, and a ride from the station" }];
  const request = { model: "claude-sonnet-4-6", max_tokens: 1024, messages, tools: claude.tools() };

  const message = streaming ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
  const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [claude.call(block)] : []));
  const results = await registry.dispatchAll(calls);
  messages.push({ role: "assistant", content: message.content }, { role: "user", content: results.map(claude.result) });
  const reply = await client.messages.create({ ...request, messages });
  const first = reply.content[0];
  return { log, reply: first?.type === "text" ? first.text : "" };
}

describe("Anthropic Messages, end to end with the @anthropic-ai/sdk client", () => {
  it("runs a response's tool_use blocks and sends back tool_result blocks, failures with is_error", async () => {
    server = await startReplayServer([
      (request) => (checkTools(request), { json: messageWithToolUse() }),
      (request) => (checkToolResults(request), { json: finalMessage("Kyoto is at 70 °F; your ride is booked.") }),
    ]);
    const { log, reply } = await runTurn(false);
    expect(reply).toBe("Kyoto is at 70 °F; your ride is booked.");
    expect(log).toEqual([
      { tool: "get_weather", args: { city: "Kyoto", unit: "fahrenheit" } },
      { tool: "uber.ride", args: { loc: "Kyoto station", type: "comfort", time: 5 } },
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/messages", "/v1/messages"]);
  });

  it("runs the tool_use blocks the SDK assembles from streamed input_json_delta events", async () => {
    server = await startReplayServer([
      (request) => (checkTools(request), { events: streamedEvents() }),
      (request) => (checkToolResults(request), { json: finalMessage("Done.") }),
    ]);
    const { log, reply } = await runTurn(true);
    expect(reply).toBe("Done.");
    expect(log.map((entry) => entry.args)).toEqual([
      { city: "Kyoto", unit: "fahrenheit" },
      { loc: "Kyoto station", type: "comfort", time: 5 },
    ]);
  });
});

describe("anthropic(registry).call", () => {
  const { call } = anthropic(new ToolRegistry());

  it("reads a tool_use block into a ToolCallContent", () => {
    expect(call({ type: "tool_use", id: "toolu_9", name: "t", input: { a: 1 } })).toEqual({ type: "tool_call", id: "toolu_9", name: "t", arguments: { a: 1 } });
    expectTypeOf<ToolUseBlock>().toMatchTypeOf<Parameters<typeof call>[0]>();
  });

  it("refuses a text block, and input that is not an object, with a ProviderFormatError", () => {
    expect(thrownBy(() => call({ type: "text", text: "hi" } as never))).toBeInstanceOf(ProviderFormatError);
    for (const input of [null, "{}", [1], 3]) {
      expect(thrownBy(() => call({ type: "tool_use", id: "t", name: "t", input }))).toBeInstanceOf(ProviderFormatError);
    }
  });
});

describe("anthropic(registry).tools and .result", () => {
  it("describes each tool with its schema as input_schema", () => {
    const registry = new ToolRegistry().register({ name: "t", description: "d", parameters: Type.Object({ n: Type.Number() }) }, () => 1);
    expect(anthropic(registry).tools()).toEqual([{ name: "t", description: "d", input_schema: { type: "object", required: ["n"], properties: { n: { type: "number" } } } }]);
    expectTypeOf(anthropic(registry).tools()).toMatchTypeOf<Tool[]>();
  });

  it('refuses a dotted name with a ProviderNameError unless made with names: "map"', () => {
    expect(thrownBy(() => anthropic(weatherAndRideRegistry()).tools())).toBeInstanceOf(ProviderNameError);
    expect(anthropic(weatherAndRideRegistry(), { names: "map" }).tools().map((tool) => tool.name)).toEqual(["get_weather", "uber_ride"]);
  });

  it("leaves content out when the handler returned nothing, and flags only failures", () => {
    const { result } = anthropic(new ToolRegistry());
    const nothing: ToolResult = { status: "ok", toolCallId: "toolu_1", toolName: "t", isError: false, value: undefined };
    const failed: ToolResult = { status: "error", toolCallId: "toolu_2", toolName: "t", isError: true, error: new Error("x"), content: "it failed" };
    expect(result(nothing)).toEqual({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(result(failed)).toEqual({ type: "tool_result", tool_use_id: "toolu_2", content: "it failed", is_error: true });
    expectTypeOf(result(failed)).toMatchTypeOf<ToolResultBlockParam>();
  });
});
