import Anthropic from "@anthropic-ai/sdk";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expectTypeOf, it } from "vitest";
import { ToolRegistry, Type, type DeepPartial, type Static, type ToolCallDelta, type ToolResult, type ToolStreamEvent } from "../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";

// These tests run in the type checker (`tsc` in `npm test`): a wrong type fails the build.
const parameters = Type.Object({ path: Type.String(), lines: Type.Array(Type.Object({ n: Type.Integer(), text: Type.String() })) });
const registry = new ToolRegistry();

describe("streaming types", () => {
  it("types an argument stream's partial value as a deep partial of the schema, and end() as the schema's type", () => {
    const stream = registry.argumentStream<typeof parameters>("write");
    const state = stream.push("{");
    expectTypeOf(state.value).toEqualTypeOf<DeepPartial<Static<typeof parameters>> | undefined>();
    expectTypeOf(state.value?.lines?.[0]?.n).toEqualTypeOf<number | undefined>();
    expectTypeOf(state.issues).toEqualTypeOf<readonly string[]>();
    expectTypeOf(stream.end()).toEqualTypeOf<Static<typeof parameters>>();
    // @ts-expect-error a delta is JSON text
    stream.push({ path: "x" });
  });

  it("narrows dispatchStream's events by type", async () => {
    for await (const event of registry.dispatchStream([] as ToolCallDelta[])) {
      expectTypeOf(event).toEqualTypeOf<ToolStreamEvent>();
      if (event.type === "tool-result") expectTypeOf(event.result).toEqualTypeOf<ToolResult>();
      if (event.type === "tool-call-delta") expectTypeOf(event.issues).toEqualTypeOf<readonly string[]>();
      expectTypeOf(event.index).toEqualTypeOf<number>();
    }
  });

  it("takes each official SDK's streaming call as it is, and gives onEvent the SDK's own event type", async () => {
    const openai = new OpenAI({ apiKey: "k" });
    const chunks = await openai.chat.completions.create({ model: "m", messages: [], stream: true });
    openAIChat(registry).deltas(chunks, { onEvent: (chunk) => expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>() });
    openAIChat(registry).deltas(openai.chat.completions.stream({ model: "m", messages: [] }));
    const events = await openai.responses.create({ model: "m", input: "", stream: true });
    openAIResponses(registry).deltas(events, { onEvent: (event) => expectTypeOf(event).toEqualTypeOf<ResponseStreamEvent>() });
    openAIResponses(registry).deltas(openai.responses.stream({ model: "m", input: "" }));
    const claude = new Anthropic({ apiKey: "k" });
    const messages = await claude.messages.create({ model: "m", max_tokens: 1, messages: [], stream: true });
    anthropic(registry).deltas(messages, { onEvent: (event) => expectTypeOf(event).toEqualTypeOf<RawMessageStreamEvent>() });
    anthropic(registry).deltas(claude.messages.stream({ model: "m", max_tokens: 1, messages: [] }));
    const responses = await new GoogleGenAI({ apiKey: "k" }).models.generateContentStream({ model: "m", contents: "" });
    const deltas = gemini(registry).deltas(responses, { onEvent: (response) => expectTypeOf(response).toEqualTypeOf<GenerateContentResponse>() });
    expectTypeOf(deltas).toEqualTypeOf<AsyncIterable<ToolCallDelta>>();
    // @ts-expect-error an Anthropic stream is not a Chat Completions stream
    openAIChat(registry).deltas(messages);
  });
});
