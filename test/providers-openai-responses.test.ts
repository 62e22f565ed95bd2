import OpenAI from "openai";
import type { FunctionTool, ResponseFunctionToolCall, ResponseInput, ResponseInputItem } from "openai/resources/responses/responses";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { ToolRegistry, Type, type ToolResult } from "../src/index.js";
import { openAIResponses, ProviderFormatError } from "../src/providers/index.js";
import { demand, type RecordedRequest, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { type CallLog, weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { thrownBy } from "./support/fixtures.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FUNCTION_CALLS = [
  { id: "fc_1", call_id: "call_a", name: "get_weather", arguments: '{"city":"Lisbon"}' },
  { id: "fc_2", call_id: "call_b", name: "uber_ride", arguments: '{"loc":"Lisbon","type":"black","time":-5}' },
];

function functionCallItem(call: (typeof FUNCTION_CALLS)[number], status: "in_progress" | "completed", args = call.arguments): unknown {
  return { type: "function_call", id: call.id, call_id: call.call_id, name: call.name, arguments: args, status };
}

/** A documented `response` object (trimmed to the fields the SDK reads), with the given output items. */
function response(output: unknown[], status: "in_progress" | "completed" = "completed"): Record<string, unknown> {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1_741_476_542,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: "gpt-4.1-2025-04-14",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: 1,
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    metadata: {},
  };
}

function finalResponse(text: string): Record<string, unknown> {
  return response([
    { type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] },
  ]);
}

/** The documented event sequence of a streamed response that calls two functions. */
function streamedEvents(): Array<{ event: string; data: unknown }> {
  let sequence = 0;
  const event = (type: string, body: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: sequence++, ...body } });
  const events = [event("response.created", { response: response([], "in_progress") }), event("response.in_progress", { response: response([], "in_progress") })];
  FUNCTION_CALLS.forEach((call, output_index) => {
    events.push(event("response.output_item.added", { output_index, item: functionCallItem(call, "in_progress", "") }));
    for (let start = 0; start < call.arguments.length; start += 5) {
      events.push(event("response.function_call_arguments.delta", { item_id: call.id, output_index, delta: call.arguments.slice(start, start + 5) }));
    }
    events.push(event("response.function_call_arguments.done", { item_id: call.id, output_index, arguments: call.arguments }));
    events.push(event("response.output_item.done", { output_index, item: functionCallItem(call, "completed") }));
  });
  events.push(event("response.completed", { response: response(FUNCTION_CALLS.map((call) => functionCallItem(call, "completed"))) }));
  return events;
}

function checkOutputs(request: RecordedRequest): void {
  const input = (request.body as { input: Array<Record<string, unknown>> }).input;
  const outputs = input.filter((item) => item.type === "function_call_output");
  demand(outputs.length === 2, `expected 2 function_call_output items, got ${outputs.length}`);
  demand(outputs[0]?.call_id === "call_a" && outputs[1]?.call_id === "call_b", "each output must echo its call_id, not the item id");
  demand(outputs[0]?.output === JSON.stringify({ city: "Lisbon", temperature: 21, unit: "celsius" }), "the weather output must be its JSON");
  const rideOutput = String(outputs[1]?.output);
  demand(rideOutput.includes('Invalid arguments for tool "uber_ride"') && rideOutput.includes("/time: must be >= 0"), "the ride's invalid time must be reported");
  demand(!rideOutput.includes("uber.ride"), "the model must be told the name it was sent, never the registry's");
  demand(input.filter((item) => item.type === "function_call").length === 2, "the function calls must be sent back before their outputs");
}

function checkTools(request: RecordedRequest): void {
  const tools = (request.body as { tools: Array<Record<string, unknown>> }).tools;
  demand(tools.length === 2 && tools.every((tool) => tool.type === "function" && tool.strict === false), "tools must be function tools with strict: false");
  demand(tools[1]?.name === "uber_ride", "the dotted name must be sent mapped");
}

/** The two test tools in a registry, its adapter (names mapped), and an SDK client of the replay server. */
function agent(origin: string) {
  const log: CallLog = [];
  const registry = weatherAndRideRegistry(log);
  const openai = new OpenAI({ apiKey: "test-key", baseURL: `${origin}/v1`, maxRetries: 0 });
  return { log, registry, responses: openAIResponses(registry, { names: "map" }), openai };
}

describe("OpenAI Responses, end to end with the openai SDK", () => {
  it("runs a response's function calls and sends back a function_call_output per call_id", async () => {
    server = await startReplayServer([
      (request) => (checkTools(request), { json: response(FUNCTION_CALLS.map((call) => functionCallItem(call, "completed"))) }),
      (request) => (checkOutputs(request), { json: finalResponse("It is 21 °C in Lisbon.") }),
    ]);
    const { log, registry, responses, openai } = agent(server.origin);
    const tools = responses.tools();
    let input: ResponseInput = [{ role: "user", content: "Weather in Lisbon, and a ride" }];

    const first = await openai.responses.create({ model: "gpt-4.1", input, tools });
    const calls = first.output.flatMap((item) => (item.type === "function_call" ? [responses.call(item)] : []));
    const results = await registry.dispatchAll(calls);
    input = [...input, ...(first.output as ResponseInputItem[]), ...results.map(responses.result)];
    const second = await openai.responses.create({ model: "gpt-4.1", input, tools });

    expect(second.output_text).toBe("It is 21 °C in Lisbon.");
    expect(log).toEqual([{ tool: "get_weather", args: { city: "Lisbon" } }]);
    expect(calls.map((call) => call.id)).toEqual(["call_a", "call_b"]);
  });

  it("runs the function calls the SDK assembles from the streamed events", async () => {
    server = await startReplayServer([
      (request) => (checkTools(request), { events: streamedEvents() }),
      (request) => (checkOutputs(request), { json: finalResponse("Done.") }),
    ]);
    const { log, registry, responses, openai } = agent(server.origin);
    const tools = responses.tools();
    let input: ResponseInput = [{ role: "user", content: "Weather in Lisbon, and a ride" }];

    const stream = openai.responses.stream({ model: "gpt-4.1", input, tools });
    const streamedItems: ResponseFunctionToolCall[] = [];
    stream.on("response.output_item.done", (event) => {
      if (event.item.type === "function_call") streamedItems.push(event.item);
    });
    const first = await stream.finalResponse();
    const results = await registry.dispatchAll(streamedItems.map(responses.call));
    input = [...input, ...(first.output as ResponseInputItem[]), ...results.map(responses.result)];
    const second = await openai.responses.create({ model: "gpt-4.1", input, tools });

    expect(second.output_text).toBe("Done.");
    expect(log).toEqual([{ tool: "get_weather", args: { city: "Lisbon" } }]);
  });
});

describe("openAIResponses(registry).call", () => {
  const { call } = openAIResponses(new ToolRegistry());

  it("takes the id from call_id, not from the item id", () => {
    const read = call({ type: "function_call", id: "fc_9", call_id: "call_9", name: "t", arguments: '{"a":1}' } as ResponseFunctionToolCall);
    expect(read).toEqual({ type: "tool_call", id: "call_9", name: "t", arguments: { a: 1 } });
  });

  it("keeps arguments that are not a JSON object as text for dispatch to report", () => {
    expect(call({ type: "function_call", call_id: "c", name: "t", arguments: "{oops" }).arguments).toBe("{oops");
  });

  it("refuses an item that is not a function call with a ProviderFormatError", () => {
    expect(thrownBy(() => call({ type: "message", call_id: "c", name: "t", arguments: "{}" }))).toBeInstanceOf(ProviderFormatError);
    expect(thrownBy(() => call({ type: "function_call", id: "fc", name: "t", arguments: "{}" } as never))).toBeInstanceOf(ProviderFormatError);
  });

  it("drops the nulls strict mode makes the model send, only when made with strict: true", () => {
    const registry = weatherAndRideRegistry();
    const item = { type: "function_call", call_id: "c", name: "get_weather", arguments: '{"city":"Oslo","unit":null}' };
    expect(openAIResponses(registry).call(item).arguments).toEqual({ city: "Oslo", unit: null });
    expect(openAIResponses(registry, { strict: true }).call(item).arguments).toEqual({ city: "Oslo" });
  });
});

describe("openAIResponses(registry).tools and .result", () => {
  it("sends strict: false unless made with strict: true, since the Responses API defaults to strict", () => {
    const registry = new ToolRegistry().register({ name: "t", description: "d", parameters: Type.Object({ a: Type.String() }) }, () => 1);
    const [loose] = openAIResponses(registry).tools();
    const [strict] = openAIResponses(registry, { strict: true }).tools();
    expect(loose).toEqual({ type: "function", name: "t", description: "d", parameters: { type: "object", required: ["a"], properties: { a: { type: "string" } } }, strict: false });
    expect(strict).toMatchObject({ strict: true, parameters: { additionalProperties: false } });
    expectTypeOf(openAIResponses(registry).tools()).toMatchTypeOf<FunctionTool[]>();
  });

  it("answers a call with a function_call_output carrying its call_id and text", () => {
    const result: ToolResult = { status: "ok", toolCallId: "call_1", toolName: "t", isError: false, value: [1, 2] };
    const output = openAIResponses(new ToolRegistry()).result(result);
    expect(output).toEqual({ type: "function_call_output", call_id: "call_1", output: "[1,2]" });
    expectTypeOf(output).toMatchTypeOf<ResponseInputItem>();
  });
});
