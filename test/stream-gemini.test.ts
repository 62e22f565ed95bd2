import { type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderFormatError, gemini, GENERATED_GEMINI_ID_PREFIX } from "../src/providers/index.js";
import { type ServerSentEvent, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { CUT_OFF, expectTurn, RIDE, runTurn, TEXT, UNKNOWN, WEATHER, WEATHER_CITY } from "./fixtures/providers/streamed-turn.js";
import { weatherAndRideRegistry } from "./fixtures/providers/tools.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (...parts: unknown[]): ServerSentEvent => ({ data: { candidates: [{ content: { role: "model", parts }, index: 0 }], modelVersion: "gemini-3-pro-preview" } });
const call = (functionCall: Record<string, unknown>) => ({ functionCall });
const partial = (...partialArgs: unknown[]) => chunk(call({ partialArgs, willContinue: true }));

/** `value` in pieces that split the surrogate pair (a string value is sent decoded, as text). */
function stringPieces(value: string): string[] {
  const pair = value.indexOf("\ud83c");
  return [value.slice(0, 3), value.slice(3, pair + 1), value.slice(pair + 1)];
}

/**
 * The turn as Gemini 3 streams it: text; the weather call's arguments as partialArgs (the city in
 * pieces that split a surrogate pair, then the unit), ended by the empty terminal part; the ride as
 * a whole call; text; an unknown tool; text; and a last call cut off in the middle of a string.
 */
function turnChunks(): ServerSentEvent[] {
  const city = stringPieces(WEATHER_CITY);
  return [
    chunk({ text: TEXT[0] }),
    chunk(call({ id: WEATHER.id, name: WEATHER.name, willContinue: true })),
    ...city.map((piece) => partial({ jsonPath: "$.city", stringValue: piece, willContinue: true })),
    partial({ jsonPath: "$.city", stringValue: "" }, { jsonPath: "$.unit", stringValue: "cels", willContinue: true }),
    partial({ jsonPath: "$.unit", stringValue: "ius" }),
    chunk(call({})),
    chunk(call({ id: RIDE.id, name: RIDE.name, args: JSON.parse(RIDE.text) })),
    chunk({ text: TEXT[1] }),
    chunk(call({ id: UNKNOWN.id, name: UNKNOWN.name, args: JSON.parse(UNKNOWN.text) })),
    chunk({ text: TEXT[2] }),
    chunk(call({ id: CUT_OFF.id, name: CUT_OFF.name, willContinue: true })),
    partial({ jsonPath: "$.city", stringValue: "Ro", willContinue: true }),
  ];
}

function client(origin: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: origin } });
}

describe("gemini(registry).deltas, reading the @google/genai stream", () => {
  it("streams a call's partialArgs (a string split in a surrogate pair) and whole calls; an unknown tool fails at once; a cut-off call fails alone; no text is lost", async () => {
    server = await startReplayServer([() => ({ events: turnChunks() })]);
    const registry = weatherAndRideRegistry();
    const adapter = gemini(registry, { names: "map" });
    const stream = await client(server.origin).models.generateContentStream({ model: "gemini-3-pro-preview", contents: "Weather and a ride", config: { tools: adapter.tools() } });
    let text = "";
    const onEvent = (response: GenerateContentResponse) => {
      for (const part of response.candidates?.[0]?.content?.parts ?? []) text += part.text ?? "";
    };
    const outcome = await runTurn(registry, adapter.deltas(stream, { onEvent }), () => text);
    expectTurn(outcome, { weather: WEATHER.id, ride: RIDE.id, unknown: UNKNOWN.id, cut: CUT_OFF.id });
  });

  it("ends a call at its first part without willContinue, when the empty terminal part never comes, and makes ids for calls sent without one", async () => {
    const registry = weatherAndRideRegistry();
    const adapter = gemini(registry);
    async function* chunks() {
      yield { candidates: [{ content: { parts: [call({ name: "get_weather", willContinue: true })] } }] };
      yield { candidates: [{ content: { parts: [call({ partialArgs: [{ jsonPath: "$.city", stringValue: "Oslo" }] })] } }] };
      yield { candidates: [{ content: { parts: [{ text: "" }] } }] };
    }
    const results = [];
    for await (const event of registry.dispatchStream(adapter.deltas(chunks()))) if (event.type === "tool-result") results.push(event.result);
    expect(results).toMatchObject([{ isError: false, value: { city: "Oslo", temperature: 21, unit: "celsius" } }]);
    expect(results[0]!.toolCallId.startsWith(GENERATED_GEMINI_ID_PREFIX)).toBe(true);
    expect(adapter.result(results[0]!).functionResponse).not.toHaveProperty("id");
  });

  it("fails a call whose partialArgs go back to a place already written, with a ProviderFormatError that names no value", async () => {
    const registry = weatherAndRideRegistry();
    const adapter = gemini(registry);
    async function* chunks() {
      yield { candidates: [{ content: { parts: [call({ id: "c1", name: "get_weather", willContinue: true })] } }] };
      yield { candidates: [{ content: { parts: [call({ partialArgs: [{ jsonPath: "$.city", stringValue: "Oslo" }, { jsonPath: "$.city", stringValue: "Secret" }], willContinue: true })] } }] };
      yield { candidates: [{ content: { parts: [call({})] } }] };
    }
    const results = [];
    for await (const event of registry.dispatchStream(adapter.deltas(chunks()))) if (event.type === "tool-result") results.push(event.result);
    expect(results).toHaveLength(1);
    const failure = results[0]!;
    expect(failure.isError && failure.error).toBeInstanceOf(ProviderFormatError);
    expect(failure.isError && failure.content).not.toContain("Secret");
  });

  it("reads a part with empty partialArgs and no willContinue as a whole call, whose args are its arguments, as call() reads it", async () => {
    const registry = weatherAndRideRegistry();
    const adapter = gemini(registry);
    const part = call({ id: "c1", name: "get_weather", args: { city: "Oslo" }, partialArgs: [] });
    async function* chunks() {
      yield { candidates: [{ content: { parts: [part] } }] };
    }
    const results = [];
    for await (const event of registry.dispatchStream(adapter.deltas(chunks()))) if (event.type === "tool-result") results.push(event.result);
    const [whole] = await registry.dispatchAll([adapter.call(part)]);
    expect(results).toEqual([whole]);
    expect(results).toMatchObject([{ status: "ok", value: { city: "Oslo" } }]);
  });

  it("fails a streamed call a part of which also holds args, which would be neither written nor safely dropped", async () => {
    const registry = weatherAndRideRegistry();
    const adapter = gemini(registry);
    async function* chunks() {
      yield { candidates: [{ content: { parts: [call({ id: "c1", name: "get_weather", args: { unit: "kelvin" }, willContinue: true })] } }] };
      yield { candidates: [{ content: { parts: [call({ partialArgs: [{ jsonPath: "$.city", stringValue: "Oslo" }] })] } }] };
      yield { candidates: [{ content: { parts: [call({ id: "c2", name: "get_weather", willContinue: true })] } }] };
      yield { candidates: [{ content: { parts: [call({ args: { unit: "kelvin" }, partialArgs: [{ jsonPath: "$.city", stringValue: "Rome" }] })] } }] };
    }
    const results = [];
    for await (const event of registry.dispatchStream(adapter.deltas(chunks()))) if (event.type === "tool-result") results.push(event.result);
    expect(results.map((result) => result.toolCallId)).toEqual(["c1", "c2"]);
    for (const failure of results) {
      expect(failure.isError && failure.error).toBeInstanceOf(ProviderFormatError);
      expect(failure.isError && failure.error.message).toContain('"args" hold arguments');
      expect(failure.isError && failure.content).not.toContain("kelvin");
    }
  });
});
