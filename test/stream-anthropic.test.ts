import Anthropic from "@anthropic-ai/sdk";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { afterEach, describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { anthropic } from "../src/providers/index.js";
import { type ServerSentEvent, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { CUT_OFF, expectTurn, piecesOf, RIDE, runTurn, type StreamedCall, TEXT, UNKNOWN, WEATHER } from "./fixtures/providers/streamed-turn.js";
import { weatherAndRideRegistry } from "./fixtures/providers/tools.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const usage = { input_tokens: 120, output_tokens: 60, cache_creation_input_tokens: null, cache_read_input_tokens: null, server_tool_use: null, service_tier: "standard" };
const event = (type: string, body: Record<string, unknown> = {}): ServerSentEvent => ({ event: type, data: { type, ...body } });
const message = event("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [], stop_reason: null, stop_sequence: null, usage } });
const textBlock = (index: number, text: string) => [
  event("content_block_start", { index, content_block: { type: "text", text: "", citations: null } }),
  event("content_block_delta", { index, delta: { type: "text_delta", text } }),
  event("content_block_stop", { index }),
];
const toolStart = (index: number, call: StreamedCall) => event("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
const json = (index: number, text: string) => event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: text } });

/** The turn as the Messages API streams it, the weather and ride inputs interleaved by block index, the stream cut off in the last block. */
function turnEvents(): ServerSentEvent[] {
  const events = [message, ...textBlock(0, TEXT[0]), toolStart(1, WEATHER), toolStart(2, RIDE), json(1, ""), event("ping")];
  const weather = piecesOf(WEATHER);
  const ride = piecesOf(RIDE);
  for (let position = 0; position < Math.max(weather.length, ride.length); position++) {
    if (position < weather.length) events.push(json(1, weather[position]!));
    if (position < ride.length) events.push(json(2, ride[position]!));
  }
  events.push(event("content_block_stop", { index: 1 }), event("content_block_stop", { index: 2 }), ...textBlock(3, TEXT[1]));
  events.push(toolStart(4, UNKNOWN), json(4, UNKNOWN.text), event("content_block_stop", { index: 4 }), ...textBlock(5, TEXT[2]), toolStart(6, CUT_OFF));
  for (const piece of piecesOf(CUT_OFF)) events.push(json(6, piece));
  return events;
}

describe("anthropic(registry).deltas, reading the @anthropic-ai/sdk stream", () => {
  it("streams interleaved calls split inside tokens, escapes and surrogate pairs; an unknown tool fails at once; a cut-off call fails alone; no text is lost", async () => {
    server = await startReplayServer([() => ({ events: turnEvents() })]);
    const registry = weatherAndRideRegistry();
    const claude = anthropic(registry, { names: "map" });
    const client = new Anthropic({ apiKey: "test-key", baseURL: server.origin, maxRetries: 0 });
    const stream = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 1024, messages: [{ role: "user", content: "Weather and a ride" }], tools: claude.tools(), stream: true });
    let text = "";
    const onEvent = (streamEvent: RawMessageStreamEvent) => {
      if (streamEvent.type === "content_block_delta" && streamEvent.delta.type === "text_delta") text += streamEvent.delta.text;
    };
    const outcome = await runTurn(registry, claude.deltas(stream, { onEvent }), () => text);
    expectTurn(outcome, { weather: WEATHER.id, ride: RIDE.id, unknown: UNKNOWN.id, cut: CUT_OFF.id });
  });

  it("reads a tool with no arguments, which streams no JSON text at all, as {}", async () => {
    server = await startReplayServer([() => ({ events: [message, toolStart(0, { id: "toolu_1", name: "list", text: "" }), json(0, ""), event("content_block_stop", { index: 0 }), event("message_stop")] })]);
    const registry = new ToolRegistry().register({ name: "list", description: "", parameters: Type.Object({}) }, (args) => args);
    const claude = anthropic(registry);
    const client = new Anthropic({ apiKey: "test-key", baseURL: server.origin, maxRetries: 0 });
    const stream = client.messages.stream({ model: "claude-sonnet-4-6", max_tokens: 1024, messages: [], tools: claude.tools() });
    const results = [];
    for await (const streamEvent of registry.dispatchStream(claude.deltas(stream))) if (streamEvent.type === "tool-result") results.push(streamEvent.result);
    expect(results).toEqual([{ status: "ok", toolCallId: "toolu_1", toolName: "list", isError: false, value: {} }]);
  });
});
