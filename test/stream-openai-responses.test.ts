import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it } from "vitest";
import { openAIResponses, ProviderFormatError } from "../src/providers/index.js";
import { type ServerSentEvent, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { CUT_OFF, expectTurn, piecesOf, RIDE, runTurn, type StreamedCall, TEXT, UNKNOWN, WEATHER } from "./fixtures/providers/streamed-turn.js";
import { weatherAndRideRegistry } from "./fixtures/providers/tools.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const response = (status: string) => ({ id: "resp_1", object: "response", created_at: 1_741_476_542, status, error: null, incomplete_details: null, model: "gpt-4.1", output: [], tools: [] });
const itemId = (call: StreamedCall) => `fc_${call.id}`;
const item = (call: StreamedCall, text: string, status: string) => ({ type: "function_call", id: itemId(call), call_id: call.id, name: call.name, arguments: text, status });

/** The turn as the Responses API streams it, with the weather and ride arguments interleaved by item, and the stream cut off (incomplete) in the last call. */
function turnEvents(): ServerSentEvent[] {
  let sequence = 0;
  const event = (type: string, body: Record<string, unknown>, delayMs?: number): ServerSentEvent => ({ event: type, data: { type, sequence_number: sequence++, ...body }, ...(delayMs === undefined ? {} : { delayMs }) });
  const text = (output_index: number, delta: string) => event("response.output_text.delta", { item_id: `msg_${output_index}`, output_index, content_index: 0, delta, logprobs: [] });
  const added = (output_index: number, call: StreamedCall) => event("response.output_item.added", { output_index, item: item(call, "", "in_progress") });
  const delta = (output_index: number, call: StreamedCall, piece: string) => event("response.function_call_arguments.delta", { item_id: itemId(call), output_index, delta: piece });
  const done = (output_index: number, call: StreamedCall) => [
    event("response.function_call_arguments.done", { item_id: itemId(call), output_index, arguments: call.text }),
    event("response.output_item.done", { output_index, item: item(call, call.text, "completed") }),
  ];
  const events = [event("response.created", { response: response("in_progress") }), text(0, TEXT[0]), added(1, WEATHER), added(2, RIDE)];
  const weather = piecesOf(WEATHER);
  const ride = piecesOf(RIDE);
  for (let position = 0; position < Math.max(weather.length, ride.length); position++) {
    if (position < weather.length) events.push(delta(1, WEATHER, weather[position]!));
    if (position < ride.length) events.push(delta(2, RIDE, ride[position]!));
  }
  events.push(...done(1, WEATHER), ...done(2, RIDE), text(3, TEXT[1]), added(4, UNKNOWN), delta(4, UNKNOWN, UNKNOWN.text), ...done(4, UNKNOWN), text(5, TEXT[2]), added(6, CUT_OFF));
  for (const piece of piecesOf(CUT_OFF)) events.push(delta(6, CUT_OFF, piece));
  events.push(event("response.incomplete", { response: response("incomplete") }));
  return events;
}

function client(origin: string): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: `${origin}/v1`, maxRetries: 0 });
}

describe("openAIResponses(registry).deltas, reading the openai SDK's stream", () => {
  it("streams interleaved calls split inside tokens, escapes and surrogate pairs; an unknown tool fails at once; a cut-off call fails alone; no text is lost", async () => {
    server = await startReplayServer([() => ({ events: turnEvents() })]);
    const registry = weatherAndRideRegistry();
    const responses = openAIResponses(registry, { names: "map" });
    const stream = await client(server.origin).responses.create({ model: "gpt-4.1", input: "Weather and a ride", tools: responses.tools(), stream: true });
    let text = "";
    const onEvent = (event: ResponseStreamEvent) => {
      if (event.type === "response.output_text.delta") text += event.delta;
    };
    const outcome = await runTurn(registry, responses.deltas(stream, { onEvent }), () => text);
    expectTurn(outcome, { weather: WEATHER.id, ride: RIDE.id, unknown: UNKNOWN.id, cut: CUT_OFF.id });
  });

  it("sends what the deltas missed of a call's text from its done event, and a call announced only when done", async () => {
    const registry = weatherAndRideRegistry();
    const responses = openAIResponses(registry);
    async function* events() {
      yield { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "" } };
      yield { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"ci' };
      yield { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"city":"Oslo"}' };
      yield { type: "response.output_item.done", output_index: 1, item: { type: "function_call", id: "fc_2", call_id: "call_2", name: "get_weather", arguments: '{"city":"Rome"}' } };
    }
    const results = [];
    for await (const event of registry.dispatchStream(responses.deltas(events()))) if (event.type === "tool-result") results.push(event.result);
    expect(results.map((result) => result.status === "ok" && result.value)).toEqual([
      { city: "Oslo", temperature: 21, unit: "celsius" },
      { city: "Rome", temperature: 21, unit: "celsius" },
    ]);
  });

  it("fails a call whose done event carries a text other than the one that streamed, rather than run what streamed while the history records the other", async () => {
    const registry = weatherAndRideRegistry();
    const responses = openAIResponses(registry);
    async function* events() {
      yield { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "" } };
      yield { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"city":"Oslo"}' };
      yield { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: '{"city":"Rome"}' };
      yield { type: "response.output_item.done", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city":"Rome"}' } };
    }
    const results = [];
    for await (const event of registry.dispatchStream(responses.deltas(events()))) if (event.type === "tool-result") results.push(event.result);
    expect(results).toHaveLength(1);
    const failure = results[0]!;
    expect(failure.isError && failure.error).toBeInstanceOf(ProviderFormatError);
    expect(failure.isError && failure.error.message).toContain("differs from the text its deltas streamed");
    expect(failure.isError && failure.content).not.toMatch(/Oslo|Rome/);
  });
});
