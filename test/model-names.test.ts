import { describe, expect, it } from "vitest";
import { failureContent, ToolAbortedError, ToolRegistry, ToolTimeoutError, Type, UnknownToolError, type ToolCallContent, type ToolResult } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";
import { rejectionOf } from "./support/fixtures.js";

// The model was sent "uber_ride" for the registry's "uber.ride": text written for it must never say "uber.ride".
function rideRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({ name: "uber.ride", description: "Book a ride", parameters: Type.Object({ time: Type.Integer({ minimum: 0 }) }) }, ({ time }) => {
    if (time > 60) throw new Error("no rides that far ahead");
    return "booked";
  });
  registry.register({ name: "uber.slow", description: "Slow", parameters: Type.Object({}) }, () => new Promise(() => {}), { timeoutMs: 10 });
  registry.register({ name: "lyft.ride", description: "Book a Lyft", parameters: Type.Object({}) }, () => "booked");
  return registry;
}

/** The text for the model of a failed result (a success fails the test). */
function contentOf(result: ToolResult | undefined): string {
  if (result?.isError !== true) throw new Error("expected a failed result");
  return result.content;
}

/** The call an OpenAI Chat Completions adapter made with `names: "map"` reads from the model. */
function chatCall(registry: ToolRegistry): (name: string, args: string) => ToolCallContent {
  const chat = openAIChat(registry, { names: "map" });
  return (name, args) => chat.call({ id: "c1", type: "function", function: { name, arguments: args } });
}

type ReadCall = (name: string, args: Record<string, unknown>) => ToolCallContent;
const fromEachProvider: Array<[string, (registry: ToolRegistry) => ReadCall]> = [
  ["OpenAI Chat Completions", (registry) => {
    const read = chatCall(registry);
    return (name, args) => read(name, JSON.stringify(args));
  }],
  ["OpenAI Responses", (registry) => {
    const responses = openAIResponses(registry, { names: "map" });
    return (name, args) => responses.call({ type: "function_call", call_id: "c1", name, arguments: JSON.stringify(args) });
  }],
  ["Anthropic", (registry) => {
    const claude = anthropic(registry, { names: "map" });
    return (name, args) => claude.call({ type: "tool_use", id: "c1", name, input: args });
  }],
  ["Gemini", (registry) => {
    const adapter = gemini(registry, { names: "map" });
    return (name, args) => adapter.call({ functionCall: { id: "c1", name, args } });
  }],
];

describe("text for the model names tools as the model knows them", () => {
  it.each(fromEachProvider)("%s: a validation failure names uber_ride, not uber.ride", async (_provider, adapterOf) => {
    const registry = rideRegistry();
    const [result] = await registry.dispatchAll([adapterOf(registry)("uber_ride", { time: -1 })]);
    expect(result).toMatchObject({ isError: true, toolName: "uber.ride" });
    const content = contentOf(result);
    expect(content).toContain('Invalid arguments for tool "uber_ride":\n  - /time: must be >= 0');
    expect(content).not.toContain("uber.ride");
  });

  it("suggests close names and lists available tools in the names the model was sent", async () => {
    const registry = rideRegistry();
    const read = chatCall(registry);
    const [misspelt, unrelated] = await registry.dispatchAll([read("uber_rid", "{}"), read("weather", "{}")]);
    expect(contentOf(misspelt)).toBe('Unknown tool "uber_rid". Did you mean "uber_ride"? Call one of the available tools instead.');
    expect(contentOf(unrelated)).toBe(
      'Unknown tool "weather". Available tools: "uber_ride", "uber_slow", "lyft_ride". Call one of the available tools instead.',
    );
  });

  it("names the tool the model knows when a mapped tool was unregistered since the tools were sent", async () => {
    const registry = rideRegistry();
    const read = chatCall(registry);
    registry.unregister("uber.ride");
    const [result] = await registry.dispatchAll([read("uber_ride", "{}")]);
    expect(contentOf(result)).toMatch(/^Unknown tool "uber_ride"\./);
  });

  it("names the tool the model knows when the handler fails or times out", async () => {
    const registry = rideRegistry();
    const read = chatCall(registry);
    const [failed, timedOut] = await registry.dispatchAll([read("uber_ride", '{"time":90}'), read("uber_slow", "{}")]);
    expect(contentOf(failed)).toBe('Tool "uber_ride" failed: no rides that far ahead');
    expect(contentOf(timedOut)).toBe('Tool "uber_slow" timed out after 10 ms; it may still be running and may still complete, so check before calling it again.');
  });

  it("says a call that never started did not run, in the tool's name the model knows", async () => {
    const registry = rideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const call = chat.call({ id: "c1", type: "function", function: { name: "uber_ride", arguments: '{"time":1}' } });
    expect(failureContent(new ToolAbortedError("uber.ride", "c1", undefined, false), chat.nameMap)).toBe('Tool "uber_ride" was aborted before it ran');
    expect(failureContent(new ToolTimeoutError("uber.ride", "c1", 20, false), chat.nameMap)).toBe(
      'Tool "uber_ride" did not start within 20 ms: other calls held what it needs. It did not run; you may call it again.',
    );
    expect(failureContent(new ToolTimeoutError("uber.ride", "c1", 20, false, "its ledger store did not answer in that time"), chat.nameMap)).toBe(
      'Tool "uber_ride" did not start within 20 ms: its ledger store did not answer in that time. It did not run; you may call it again.',
    );
    const [aborted] = await registry.dispatchAll([call], { signal: AbortSignal.abort() });
    expect(contentOf(aborted)).toBe('Tool "uber_ride" was aborted before it ran');
  });

  it("keeps the registry's names in the typed error, for code and logs", async () => {
    const registry = rideRegistry();
    const read = chatCall(registry);
    const [result] = await registry.dispatchAll([read("uber_ride", '{"time":-1}')]);
    expect(result?.isError === true && result.error.message).toContain('Invalid arguments for tool "uber.ride"');
  });

  it("uses the registry's names for calls that did not come through a name map", async () => {
    const registry = rideRegistry();
    const [result] = await registry.dispatchAll([{ type: "tool_call", id: "1", name: "uber.ride", arguments: { time: -1 } }]);
    expect(contentOf(result)).toContain('Invalid arguments for tool "uber.ride"');
  });

  it('uses registry names for calls read by an adapter made with names: "strict", which sends registry names', async () => {
    const registry = new ToolRegistry().register({ name: "weather.now", description: "", parameters: Type.Object({ city: Type.String() }) }, () => "");
    const call = gemini(registry).call({ functionCall: { name: "weather.now", args: {} } });
    const [result] = await registry.dispatchAll([call]);
    expect(contentOf(result)).toContain('Invalid arguments for tool "weather.now"');
  });

  it("failureContent(error, names) does the same for an error caught from dispatch", async () => {
    const registry = rideRegistry();
    const chat = openAIChat(registry, { names: "map" });
    const error = await rejectionOf(registry.dispatch(chat.call({ id: "c1", type: "function", function: { name: "uber_rid", arguments: "{}" } })));
    expect(error).toBeInstanceOf(UnknownToolError);
    expect(failureContent(error, chat.nameMap)).toContain('Did you mean "uber_ride"?');
    expect(failureContent(error)).toContain('Did you mean "uber.ride"?');
  });
});

describe("approval and declined calls through a name map", () => {
  function governedRegistry(): ToolRegistry {
    const registry = new ToolRegistry()
      .register({ name: "uber.ride", description: "Book a ride", parameters: Type.Object({}) }, () => "booked", { needsApproval: true })
      .register({ name: "pay.send", description: "Pay", parameters: Type.Object({}) }, () => "paid");
    registry.use({ before: (call) => (call.toolName === "pay.send" ? { deny: "policy" } : undefined) });
    return registry;
  }

  /** The text of each provider's tool-result message for `result`. */
  const resultTexts: Array<[string, (registry: ToolRegistry) => { call: (name: string) => ToolCallContent; text: (result: ToolResult) => string }]> = [
    ["OpenAI Chat Completions", (registry) => {
      const chat = openAIChat(registry, { names: "map" });
      chat.tools();
      return { call: (name) => chat.call({ id: `c_${name}`, type: "function", function: { name, arguments: "{}" } }), text: (result) => chat.result(result).content };
    }],
    ["OpenAI Responses", (registry) => {
      const responses = openAIResponses(registry, { names: "map" });
      responses.tools();
      return { call: (name) => responses.call({ type: "function_call", call_id: `c_${name}`, name, arguments: "{}" }), text: (result) => responses.result(result).output as string };
    }],
    ["Anthropic", (registry) => {
      const claude = anthropic(registry, { names: "map" });
      claude.tools();
      return { call: (name) => claude.call({ type: "tool_use", id: `c_${name}`, name, input: {} }), text: (result) => claude.result(result).content as string };
    }],
    ["Gemini", (registry) => {
      const model = gemini(registry, { names: "map" });
      model.tools();
      return { call: (name) => model.call({ functionCall: { id: `c_${name}`, name, args: {} } }), text: (result) => (model.result(result).functionResponse.response as { output: string }).output };
    }],
  ];

  it.each(resultTexts)("names the tool as the model knows it, for %s, in a call waiting for approval, one a hook declined and one a person declined", async (_provider, adapterOf) => {
    const registry = governedRegistry();
    const adapter = adapterOf(registry);
    const [waiting, declined] = await registry.dispatchAll([adapter.call("uber_ride"), adapter.call("pay_send")]);
    expect(adapter.text(waiting!)).toBe('Tool "uber_ride" needs the user\'s approval before it runs; it has not run yet.');
    expect(adapter.text(declined!)).toBe('Tool "pay_send" was not run: the application declined this call. "policy"');
    if (waiting?.status !== "approval-required") throw new Error("expected a call waiting for approval");
    expect(adapter.text(registry.deny(waiting.request, { reason: 'not "uber.ride" today' }))).toBe(
      'The user declined to run tool "uber_ride" with these arguments; it did not run. Their reason: "not \\"uber.ride\\" today". Do not call it again with the same arguments unless the user asks.',
    );
  });
});

describe("Gemini's responses through a name map", () => {
  it("name the function as the call did, also for a call that wrote the registry's own name the map never sent", async () => {
    const registry = rideRegistry();
    const model = gemini(registry, { names: "map" });
    model.tools();
    const sent = model.call({ functionCall: { id: "g1", name: "uber_ride", args: { time: 5 } } });
    const own = model.call({ functionCall: { id: "g2", name: "uber.ride", args: { time: 5 } } });
    const [first, second] = await registry.dispatchAll([sent, own]);
    expect(model.result(first!).functionResponse).toMatchObject({ id: "g1", name: "uber_ride" });
    expect(model.result(second!).functionResponse).toMatchObject({ id: "g2", name: "uber.ride" });
  });

  it("name the function as the call did when it streamed, as when it came whole", async () => {
    const registry = rideRegistry();
    const model = gemini(registry, { names: "map" });
    model.tools();
    async function* chunks() {
      yield { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "g1", name: "uber_ride", args: { time: 5 } } }, { functionCall: { id: "g2", name: "uber.ride", args: { time: 5 } } }] } }] };
    }
    const results: ToolResult[] = [];
    for await (const event of registry.dispatchStream(model.deltas(chunks()))) if (event.type === "tool-result") results.push(event.result);
    const byId = Object.fromEntries(results.map((result) => [result.toolCallId, model.result(result).functionResponse]));
    expect(byId.g1).toMatchObject({ id: "g1", name: "uber_ride" });
    expect(byId.g2).toMatchObject({ id: "g2", name: "uber.ride" });
  });
});
