import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type ToolResult } from "../src/index.js";
import {
  fromGemini,
  GENERATED_GEMINI_ID_PREFIX,
  ProviderFormatError,
  ProviderNameError,
  toGeminiFunctionResponse,
  toGeminiTools,
  ToolNameMap,
} from "../src/providers/index.js";
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
    const parts = RESPONSE.candidates[0]!.content.parts;

    const calls = parts.filter((part) => "functionCall" in part).map((part) => fromGemini(part));
    const results = await registry.dispatchAll(calls);
    const reply = { role: "user", parts: results.map((result) => toGeminiFunctionResponse(result)) };

    expect(log).toEqual([{ tool: "get_weather", args: { city: "Berlin", unit: "celsius" } }]);
    expect(reply.parts).toEqual([
      { functionResponse: { name: "get_weather", response: { output: { city: "Berlin", temperature: 21, unit: "celsius" } } } },
      { functionResponse: { name: "uber.ride", response: { error: expect.stringContaining("/time: must be integer") } } },
    ]);
    expect(JSON.stringify(reply)).not.toContain("ten");
  });

  it("generates a distinct id for each call the model sent without one, and never sends it back", () => {
    const first = fromGemini({ functionCall: { name: "get_weather", args: {} } });
    const second = fromGemini({ functionCall: { name: "get_weather", args: {} } });
    expect(first.id.startsWith(GENERATED_GEMINI_ID_PREFIX)).toBe(true);
    expect(first.id).not.toBe(second.id);
    const result: ToolResult = { toolCallId: first.id, toolName: "get_weather", isError: false, value: 1 };
    expect(toGeminiFunctionResponse(result).functionResponse).not.toHaveProperty("id");
  });

  it("keeps the id the model sent and echoes it in the functionResponse", () => {
    const call = fromGemini({ functionCall: { id: "fc-7", name: "get_weather", args: { city: "Rome" } } });
    expect(call).toEqual({ type: "tool_call", id: "fc-7", name: "get_weather", arguments: { city: "Rome" } });
    const result: ToolResult = { toolCallId: call.id, toolName: call.name, isError: false, value: "sunny" };
    expect(toGeminiFunctionResponse(result)).toEqual({ functionResponse: { id: "fc-7", name: "get_weather", response: { output: "sunny" } } });
  });

  it("reads missing args as no arguments, and accepts a bare FunctionCall as response.functionCalls lists them", () => {
    expect(fromGemini({ functionCall: { name: "list_files" } }).arguments).toEqual({});
    expect(fromGemini({ name: "list_files", args: { path: "/" } }).arguments).toEqual({ path: "/" });
  });

  it("refuses a part with no functionCall, a call with no name, and args that are not an object", () => {
    for (const bad of [{ text: "hi" }, { functionCall: { args: {} } }, { functionCall: { name: "t", args: [1] } }, { functionCall: { name: "t", id: 5 } }, null]) {
      expect(thrownBy(() => fromGemini(bad as never))).toBeInstanceOf(ProviderFormatError);
    }
  });
});

describe("toGeminiTools", () => {
  it("puts every tool in one Tool's functionDeclarations, with its schema as parametersJsonSchema", () => {
    const registry = new ToolRegistry().register({ name: "uber.ride", description: "Book", parameters: Type.Object({ loc: Type.String() }) }, () => "");
    expect(toGeminiTools(registry)).toEqual([
      { functionDeclarations: [{ name: "uber.ride", description: "Book", parametersJsonSchema: { type: "object", required: ["loc"], properties: { loc: { type: "string" } } } }] },
    ]);
  });

  it("sends no Tool at all for an empty registry", () => {
    expect(toGeminiTools(new ToolRegistry())).toEqual([]);
  });

  it("refuses a name Gemini rejects (a leading digit) unless names are mapped, and names the mapped function in responses", () => {
    const registry = new ToolRegistry().register({ name: "3d.render", description: "", parameters: Type.Object({}) }, () => "ok");
    expect(thrownBy(() => toGeminiTools(registry))).toBeInstanceOf(ProviderNameError);
    const names = new ToolNameMap(registry);
    const [tool] = toGeminiTools(registry, { names });
    expect(tool?.functionDeclarations[0]?.name).toBe("_3d_render");
    const call = fromGemini({ functionCall: { name: "_3d_render" } }, { names });
    expect(call.name).toBe("3d.render");
    const result: ToolResult = { toolCallId: call.id, toolName: call.name, isError: false, value: "ok" };
    expect(toGeminiFunctionResponse(result, { names }).functionResponse.name).toBe("_3d_render");
  });
});

describe("toGeminiFunctionResponse", () => {
  const success = (value: unknown): ToolResult => ({ toolCallId: "fc-1", toolName: "t", isError: false, value });

  it("sends the value as plain JSON output, and null when the handler returned nothing", () => {
    expect(toGeminiFunctionResponse(success(new Date(0))).functionResponse.response).toEqual({ output: "1970-01-01T00:00:00.000Z" });
    expect(toGeminiFunctionResponse(success(undefined)).functionResponse.response).toEqual({ output: null });
  });

  it("sends a failure's text as error, and a value with no JSON text as an error naming its type", () => {
    const failure: ToolResult = { toolCallId: "fc-2", toolName: "t", isError: true, error: new Error("x"), content: "Tool \"t\" failed: x" };
    expect(toGeminiFunctionResponse(failure).functionResponse.response).toEqual({ error: 'Tool "t" failed: x' });
    expect(toGeminiFunctionResponse(success(10n)).functionResponse.response).toEqual({ error: "The tool returned a value that cannot be sent as JSON (bigint)." });
  });
});
