import { isDeepStrictEqual } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it } from "vitest";
import { anthropic, gemini, openAIChat, openAIResponses } from "../src/providers/index.js";
import { demand, type RecordedRequest, type ReplayServer, startReplayServer } from "./fixtures/providers/replay-server.js";
import { PNG, screenshotRegistry } from "./fixtures/providers/rich.js";

// An image a handler returns reaches each provider's request in its native form: each turn runs
// through the provider's official SDK client against a local stand-in of its API, which refuses
// the second request unless the image is where the provider documents it.
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ARGS = { url: "https://example.com/login" };
const DATA_URL = `data:image/png;base64,${PNG}`;

/** Refuses the request unless `actual` deeply equals `expected` (in any key order), naming `what`. */
function demandEqual(actual: unknown, expected: unknown, what: string): void {
  demand(isDeepStrictEqual(actual, expected), `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const lastOf = <T>(items: readonly T[] | undefined): T | undefined => items?.at(-1);
const bodyOf = <T>(request: RecordedRequest) => request.body as T;

describe("an image from a handler, sent with each provider's official SDK", () => {
  it("Anthropic: an image block inside the tool_result's content, after the text block", async () => {
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: null, cache_read_input_tokens: null, server_tool_use: null, service_tier: "standard" };
    const message = (content: unknown[], stop_reason: string) => ({ id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content, stop_reason, stop_sequence: null, usage });
    server = await startReplayServer([
      () => ({ json: message([{ type: "tool_use", id: "toolu_1", name: "screenshot", input: ARGS }], "tool_use") }),
      (request) => {
        const last = lastOf(bodyOf<{ messages: Array<{ role: string; content: unknown }> }>(request).messages);
        demandEqual(last, {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: [
                { type: "text", text: "The login page:" },
                { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
              ],
            },
          ],
        }, "the tool_result");
        return { json: message([{ type: "text", text: "I see the login form.", citations: null }], "end_turn") };
      },
    ]);
    const registry = screenshotRegistry();
    const claude = anthropic(registry);
    const client = new Anthropic({ apiKey: "test-key", baseURL: server.origin, maxRetries: 0 });
    const messages: MessageParam[] = [{ role: "user", content: "What is on the login page?" }];
    const request = { model: "claude-sonnet-4-6", max_tokens: 1024, messages, tools: claude.tools() };
    const first = await client.messages.create(request);
    const results = await registry.dispatchAll(first.content.flatMap((block) => (block.type === "tool_use" ? [claude.call(block)] : [])));
    messages.push({ role: "assistant", content: first.content }, { role: "user", content: results.map(claude.result) });
    const reply = await client.messages.create({ ...request, messages });
    expect(reply.content[0]).toMatchObject({ type: "text", text: "I see the login form." });
  });

  it("OpenAI Responses: a function_call_output whose output is input_text and input_image items, the image as a data: URL", async () => {
    const response = (output: unknown[]) => ({
      id: "resp_1", object: "response", created_at: 1_741_476_542, status: "completed", error: null, incomplete_details: null, instructions: null,
      max_output_tokens: null, model: "gpt-4.1-2025-04-14", output, parallel_tool_calls: true, previous_response_id: null, temperature: 1,
      tool_choice: "auto", tools: [], top_p: 1, metadata: {},
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    });
    server = await startReplayServer([
      () => ({ json: response([{ type: "function_call", id: "fc_1", call_id: "call_1", name: "screenshot", arguments: JSON.stringify(ARGS), status: "completed" }]) }),
      (request) => {
        const output = bodyOf<{ input: Array<Record<string, unknown>> }>(request).input.find((item) => item.type === "function_call_output");
        demandEqual(output, {
          type: "function_call_output",
          call_id: "call_1",
          output: [
            { type: "input_text", text: "The login page:" },
            { type: "input_image", image_url: DATA_URL },
          ],
        }, "the function_call_output");
        return { json: response([{ type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "A login form.", annotations: [] }] }]) };
      },
    ]);
    const registry = screenshotRegistry();
    const responses = openAIResponses(registry);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const input: ResponseInputItem[] = [{ role: "user", content: "What is on the login page?" }];
    const first = await openai.responses.create({ model: "gpt-4.1", input, tools: responses.tools() });
    const results = await registry.dispatchAll(first.output.flatMap((item) => (item.type === "function_call" ? [responses.call(item)] : [])));
    input.push(...first.output.filter((item) => item.type === "function_call"), ...results.map(responses.result));
    const reply = await openai.responses.create({ model: "gpt-4.1", input, tools: responses.tools() });
    expect(reply.output_text).toBe("A login form.");
  });

  it("OpenAI Chat Completions: the tool message says an image follows, and followUp's user message carries it as an image_url part", async () => {
    const completion = (message: Record<string, unknown>, finish_reason: string) => ({
      id: "chatcmpl-1", object: "chat.completion", created: 1_700_000_000, model: "gpt-4.1-2025-04-14",
      choices: [{ index: 0, message: { role: "assistant", content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    server = await startReplayServer([
      () => ({ json: completion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "screenshot", arguments: JSON.stringify(ARGS) } }] }, "tool_calls") }),
      (request) => {
        const messages = bodyOf<{ messages: Array<Record<string, unknown>> }>(request).messages;
        demandEqual(messages.slice(2), [
          { role: "tool", tool_call_id: "call_1", content: "The login page:\n[1 image of this result follows in the next user message.]" },
          {
            role: "user",
            content: [
              { type: "text", text: '[The images and documents of the result of tool call "call_1":]' },
              { type: "image_url", image_url: { url: DATA_URL } },
            ],
          },
        ], "the tool message and the follow-up");
        return { json: completion({ content: "A login form." }, "stop") };
      },
    ]);
    const registry = screenshotRegistry();
    const chat = openAIChat(registry);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What is on the login page?" }];
    const first = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: chat.tools() });
    const message = first.choices[0]!.message;
    const results = await registry.dispatchAll((message.tool_calls ?? []).map(chat.call));
    messages.push(message, ...results.map(chat.result), ...chat.followUp(results));
    const reply = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: chat.tools() });
    expect(reply.choices[0]?.message.content).toBe("A login form.");
  });

  it("Gemini: a functionResponse with the text as output and the image as an inlineData part", async () => {
    const generated = (parts: unknown[]) => ({
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: "gemini-2.5-flash",
    });
    server = await startReplayServer([
      () => ({ json: generated([{ functionCall: { id: "fc-1", name: "screenshot", args: ARGS } }]) }),
      (request) => {
        demand(request.path.startsWith("/v1beta/models/gemini-2.5-flash:generateContent"), `unexpected path ${request.path}`);
        const last = lastOf(bodyOf<{ contents: Content[] }>(request).contents);
        demandEqual(last, {
          role: "user",
          parts: [{ functionResponse: { name: "screenshot", response: { output: "The login page:" }, parts: [{ inlineData: { mimeType: "image/png", data: PNG } }], id: "fc-1" } }],
        }, "the function response");
        return { json: generated([{ text: "A login form." }]) };
      },
    ]);
    const registry = screenshotRegistry();
    const adapter = gemini(registry);
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: server.origin } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "What is on the login page?" }] }];
    const config = { tools: adapter.tools() };
    const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
    const results = await registry.dispatchAll((first.functionCalls ?? []).map(adapter.call));
    contents.push(first.candidates![0]!.content!, { role: "user", parts: results.map(adapter.result) });
    const reply = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
    expect(reply.text).toBe("A login form.");
  });
});
