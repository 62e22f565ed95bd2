import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { ToolArgumentsValidationError, ToolRegistry, Type, type ToolCallContent, type ToolResult } from "../src/index.js";
import { openAIChat, ProviderFormatError, ProviderNameError } from "../src/providers/index.js";
import { demand, type RecordedRequest, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { type CallLog, weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { rejectionOf, thrownBy } from "./support/fixtures.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(origin: string): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: `${origin}/v1`, maxRetries: 0 });
}

// The model's turn: two good calls (one to the mapped name uber_ride), arguments that are cut-off JSON, and a wrong type.
const TOOL_CALLS = [
  { id: "call_1", name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}' },
  { id: "call_2", name: "uber_ride", arguments: '{"loc":"Berkeley","type":"plus","time":10}' },
  { id: "call_3", name: "get_weather", arguments: '{"city":"Ro' },
  { id: "call_4", name: "get_weather", arguments: '{"city":42}' },
];

/** A documented `chat.completion` object whose assistant message calls tools. */
function completionWithToolCalls(toolCalls: ReadonlyArray<{ id: string; name: string; arguments: string }> = TOOL_CALLS): unknown {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-4.1-2025-04-14",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: toolCalls.map(({ id, name, arguments: args }) => ({ id, type: "function", function: { name, arguments: args } })),
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: 80, completion_tokens: 40, total_tokens: 120 },
  };
}

function finalCompletion(text: string): unknown {
  return {
    id: "chatcmpl-2",
    object: "chat.completion",
    created: 1_700_000_001,
    model: "gpt-4.1-2025-04-14",
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 200, completion_tokens: 5, total_tokens: 205 },
  };
}

/** The documented stream of `chat.completion.chunk`s for the same tool calls, arguments split into pieces. */
function chunksWithToolCalls(): Array<{ data: unknown }> {
  const chunk = (delta: unknown, finish_reason: string | null = null) => ({
    data: { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-4.1-2025-04-14", choices: [{ index: 0, delta, logprobs: null, finish_reason }] },
  });
  const events = [chunk({ role: "assistant", content: null, refusal: null })];
  TOOL_CALLS.forEach(({ id, name, arguments: args }, index) => {
    events.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] }));
    for (let start = 0; start < args.length; start += 7) events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(start, start + 7) } }] }));
  });
  events.push(chunk({}, "tool_calls"));
  return [...events, { data: "[DONE]" }];
}

/** The server's check of the second request: one tool message per call, in order, with the expected content. */
function checkToolMessages(request: RecordedRequest): void {
  const messages = (request.body as { messages: Array<Record<string, unknown>> }).messages;
  const toolMessages = messages.filter((message) => message.role === "tool");
  demand(toolMessages.length === 4, `expected 4 tool messages, got ${toolMessages.length}`);
  demand(
    toolMessages.every((message, index) => message.tool_call_id === `call_${index + 1}` && typeof message.content === "string"),
    "each tool message must answer its call, in order, with text content",
  );
  const [weather, ride, cutOff, wrongType] = toolMessages.map((message) => message.content as string);
  demand(weather === JSON.stringify({ city: "Paris", temperature: 21, unit: "celsius" }), "weather result must be the value's JSON");
  demand(ride === "Booked a plus ride from Berkeley in 10 minutes", "a string result must be sent as is");
  demand(cutOff!.includes('Invalid arguments for tool "get_weather"') && cutOff!.includes("/: arguments must be valid JSON"), "cut-off JSON must be reported");
  demand(wrongType!.includes("/city: must be string") && !wrongType!.includes("42"), "a wrong type must be reported without the value");
  const assistant = messages.find((message) => message.role === "assistant") as { tool_calls?: unknown[] } | undefined;
  demand(assistant?.tool_calls?.length === 4, "the assistant message with its tool calls must be sent back");
}

function checkToolsSent(request: RecordedRequest): void {
  const tools = (request.body as { tools: Array<{ type: string; function: { name: string; parameters: { type: string } } }> }).tools;
  demand(tools.map((tool) => tool.function.name).join() === "get_weather,uber_ride", "tools must be sent with OpenAI-safe names");
  demand(tools.every((tool) => tool.type === "function" && tool.function.parameters.type === "object"), "tools must be function tools with object schemas");
}

/** The two test tools in a registry, its adapter (names mapped), and an SDK client of the replay server. */
function agent(origin: string) {
  const log: CallLog = [];
  const registry = weatherAndRideRegistry(log);
  return { log, registry, chat: openAIChat(registry, { names: "map" }), openai: client(origin) };
}

describe("OpenAI Chat Completions, end to end with the openai SDK", () => {
  it("runs a non-streaming turn's tool calls and sends every result back as a tool message", async () => {
    server = await startReplayServer([
      (request) => (checkToolsSent(request), { json: completionWithToolCalls() }),
      (request) => (checkToolMessages(request), { json: finalCompletion("Paris is at 21 °C and your ride is booked.") }),
    ]);
    const { log, registry, chat, openai } = agent(server.origin);
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris, and book me a ride" }];

    const first = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: chat.tools() });
    const message = first.choices[0]!.message;
    const calls = (message.tool_calls ?? []).map(chat.call);
    const results = await registry.dispatchAll(calls);
    messages.push(message, ...results.map(chat.result));
    const second = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: chat.tools() });

    expect(second.choices[0]?.message.content).toBe("Paris is at 21 °C and your ride is booked.");
    expect(log).toEqual([
      { tool: "get_weather", args: { city: "Paris", unit: "celsius" } },
      { tool: "uber.ride", args: { loc: "Berkeley", type: "plus", time: 10 } },
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, false, true, true]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });

  it("runs the tool calls the SDK accumulates from a streamed response", async () => {
    server = await startReplayServer([
      (request) => (checkToolsSent(request), { events: chunksWithToolCalls() }),
      (request) => (checkToolMessages(request), { json: finalCompletion("Done.") }),
    ]);
    const { log, registry, chat, openai } = agent(server.origin);
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris, and book me a ride" }];

    const stream = openai.chat.completions.stream({ model: "gpt-4.1", messages, tools: chat.tools() });
    const message = (await stream.finalChatCompletion()).choices[0]!.message;
    const results = await registry.dispatchAll((message.tool_calls ?? []).map(chat.call));
    messages.push(message, ...results.map(chat.result));
    const second = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: chat.tools() });

    expect(second.choices[0]?.message.content).toBe("Done.");
    expect(log.map((entry) => entry.tool)).toEqual(["get_weather", "uber.ride"]);
  });

  it("sends strict tools and drops the nulls strict mode makes the model send for optional properties", async () => {
    server = await startReplayServer([
      (request) => {
        const [weather] = (request.body as { tools: Array<{ function: { strict?: boolean; parameters: Record<string, unknown> } }> }).tools;
        demand(weather?.function.strict === true, "strict tools must say strict: true");
        demand(JSON.stringify(weather.function.parameters.required) === '["city","unit"]', "strict mode must require every property");
        demand(weather.function.parameters.additionalProperties === false, "strict mode must forbid additional properties");
        return { json: completionWithToolCalls([{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo","unit":null}' }]) };
      },
    ]);
    const log: CallLog = [];
    const registry = weatherAndRideRegistry(log);
    registry.unregister("uber.ride");
    const openai = client(server.origin);
    const chat = openAIChat(registry, { strict: true });

    const completion = await openai.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "user", content: "Weather in Oslo" }],
      tools: chat.tools(),
    });
    const calls = (completion.choices[0]!.message.tool_calls ?? []).map(chat.call);
    const [result] = await registry.dispatchAll(calls);

    expect(result).toMatchObject({ isError: false, value: { city: "Oslo", unit: "celsius" } });
    expect(log).toEqual([{ tool: "get_weather", args: { city: "Oslo" } }]);
  });
});

describe("openAIChat(registry).call", () => {
  const { call } = openAIChat(weatherAndRideRegistry());
  const toolCall = (args: string) => ({ id: "call_9", type: "function", function: { name: "get_weather", arguments: args } });

  it("parses arguments text that is a JSON object into a ToolCallContent", () => {
    expect(call(toolCall('{"city":"Paris"}'))).toEqual({ type: "tool_call", id: "call_9", name: "get_weather", arguments: { city: "Paris" } });
  });

  it("keeps arguments text that is not JSON, so dispatch reports it as invalid JSON", async () => {
    const read = call(toolCall('{"city": "Par'));
    expect(read.arguments).toBe('{"city": "Par');
    const error = await rejectionOf(weatherAndRideRegistry().dispatch(read));
    expect(error).toBeInstanceOf(ToolArgumentsValidationError);
    expect((error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be valid JSON"]);
  });

  it("keeps JSON text that is not an object, so dispatch reports that arguments must be an object", async () => {
    for (const text of ["[]", "null", '"Paris"', "42"]) {
      const error = await rejectionOf(weatherAndRideRegistry().dispatch(call(toolCall(text))));
      expect((error as ToolArgumentsValidationError).issues).toEqual(["/: arguments must be a plain object"]);
    }
  });

  it("refuses a custom tool call, a missing id and a non-string arguments with a ProviderFormatError", () => {
    const custom = { id: "call_1", type: "custom", custom: { name: "grammar", input: "free text" } };
    expect(thrownBy(() => call(custom))).toBeInstanceOf(ProviderFormatError);
    expect(thrownBy(() => call({ type: "function", function: { name: "x", arguments: "{}" } } as never))).toBeInstanceOf(ProviderFormatError);
    expect(thrownBy(() => call({ id: "1", type: "function", function: { name: "x", arguments: { a: 1 } } } as never))).toBeInstanceOf(ProviderFormatError);
  });

  it("throws only typed errors for objects that are not tool calls at all", () => {
    const throwing = { id: "1", type: "function", get function(): never { throw new Error("boom"); } };
    for (const bad of [null, undefined, "call", 42, [], throwing]) {
      const error = thrownBy(() => call(bad as never));
      expect(error).toBeInstanceOf(ProviderFormatError);
      expect((error as Error).message).not.toContain("boom");
    }
  });

  it("leaves arguments text over the registry's size limit unparsed, for dispatch to refuse", async () => {
    const text = JSON.stringify({ city: "x".repeat(2 * 1024 * 1024) });
    const registry = new ToolRegistry({ maxArgumentBytes: 1024 * 1024 }).register(
      { name: "get_weather", description: "", parameters: Type.Object({ city: Type.String() }) },
      () => "sunny",
    );
    const read = openAIChat(registry).call(toolCall(text));
    expect(read.arguments).toBe(text);
    const error = (await rejectionOf(registry.dispatch(read))) as ToolArgumentsValidationError;
    expect(error.issues).toEqual(["/: arguments must not be larger than 1048576 bytes"]);
  });

  it("maps a provider name back to the registry name with the adapter's own name map", () => {
    const chat = openAIChat(weatherAndRideRegistry(), { names: "map" });
    expect(chat.tools().map((tool) => tool.function.name)).toEqual(["get_weather", "uber_ride"]);
    expect(chat.call({ id: "c", type: "function", function: { name: "uber_ride", arguments: "{}" } }).name).toBe("uber.ride");
  });

  it('reads names as they come with names: "strict", where nothing was mapped', () => {
    expect(call({ id: "c", type: "function", function: { name: "uber_ride", arguments: "{}" } }).name).toBe("uber_ride");
  });

  it("keeps null for an optional property unless the adapter was made with strict: true", () => {
    const args = '{"city":"Oslo","unit":null}';
    expect(call(toolCall(args)).arguments).toEqual({ city: "Oslo", unit: null });
    expect(openAIChat(weatherAndRideRegistry(), { strict: true }).call(toolCall(args)).arguments).toEqual({ city: "Oslo" });
  });

  it("accepts the SDK's tool call types and returns what dispatch accepts", () => {
    expectTypeOf<ChatCompletionMessageToolCall>().toMatchTypeOf<Parameters<typeof call>[0]>();
    const registry = new ToolRegistry();
    const dispatch = (toolCall: ChatCompletionMessageToolCall) => registry.dispatch(call(toolCall));
    expectTypeOf(dispatch).returns.toEqualTypeOf<Promise<unknown>>();
    expectTypeOf(call(toolCall("{}"))).toEqualTypeOf<ToolCallContent>();
  });
});

describe("openAIChat(registry).tools", () => {
  it("describes each tool as a function tool with its schema as plain JSON", () => {
    const registry = new ToolRegistry().register(
      { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) },
      () => "",
    );
    const tools = openAIChat(registry).tools();
    expect(tools).toEqual([
      {
        type: "function",
        function: { name: "read", description: "Read a file", parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } } },
      },
    ]);
    expect(Object.getOwnPropertySymbols(tools[0]!.function.parameters)).toEqual([]);
    expectTypeOf(tools).toMatchTypeOf<ChatCompletionTool[]>();
  });

  it("sends tools registered after the adapter was made", () => {
    const registry = new ToolRegistry();
    const chat = openAIChat(registry);
    registry.register({ name: "late", description: "", parameters: Type.Object({}) }, () => "");
    expect(chat.tools().map((tool) => tool.function.name)).toEqual(["late"]);
  });

  it('refuses a name OpenAI rejects with a ProviderNameError naming the tool, unless made with names: "map"', () => {
    const registry = weatherAndRideRegistry();
    const error = thrownBy(() => openAIChat(registry).tools());
    expect(error).toBeInstanceOf(ProviderNameError);
    expect((error as ProviderNameError).toolName).toBe("uber.ride");
    expect((error as Error).message).toContain('"uber.ride"');
    expect((error as Error).message).toContain('{ names: "map" }');
    expect(openAIChat(registry, { names: "map" }).tools().map((tool) => tool.function.name)).toEqual(["get_weather", "uber_ride"]);
  });
});

describe("openAIChat(registry).result", () => {
  const { result } = openAIChat(new ToolRegistry());
  const success = (value: unknown): ToolResult => ({ status: "ok", toolCallId: "call_1", toolName: "t", isError: false, value });

  it("sends a string as is, any other value as JSON, and nothing as empty text", () => {
    expect(result(success("hi"))).toEqual({ role: "tool", tool_call_id: "call_1", content: "hi" });
    expect(result(success({ a: [1] })).content).toBe('{"a":[1]}');
    expect(result(success(undefined)).content).toBe("");
  });

  it("sends a failure's text for the model", () => {
    const failure: ToolResult = { status: "error", toolCallId: "call_2", toolName: "t", isError: true, error: new Error("x"), content: "Tool \"t\" failed: x" };
    expect(result(failure)).toEqual({ role: "tool", tool_call_id: "call_2", content: 'Tool "t" failed: x' });
  });

  it("reports a value with no JSON text by its type, never its contents", () => {
    const content = result(success({ secret: 10n })).content;
    expect(content).toBe("The tool returned a value that cannot be sent as JSON (object).");
    expect(result(success(() => "secret")).content).toBe("The tool returned a value that cannot be sent as JSON (function).");
    expectTypeOf(result(success(1))).toMatchTypeOf<ChatCompletionToolMessageParam>();
  });
});
