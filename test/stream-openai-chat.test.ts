import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, describe, expect, it } from "vitest";
import { ToolRegistry, Type } from "../src/index.js";
import { openAIChat } from "../src/providers/index.js";
import { type ServerSentEvent, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { CUT_OFF, expectTurn, piecesOf, RIDE, runTurn, TEXT, UNKNOWN, WEATHER } from "./fixtures/providers/streamed-turn.js";
import { weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { thrownBy } from "./support/fixtures.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function chunk(delta: unknown, finishReason: string | null = null, delayMs?: number): ServerSentEvent {
  const data = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4.1-2025-04-14", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
  return delayMs === undefined ? { data } : { data, delayMs };
}

const toolCall = (index: number, fields: Record<string, unknown>) => chunk({ tool_calls: [{ index, ...fields }] });
const named = (index: number, call: { id: string; name: string }) => toolCall(index, { id: call.id, type: "function", function: { name: call.name, arguments: "" } });
const piece = (index: number, text: string) => toolCall(index, { function: { arguments: text } });

/** The turn as Chat Completions streams it: text, the weather and ride calls interleaved by index, text, an unknown tool, a call cut off, text. */
function turnChunks(options: { pauseBeforeEndMs?: number } = {}): ServerSentEvent[] {
  const weather = piecesOf(WEATHER);
  const ride = piecesOf(RIDE);
  const events = [chunk({ role: "assistant", content: "", refusal: null }), chunk({ content: TEXT[0] }), named(0, WEATHER), named(1, RIDE)];
  for (let position = 0; position < Math.max(weather.length, ride.length); position++) {
    if (position < weather.length) events.push(piece(0, weather[position]!));
    if (position < ride.length) events.push(piece(1, ride[position]!));
  }
  events.push(chunk({ content: TEXT[1] }), toolCall(2, { id: UNKNOWN.id, type: "function", function: { name: UNKNOWN.name, arguments: UNKNOWN.text } }), named(3, CUT_OFF));
  for (const text of piecesOf(CUT_OFF)) events.push(piece(3, text));
  events.push(chunk({ content: TEXT[2] }, null, options.pauseBeforeEndMs), chunk({}, "tool_calls"), { data: "[DONE]" });
  return events;
}

function client(origin: string): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: `${origin}/v1`, maxRetries: 0 });
}

describe("openAIChat(registry).deltas, reading the openai SDK's stream", () => {
  it("streams interleaved calls split inside tokens, escapes and surrogate pairs; an unknown tool fails at once; a cut-off call fails alone; no text is lost", async () => {
    server = await startReplayServer([() => ({ events: turnChunks() })]);
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const stream = await client(server.origin).chat.completions.create({ model: "gpt-4.1", messages: [{ role: "user", content: "Weather and a ride" }], tools: chat.tools(), stream: true });
    let text = "";
    const outcome = await runTurn(registry, chat.deltas(stream, { onEvent: (event: ChatCompletionChunk) => (text += event.choices[0]?.delta.content ?? "") }), () => text);
    expectTurn(outcome, { weather: WEATHER.id, ride: RIDE.id, unknown: UNKNOWN.id, cut: CUT_OFF.id });
  });

  it("runs each call while the model is still streaming: results arrive before the stream ends", async () => {
    server = await startReplayServer([() => ({ events: turnChunks({ pauseBeforeEndMs: 200 }) })]);
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const stream = await client(server.origin).chat.completions.create({ model: "gpt-4.1", messages: [], tools: chat.tools(), stream: true });
    const order: string[] = [];
    const deltas = chat.deltas(stream, { onEvent: (event) => event.choices[0]?.finish_reason && order.push("finish") });
    for await (const event of registry.dispatchStream(deltas)) if (event.type === "tool-result") order.push(event.toolCallId);
    expect(order.indexOf(WEATHER.id)).toBeLessThan(order.indexOf("finish"));
    expect(order.indexOf(RIDE.id)).toBeLessThan(order.indexOf("finish"));
  });

  it("leaves the SDK's own accumulation whole: the final completion of a .stream() is there for the next request", async () => {
    server = await startReplayServer([() => ({ events: turnChunks() })]);
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const stream = client(server.origin).chat.completions.stream({ model: "gpt-4.1", messages: [], tools: chat.tools() });
    for await (const _event of registry.dispatchStream(chat.deltas(stream))) void _event;
    const message = (await stream.finalChatCompletion()).choices[0]!.message;
    expect(message.tool_calls?.map((call) => call.id)).toEqual([WEATHER.id, RIDE.id, UNKNOWN.id, CUT_OFF.id]);
    expect(message.content).toBe(TEXT.join(""));
  });

  it("drops the nulls strict mode makes the model send, as call() does", async () => {
    const registry = new ToolRegistry().register({ name: "find", description: "", parameters: Type.Object({ q: Type.String(), limit: Type.Optional(Type.Integer()) }) }, (args) => args);
    const chat = openAIChat(registry, { strict: true });
    server = await startReplayServer([() => ({ events: [named(0, { id: "c1", name: "find" }), piece(0, '{"q":"x",'), piece(0, '"limit":null}'), chunk({}, "tool_calls")] })]);
    const stream = await client(server.origin).chat.completions.create({ model: "gpt-4.1", messages: [], tools: chat.tools(), stream: true });
    const events = [];
    for await (const event of registry.dispatchStream(chat.deltas(stream))) events.push(event);
    expect(events.filter((event) => event.type === "tool-call-invalid")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "tool-result", result: { isError: false, value: { q: "x" } } });
  });

  it("ends a call whose text is complete when the next call begins, and keeps interleaved calls open until theirs is", async () => {
    const registry = weatherAndRideRegistry();
    const chat = openAIChat(registry);
    async function* chunks() {
      yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "a", function: { name: "get_weather", arguments: '{"city":' } }] } }] };
      yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: "b", function: { name: "get_weather", arguments: '{"city":"B"}' } }] } }] };
      yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"A"}' } }] } }] };
      yield { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: " " } }] } }] };
      yield { choices: [{ index: 1, delta: { tool_calls: [{ index: 0, id: "other-choice", function: { name: "get_weather", arguments: "{}" } }] } }] };
      yield { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] };
    }
    const deltas = [];
    for await (const delta of chat.deltas(chunks())) deltas.push(delta);
    expect(deltas.filter((delta) => delta.done).map((delta) => delta.toolCallId)).toEqual(["b", "a"]);
    expect(deltas.some((delta) => delta.toolCallId === "other-choice")).toBe(false);
  });

  it("throws a TypeError for an onEvent that is not a function, before reading", () => {
    const chat = openAIChat(new ToolRegistry());
    expect(thrownBy(() => chat.deltas((async function* () {})(), { onEvent: "log" as never }))).toEqual(new TypeError('onEvent must be a function, got "log"'));
  });
});
