import { describe, expect, it } from "vitest";
import type { ToolCallDelta, ToolResult, ToolStreamEvent } from "../src/index.js";
import { anthropic, gemini, GENERATED_GEMINI_ID_PREFIX, openAIChat, openAIResponses, ProviderFormatError } from "../src/providers/index.js";
import { type CallLog, weatherAndRideRegistry } from "./fixtures/providers/tools.js";

/** Chunks as a hostile or broken server might send them, whatever the SDK's types say (typed as any chunk type). */
async function* chunks(items: readonly unknown[]): AsyncGenerator<never> {
  for (const item of items) yield item as never;
}

interface Turn {
  /** Each call's result, by its id. */
  readonly results: Record<string, ToolResult>;
  /** The ids of the calls that started, in order. */
  readonly started: readonly string[];
  /** The city of each call that ran, in order. */
  readonly ran: readonly unknown[];
}

/** Runs a stream's calls through dispatchStream; checks that each call that starts ends with exactly one result. */
async function runTurn(deltas: (registry: ReturnType<typeof weatherAndRideRegistry>) => AsyncIterable<ToolCallDelta>): Promise<Turn> {
  const log: CallLog = [];
  const registry = weatherAndRideRegistry(log);
  const events: ToolStreamEvent[] = [];
  for await (const event of registry.dispatchStream(deltas(registry))) events.push(event);
  const started = events.filter((event) => event.type === "tool-call-start").map((event) => event.toolCallId);
  const ended = events.filter((event) => event.type === "tool-result");
  expect(ended.map((event) => event.toolCallId).sort()).toEqual([...started].sort());
  const results = Object.fromEntries(ended.map((event) => [event.toolCallId, event.type === "tool-result" ? event.result : undefined!]));
  return { results, started, ran: log.map((entry) => (entry.args as { city?: unknown }).city) };
}

/** A failed result whose error is a ProviderFormatError, and whose text for the model holds none of `secrets`. */
function expectFormatFailure(result: ToolResult | undefined, ...secrets: string[]): void {
  expect(result).toMatchObject({ status: "error", isError: true });
  expect(result!.isError && result!.error).toBeInstanceOf(ProviderFormatError);
  for (const secret of secrets) expect(result!.isError && result!.content).not.toContain(secret);
}

describe("openAIChat(registry).deltas, given chunks no server should send", () => {
  const choice = (delta: unknown, finishReason: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const piece = (index: number, fields: Record<string, unknown>) => choice({ tool_calls: [{ index, ...fields }] });
  const call = (index: number, id: string, text: string) => piece(index, { id, type: "function", function: { name: "get_weather", arguments: text } });
  const more = (index: number, text: string) => piece(index, { function: { arguments: text } });

  it("fails a call sent with an earlier call's id under the stand-in id openai-chat-index-<index>, and runs the others", async () => {
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([call(0, "call_1", '{"city":"Oslo"}'), call(1, "call_1", '{"city":"Secret"}'), call(2, "call_3", '{"city":"Rome"}'), choice({}, "tool_calls")])),
    );
    expect(turn.started).toEqual(["call_1", "openai-chat-index-1", "call_3"]);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
    expectFormatFailure(turn.results["openai-chat-index-1"], "Secret");
    expect(turn.results["openai-chat-index-1"]).toMatchObject({ toolName: "get_weather" });
  });

  it("reads calls a server sends all at index 0 (as Ollama does) by their ids: each runs once, as itself", async () => {
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([call(0, "call_A", '{"city":"Oslo"}'), call(0, "call_B", '{"city":"Rome"}'), more(0, " "), choice({}, "tool_calls")])),
    );
    expect(turn.started).toEqual(["call_A", "call_B"]);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
  });

  it("reads calls a server sends at one index with no ids by their names, once the first call's text is complete", async () => {
    const nameless = (text: string) => piece(0, { type: "function", function: { name: "get_weather", arguments: text } });
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks([nameless('{"city":'), more(0, '"Oslo"} '), nameless('{"city":"Rome"}'), choice({}, "tool_calls")])));
    expect(turn.started).toHaveLength(2);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
  });

  it("reads calls a server sends at one index with no ids, each name in a piece of its own before its text, as OpenAI shapes them", async () => {
    const name = () => piece(0, { type: "function", function: { name: "get_weather", arguments: "" } });
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([name(), more(0, '{"city":'), more(0, '"Oslo"}'), name(), more(0, '{"city":"Rome"}'), choice({}, "tool_calls")])),
    );
    expect(turn.started).toHaveLength(2);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
  });

  it.each([
    ["the choice finishes", true],
    ["the stream ends", false],
  ])("loses no call a server names at one index with no ids and then sends no text for, when %s: it ends with a result", async (_end, finishes) => {
    const named = (name: string, text: string) => piece(0, { type: "function", function: { name, arguments: text } });
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([named("get_weather", '{"city":"Oslo"}'), named("uber.ride", ""), ...(finishes ? [choice({}, "tool_calls")] : [])])),
    );
    expect(turn.started).toHaveLength(2);
    expect(turn.ran).toEqual(["Oslo"]);
    const ride = Object.values(turn.results).find((result) => result.toolName === "uber.ride");
    expect(ride).toMatchObject({ status: "error", isError: true });
  });

  it("names no call of its own with a name a server repeats for a call whose text is complete (as vLLM sends it)", async () => {
    const named = (text: string) => piece(0, { type: "function", function: { name: "get_weather", arguments: text } });
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks([named('{"city":"Oslo"}'), named(""), choice({}, "tool_calls")])));
    expect(turn.started).toHaveLength(1);
    expect(turn.ran).toEqual(["Oslo"]);
  });

  it("continues a call whose id the server changes along the way with no new name", async () => {
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([call(0, "id_1", ""), piece(0, { id: "id_2", function: { arguments: '{"city":' } }), piece(0, { id: "id_2", function: { arguments: '"Oslo"}' } }), choice({}, "tool_calls")])),
    );
    expect(turn.started).toEqual(["id_1"]);
    expect(turn.ran).toEqual(["Oslo"]);
  });

  it("fails a call that another id interrupts at its index before its text is complete, and never runs it with the other's arguments", async () => {
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks([call(0, "call_A", '{"city":'), call(0, "call_B", '"Secret"}'), choice({}, "tool_calls")])));
    expect(turn.started).toEqual(["call_A", "call_B"]);
    expect(turn.ran).toEqual([]);
    expectFormatFailure(turn.results["call_A"], "Secret");
    expect(turn.results["call_B"]).toMatchObject({ status: "error", error: { name: "ToolArgumentsValidationError" } });
  });

  it("continues a call whose id (and name) the server repeats on each of its pieces, as vLLM does", async () => {
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks([call(0, "call_A", '{"city":'), call(0, "call_A", '"Oslo"}'), choice({}, "tool_calls")])));
    expect(turn.started).toEqual(["call_A"]);
    expect(turn.ran).toEqual(["Oslo"]);
  });

  it.each([
    ['"choices" that is not a list', { choices: 5 }],
    ["a null choice", { choices: [null] }],
    ['"tool_calls" that is not a list', { choices: [{ index: 0, delta: { tool_calls: {} } }] }],
    ["a null tool call", { choices: [{ index: 0, delta: { tool_calls: [null] } }] }],
    ["a null chunk", null],
  ])("reads on past a chunk with %s: the call it may have cut fails with a ProviderFormatError, a complete one ends and runs, later ones run", async (_shape, malformed) => {
    const seen: unknown[] = [];
    const sent = [call(0, "a", '{"city":"Oslo"}'), malformed, call(1, "b", '{"city":"Be'), malformed, more(1, 'rlin"}'), call(2, "c", '{"city":"Rome"}'), choice({}, "tool_calls")];
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks(sent), { onEvent: (chunk) => seen.push(chunk) }));
    expect(turn.started).toEqual(["a", "b", "c"]);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
    expectFormatFailure(turn.results.b, "Be");
    expect(seen).toEqual(sent);
  });

  it("loses no call a readable choice starts in a chunk whose other choice cannot be read: it starts, and ends with a result", async () => {
    const beside = (chunk: { choices: unknown[] }) => ({ choices: [...chunk.choices, null] });
    const turn = await runTurn((registry) => openAIChat(registry).deltas(chunks([beside(call(0, "a", '{"city":')), more(0, '"Oslo"}'), call(1, "b", '{"city":"Rome"}'), choice({}, "tool_calls")])));
    expect(turn.started).toEqual(["a", "b"]);
    expect(turn.ran).toEqual(["Rome"]);
    expectFormatFailure(turn.results.a, "Oslo");
  });

  it("fails only its own call when a piece whose index is known holds arguments that are not text", async () => {
    const turn = await runTurn((registry) =>
      openAIChat(registry).deltas(chunks([call(0, "a", '{"city":'), call(1, "b", '{"city":"B"'), piece(1, { function: { arguments: 5 } }), more(1, "}"), more(0, '"Oslo"}'), choice({}, "tool_calls")])),
    );
    expect(turn.ran).toEqual(["Oslo"]);
    expectFormatFailure(turn.results.b);
  });
});

describe("openAIResponses(registry).deltas, given events no server should send", () => {
  const added = (index: number, itemId: string, callId: string) => ({ type: "response.output_item.added", output_index: index, item: { type: "function_call", id: itemId, call_id: callId, name: "get_weather", arguments: "" } });
  const delta = (itemId: string, text: string) => ({ type: "response.function_call_arguments.delta", item_id: itemId, delta: text });
  const done = (itemId: string, text: string) => ({ type: "response.function_call_arguments.done", item_id: itemId, arguments: text });

  it("reads on past a null event: an open call runs when its end's whole text confirms what streamed, fails when a piece was lost", async () => {
    const turn = await runTurn((registry) =>
      openAIResponses(registry).deltas(
        chunks([
          ...[added(0, "fc_a", "a"), delta("fc_a", '{"city":"Oslo"}'), done("fc_a", '{"city":"Oslo"}')],
          ...[added(1, "fc_b", "b"), delta("fc_b", '{"city":"Be'), null, delta("fc_b", 'rlin"}'), done("fc_b", '{"city":"Berlin"}')],
          // The null event here held the piece `me`: what streamed is not the beginning of the whole text.
          ...[added(2, "fc_c", "c"), delta("fc_c", '{"city":"Ro'), null, delta("fc_c", '"}'), done("fc_c", '{"city":"Rome"}')],
          ...[added(3, "fc_d", "d"), delta("fc_d", '{"city":"Lima"}'), done("fc_d", '{"city":"Lima"}')],
        ]),
      ),
    );
    expect(turn.started).toEqual(["a", "b", "c", "d"]);
    expect(turn.ran).toEqual(["Oslo", "Berlin", "Lima"]);
    expectFormatFailure(turn.results.c, "Ro");
  });

  it("fails an item sent with an earlier item's call_id under the stand-in id openai-responses-output-<output_index>", async () => {
    const turn = await runTurn((registry) =>
      openAIResponses(registry).deltas(chunks([added(0, "fc_a", "call_1"), added(1, "fc_b", "call_1"), delta("fc_a", '{"city":"Oslo"}'), delta("fc_b", '{"city":"Secret"}'), done("fc_a", '{"city":"Oslo"}'), done("fc_b", '{"city":"Secret"}')])),
    );
    expect(turn.started).toEqual(["call_1", "openai-responses-output-1"]);
    expect(turn.ran).toEqual(["Oslo"]);
    expectFormatFailure(turn.results["openai-responses-output-1"], "Secret");
  });

  it("fails an item sent with a finished item's id, under its own call_id, and never reads its pieces as the first one's", async () => {
    const turn = await runTurn((registry) =>
      openAIResponses(registry).deltas(chunks([added(0, "fc_1", "call_A"), delta("fc_1", '{"city":"Oslo"}'), done("fc_1", '{"city":"Oslo"}'), added(1, "fc_1", "call_B"), delta("fc_1", '{"city":"Secret"}'), done("fc_1", '{"city":"Secret"}')])),
    );
    expect(turn.started).toEqual(["call_A", "call_B"]);
    expect(turn.ran).toEqual(["Oslo"]);
    expectFormatFailure(turn.results.call_B, "Secret");
  });

  it("fails both items when the second comes under the id of the first while the first is open: neither runs with the other's arguments", async () => {
    const turn = await runTurn((registry) =>
      openAIResponses(registry).deltas(chunks([added(0, "fc_1", "call_A"), delta("fc_1", '{"city":'), added(1, "fc_1", "call_B"), delta("fc_1", '"Secret"}'), done("fc_1", '{"city":"Secret"}')])),
    );
    expect(turn.started).toEqual(["call_A", "call_B"]);
    expect(turn.ran).toEqual([]);
    expectFormatFailure(turn.results.call_A, "Secret");
    expectFormatFailure(turn.results.call_B, "Secret");
  });

  it("fails an item announced without call_id and a second item under its id, each under a stand-in id of its own, whichever end comes", async () => {
    const nameless = { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", name: "get_weather", arguments: "" } };
    const whole = { type: "response.output_item.done", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_A", name: "get_weather", arguments: '{"city":"Secret"}' } };
    const turn = await runTurn((registry) => openAIResponses(registry).deltas(chunks([nameless, added(1, "fc_1", "call_B"), delta("fc_1", '{"city":"Secret"}'), whole])));
    expect(turn.started).toEqual(["call_B", "openai-responses-output-0"]);
    expect(turn.ran).toEqual([]);
    expectFormatFailure(turn.results.call_B, "Secret");
    expectFormatFailure(turn.results["openai-responses-output-0"], "Secret");
  });

  it("fails an item announced without call_id whose item never came whole, under a stand-in id, when the stream ends", async () => {
    const nameless = { type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", name: "get_weather", arguments: "" } };
    const turn = await runTurn((registry) => openAIResponses(registry).deltas(chunks([nameless, delta("fc_1", '{"city":"Oslo"}')])));
    expect(turn.started).toEqual(["openai-responses-output-0"]);
    expectFormatFailure(turn.results["openai-responses-output-0"]);
  });
});

describe("anthropic(registry).deltas, given events no server should send", () => {
  const start = (index: number, block: Record<string, unknown>) => ({ type: "content_block_start", index, content_block: { type: "tool_use", name: "get_weather", input: {}, ...block } });
  const json = (index: number, text: string) => ({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: text } });
  const stop = (index: number) => ({ type: "content_block_stop", index });
  const block = (index: number, fields: Record<string, unknown>, text: string) => [start(index, fields), json(index, text), stop(index)];

  it("fails a tool_use block with no id, or an earlier block's, under the stand-in id anthropic-block-<index>, and runs the others", async () => {
    const turn = await runTurn((registry) =>
      anthropic(registry).deltas(
        chunks([...block(0, { id: "toolu_1" }, '{"city":"Oslo"}'), ...block(1, {}, '{"city":"Secret"}'), ...block(2, { id: "toolu_1" }, '{"city":"Hidden"}'), ...block(3, { id: "toolu_4" }, '{"city":"Rome"}')]),
      ),
    );
    expect(turn.started).toEqual(["toolu_1", "anthropic-block-1", "anthropic-block-2", "toolu_4"]);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
    expectFormatFailure(turn.results["anthropic-block-1"], "Secret");
    expectFormatFailure(turn.results["anthropic-block-2"], "Hidden");
    // The words call() has for such a block.
    const refused = (() => {
      try {
        return anthropic(weatherAndRideRegistry()).call({ type: "tool_use", name: "get_weather", input: {} } as never);
      } catch (error) {
        return error;
      }
    })();
    const missing = turn.results["anthropic-block-1"]!;
    expect(missing.isError && missing.error).toEqual(refused);
  });

  it("reads on past a null event or a content block event without an index: the block still open fails, later ones run", async () => {
    const turn = await runTurn((registry) =>
      anthropic(registry).deltas(
        chunks([start(0, { id: "a" }), json(0, '{"city":"Be'), null, json(0, 'rlin"}'), stop(0), start(1, { id: "b" }), json(1, '{"city":'), { type: "content_block_delta", delta: { type: "input_json_delta", partial_json: '"x' } }, json(1, '"Oslo"}'), stop(1), ...block(2, { id: "c" }, '{"city":"Rome"}')]),
      ),
    );
    expect(turn.started).toEqual(["a", "b", "c"]);
    expect(turn.ran).toEqual(["Rome"]);
    expectFormatFailure(turn.results.a);
    expectFormatFailure(turn.results.b);
  });
});

describe("gemini(registry).deltas, given chunks no server should send", () => {
  const parts = (...items: unknown[]) => ({ candidates: [{ content: { role: "model", parts: items } }] });
  const call = (fields: Record<string, unknown>) => ({ functionCall: fields });

  it.each([
    ['"parts" that are not a list', { candidates: [{ content: { parts: 5 } }] }],
    ["a null chunk", null],
  ])("reads on past a chunk with %s: the call it may have cut fails with a ProviderFormatError, the others run", async (_shape, malformed) => {
    const turn = await runTurn((registry) =>
      gemini(registry).deltas(
        chunks([
          parts(call({ id: "a", name: "get_weather", args: { city: "Oslo" } })),
          parts(call({ id: "b", name: "get_weather", willContinue: true })),
          parts(call({ partialArgs: [{ jsonPath: "$.city", stringValue: "Ber", willContinue: true }], willContinue: true })),
          malformed,
          parts(call({ partialArgs: [{ jsonPath: "$.city", stringValue: "lin" }] })),
          parts(call({ id: "c", name: "get_weather", args: { city: "Rome" } })),
        ]),
      ),
    );
    expect(turn.started).toEqual(["a", "b", "c"]);
    expect(turn.ran).toEqual(["Oslo", "Rome"]);
    expectFormatFailure(turn.results.b, "Ber");
  });

  it("reads on past a part that throws as it is read (a getter, a proxy): the call it may have cut fails, the parts beside it and later calls run", async () => {
    const throwing: unknown[] = [];
    Object.defineProperty(throwing, 0, { enumerable: true, get: () => { throw new Error("Secret part"); } });
    throwing.push(call({ id: "a", name: "get_weather", args: { city: "Oslo" } }), call({ id: "b", name: "get_weather", args: { city: "Rome" } }));
    const turn = await runTurn((registry) =>
      gemini(registry).deltas(
        chunks([
          parts(call({ id: "open", name: "get_weather", willContinue: true })),
          parts(call({ partialArgs: [{ jsonPath: "$.city", stringValue: "Ber", willContinue: true }], willContinue: true })),
          { candidates: [{ content: { role: "model", parts: throwing } }] },
          parts(call({ id: "c", name: "get_weather", args: { city: "Paris" } })),
        ]),
      ),
    );
    expect(turn.started).toEqual(["open", "a", "b", "c"]);
    expect(turn.ran).toEqual(["Oslo", "Rome", "Paris"]);
    expectFormatFailure(turn.results.open, "Ber", "Secret");
  });

  it("fails a call whose partialArgs list has a hole (which no JSON has) with a ProviderFormatError, and runs the others", async () => {
    const holed = [, { jsonPath: "$.city", stringValue: "Ber" }];
    const turn = await runTurn((registry) =>
      gemini(registry).deltas(
        chunks([
          parts(call({ id: "b", name: "get_weather", willContinue: true })),
          parts(call({ partialArgs: holed, willContinue: true })),
          parts(call({ partialArgs: [{ jsonPath: "$.city", stringValue: "lin" }] })),
          parts(call({ id: "c", name: "get_weather", args: { city: "Rome" } })),
        ]),
      ),
    );
    expect(turn.started).toEqual(["b", "c"]);
    expect(turn.ran).toEqual(["Rome"]);
    expectFormatFailure(turn.results.b, "Ber");
  });

  it("fails a call whose partialArgs list is longer than a part may hold, saying so", async () => {
    const turn = await runTurn((registry) =>
      gemini(registry).deltas(chunks([parts(call({ id: "b", name: "get_weather", willContinue: true })), parts(call({ partialArgs: new Array((1 << 20) + 1), willContinue: true }))])),
    );
    expectFormatFailure(turn.results.b);
    expect(turn.results.b!.isError && turn.results.b!.error.message).toContain('"partialArgs" must hold at most 1048576 entries');
  });

  it("fails a call sent with an earlier call's id under a made id, which result() leaves out", async () => {
    const adapter = gemini(weatherAndRideRegistry());
    const turn = await runTurn((registry) =>
      gemini(registry).deltas(chunks([parts(call({ id: "x", name: "get_weather", args: { city: "Oslo" } }), call({ id: "x", name: "get_weather", args: { city: "Secret" } }))])),
    );
    expect(turn.ran).toEqual(["Oslo"]);
    const made = turn.started[1]!;
    expect(made.startsWith(GENERATED_GEMINI_ID_PREFIX)).toBe(true);
    expectFormatFailure(turn.results[made], "Secret");
    expect(adapter.result(turn.results[made]!).functionResponse).not.toHaveProperty("id");
  });
});

describe("each adapter's deltas, when the loop over dispatchStream is left early", () => {
  /** A stream that has a tool call, then text events for a long while, with a controller as the openai and Anthropic SDKs' streams have. */
  function chattyStream(head: readonly unknown[], text: unknown): { stream: AsyncIterable<never> & { controller: AbortController }; pulledAfter: () => number; returned: () => boolean; leave: () => void } {
    let pulled = 0;
    let left = false;
    let pulledAfterLeaving = 0;
    let returned = false;
    const controller = new AbortController();
    const iterator: AsyncIterator<never> = {
      async next() {
        if (pulled < head.length) return { value: head[pulled++] as never, done: false };
        if (pulled >= head.length + 50 || controller.signal.aborted) return { value: undefined, done: true };
        await new Promise((resolve) => setTimeout(resolve, 5));
        pulled++;
        if (left) pulledAfterLeaving++;
        return { value: text as never, done: false };
      },
      async return() {
        returned = true;
        return { value: undefined, done: true };
      },
    };
    return {
      stream: { [Symbol.asyncIterator]: () => iterator, controller },
      pulledAfter: () => pulledAfterLeaving,
      returned: () => returned,
      leave: () => (left = true),
    };
  }

  const anthropicHead = [
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "A", name: "get_weather", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":"Oslo"}' } },
    { type: "content_block_stop", index: 0 },
  ];
  const chatHead = [{ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "A", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] } }] }];

  it.each([
    ["anthropic", (registry: ReturnType<typeof weatherAndRideRegistry>, stream: AsyncIterable<never>) => anthropic(registry).deltas(stream), anthropicHead, { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "more " } }],
    ["openAIChat", (registry: ReturnType<typeof weatherAndRideRegistry>, stream: AsyncIterable<never>) => openAIChat(registry).deltas(stream), chatHead, { choices: [{ index: 0, delta: { content: "more " } }] }],
  ])("%s: stops reading the SDK's stream at once and asks it to stop, leaving its controller (a tee()'s other branch shares it)", async (_, deltasOf, head, text) => {
    const registry = weatherAndRideRegistry();
    const source = chattyStream(head, text);
    for await (const event of registry.dispatchStream(deltasOf(registry, source.stream))) if (event.type === "tool-call-start") break;
    source.leave();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(source.returned()).toBe(true);
    // A read under way when the loop was left still arrives; nothing after it is pulled.
    expect(source.pulledAfter()).toBeLessThanOrEqual(1);
    expect(source.stream.controller.signal.aborted).toBe(false);
  });

  it("reads a plain array of events, as for await does", async () => {
    const turn = await runTurn((registry) => anthropic(registry).deltas(anthropicHead as never));
    expect(turn.ran).toEqual(["Oslo"]);
  });
});
