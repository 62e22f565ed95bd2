import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type ToolResult } from "../src/index.js";
import { gemini, GENERATED_GEMINI_ID_PREFIX, ProviderFormatError, ProviderNameError } from "../src/providers/index.js";
import { type CallLog, weatherAndRideRegistry } from "./fixtures/providers/tools.js";
import { thrownBy } from "./support/fixtures.js";

// A documented generateContent response with parallel function calls; Gemini 2.x sends no ids.
const RESPONSE = {
  candidates: [
    {
      content: {
        role: "model",
        parts: [
          { text: "Checking both." },
          { functionCall: { name: "get_weather", args: { city: "Berlin", unit: "celsius" } } },
          { functionCall: { name: "uber.ride", args: { loc: "Berlin Hbf", type: "plus", time: "ten" } } },
        ],
      },
      finishReason: "STOP",
    },
  ],
};

describe("Gemini function calling, with documented objects", () => {
  it("runs a response's functionCall parts and answers each with a functionResponse part", async () => {
    const log: CallLog = [];
    const registry = weatherAndRideRegistry(log);
    const adapter = gemini(registry);
    const parts = RESPONSE.candidates[0]!.content.parts;

    const calls = parts.filter((part) => "functionCall" in part).map(adapter.call);
    const results = await registry.dispatchAll(calls);
    const reply = { role: "user", parts: results.map(adapter.result) };

    expect(log).toEqual([{ tool: "get_weather", args: { city: "Berlin", unit: "celsius" } }]);
    expect(reply.parts).toEqual([
      { functionResponse: { name: "get_weather", response: { output: { city: "Berlin", temperature: 21, unit: "celsius" } } } },
      { functionResponse: { name: "uber.ride", response: { error: expect.stringContaining("/time: must be integer") } } },
    ]);
    expect(JSON.stringify(reply)).not.toContain("ten");
  });
});

describe("gemini(registry).call and .result", () => {
  const { call, result } = gemini(new ToolRegistry());

  it("generates a distinct id for each call the model sent without one, and never sends it back", () => {
    const first = call({ functionCall: { name: "get_weather", args: {} } });
    const second = call({ functionCall: { name: "get_weather", args: {} } });
    expect(first.id.startsWith(GENERATED_GEMINI_ID_PREFIX)).toBe(true);
    expect(first.id).not.toBe(second.id);
    const answered: ToolResult = { status: "ok", toolCallId: first.id, toolName: "get_weather", isError: false, value: 1 };
    expect(result(answered).functionResponse).not.toHaveProperty("id");
  });

  it("keeps the id the model sent and echoes it in the functionResponse", () => {
    const read = call({ functionCall: { id: "fc-7", name: "get_weather", args: { city: "Rome" } } });
    expect(read).toEqual({ type: "tool_call", id: "fc-7", name: "get_weather", arguments: { city: "Rome" } });
    const answered: ToolResult = { status: "ok", toolCallId: read.id, toolName: read.name, isError: false, value: "sunny" };
    expect(result(answered)).toEqual({ functionResponse: { id: "fc-7", name: "get_weather", response: { output: "sunny" } } });
  });

  it("reads missing args as no arguments, and accepts a bare FunctionCall as response.functionCalls lists them", () => {
    expect(call({ functionCall: { name: "list_files" } }).arguments).toEqual({});
    expect(call({ name: "list_files", args: { path: "/" } }).arguments).toEqual({ path: "/" });
  });

  it("refuses a part with no functionCall, a call with no name, and args that are not an object", () => {
    for (const bad of [{ text: "hi" }, { functionCall: { args: {} } }, { functionCall: { name: "t", args: [1] } }, { functionCall: { name: "t", id: 5 } }, null]) {
      expect(thrownBy(() => call(bad as never))).toBeInstanceOf(ProviderFormatError);
    }
  });

  it("sends the value as plain JSON output, and null when the handler returned nothing", () => {
    const success = (value: unknown): ToolResult => ({ status: "ok", toolCallId: "fc-1", toolName: "t", isError: false, value });
    expect(result(success(new Date(0))).functionResponse.response).toEqual({ output: "1970-01-01T00:00:00.000Z" });
    expect(result(success(undefined)).functionResponse.response).toEqual({ output: null });
    expect(result(success(10n)).functionResponse.response).toEqual({ error: "The tool returned a value that cannot be sent as JSON (bigint)." });
  });

  it("sends a failure's text as error", () => {
    const failure: ToolResult = { status: "error", toolCallId: "fc-2", toolName: "t", isError: true, error: new Error("x"), content: 'Tool "t" failed: x' };
    expect(result(failure).functionResponse.response).toEqual({ error: 'Tool "t" failed: x' });
  });
});

describe("gemini(registry).tools", () => {
  it("puts every tool in one Tool's functionDeclarations, with its schema as parametersJsonSchema", () => {
    const registry = new ToolRegistry().register({ name: "uber.ride", description: "Book", parameters: Type.Object({ loc: Type.String() }) }, () => "");
    expect(gemini(registry).tools()).toEqual([
      { functionDeclarations: [{ name: "uber.ride", description: "Book", parametersJsonSchema: { type: "object", required: ["loc"], properties: { loc: { type: "string" } } } }] },
    ]);
  });

  it("sends no Tool at all when no tool is sent", () => {
    expect(gemini(new ToolRegistry()).tools()).toEqual([]);
    expect(gemini(weatherAndRideRegistry()).tools({ only: [] })).toEqual([]);
  });

  it('refuses a name Gemini rejects (a leading digit) unless made with names: "map", and names the mapped function in responses', () => {
    const registry = new ToolRegistry().register({ name: "3d.render", description: "", parameters: Type.Object({}) }, () => "ok");
    expect(thrownBy(() => gemini(registry).tools())).toBeInstanceOf(ProviderNameError);
    const adapter = gemini(registry, { names: "map" });
    expect(adapter.tools()[0]?.functionDeclarations[0]?.name).toBe("_3d_render");
    const read = adapter.call({ functionCall: { name: "_3d_render" } });
    expect(read.name).toBe("3d.render");
    const answered: ToolResult = { status: "ok", toolCallId: read.id, toolName: read.name, isError: false, value: "ok" };
    expect(adapter.result(answered).functionResponse.name).toBe("_3d_render");
  });
});
