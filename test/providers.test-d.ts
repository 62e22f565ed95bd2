import type { Message, MessageCreateParamsNonStreaming, MessageParam, ToolResultBlockParam, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import type { Content, FunctionCall, FunctionResponse, FunctionResponsePart, GenerateContentParameters, GenerateContentResponse, Part } from "@google/genai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionUserMessageParam,
} from "openai/resources/chat/completions";
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionCallOutputItem,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import { describe, expectTypeOf, it } from "vitest";
import { ToolRegistry, type ToolCallContent, type ToolResult } from "../src/index.js";
import {
  anthropic,
  gemini,
  openAIChat,
  openAIResponses,
  type AnthropicToolResult,
  type AnthropicToolResultContent,
  type GeminiFunctionResponseMedia,
  type GeminiFunctionResponsePart,
  type OpenAIChatUserMessage,
  type OpenAIResponsesOutput,
  type OpenAIResponsesOutputItem,
  type ProviderAdapter,
  type ToolNameMap,
} from "../src/providers/index.js";

// These tests run in the type checker (`tsc` in `npm test`): each adapter takes what its provider's
// SDK returns and gives what its SDK's request takes, with no cast; a wrong type fails the build.
const registry = new ToolRegistry();
declare const results: ToolResult[];
declare const completion: ChatCompletion;
declare const openAIResponse: Response;
declare const message: Message;
declare const geminiResponse: GenerateContentResponse;
declare const block: ToolUseBlock;
declare const toolCall: ChatCompletionMessageToolCall;

describe("provider adapters against the real SDK types", () => {
  it("OpenAI Chat Completions: tools() for the request, call() on its tool calls, result() for its messages", () => {
    const chat = openAIChat(registry, { names: "map", strict: true });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "hi" }];
    const request: ChatCompletionCreateParamsNonStreaming = { model: "gpt-4.1", messages, tools: chat.tools({ only: ["read"] }) };
    const calls: ToolCallContent[] = (completion.choices[0]?.message.tool_calls ?? []).map(chat.call);
    messages.push(...results.map(chat.result));
    expectTypeOf<ChatCompletionMessageToolCall>().toExtend<Parameters<typeof chat.call>[0]>();
    void [request, calls];
  });

  it("OpenAI Responses: tools() for the request, call() on its function_call items, result() for its input", () => {
    const responses = openAIResponses(registry, { strict: false });
    const request: ResponseCreateParamsNonStreaming = { model: "gpt-4.1", input: [], tools: responses.tools() };
    const calls: ToolCallContent[] = openAIResponse.output.flatMap((item) => (item.type === "function_call" ? [responses.call(item)] : []));
    const input: ResponseInputItem[] = results.map(responses.result);
    expectTypeOf<ResponseFunctionToolCall>().toExtend<Parameters<typeof responses.call>[0]>();
    void [request, calls, input];
  });

  it("Anthropic: tools() for the request, call() on its tool_use blocks, result() for its user message", () => {
    const claude = anthropic(registry, { maxTools: 64 });
    const request: MessageCreateParamsNonStreaming = { model: "claude-sonnet-4-6", max_tokens: 1024, messages: [], tools: claude.tools() };
    const calls: ToolCallContent[] = message.content.flatMap((block) => (block.type === "tool_use" ? [claude.call(block)] : []));
    const answer: MessageParam = { role: "user", content: results.map(claude.result) };
    expectTypeOf<ToolUseBlock>().toExtend<Parameters<typeof claude.call>[0]>();
    void [request, calls, answer];
  });

  it("Gemini: tools() for the config, call() on its parts and bare function calls, result() for its content", () => {
    const adapter = gemini(registry, { names: "strict", only: new Set(["read"]) });
    const request: GenerateContentParameters = { model: "gemini-2.5-flash", contents: [], config: { tools: adapter.tools() } };
    const fromParts: ToolCallContent[] = (geminiResponse.candidates?.[0]?.content?.parts ?? []).filter((part) => part.functionCall).map(adapter.call);
    const fromCalls: ToolCallContent[] = (geminiResponse.functionCalls ?? []).map(adapter.call);
    const answer: Content = { role: "user", parts: results.map(adapter.result) };
    expectTypeOf<Part>().toExtend<Parameters<typeof adapter.call>[0]>();
    expectTypeOf<FunctionCall>().toExtend<Parameters<typeof adapter.call>[0]>();
    void [request, fromParts, fromCalls, answer];
  });

  it("rich results: every block, item and part an adapter makes is one its SDK's request takes", () => {
    expectTypeOf<AnthropicToolResult>().toExtend<ToolResultBlockParam>();
    expectTypeOf<AnthropicToolResultContent>().toExtend<Exclude<NonNullable<ToolResultBlockParam["content"]>, string>[number]>();
    expectTypeOf<OpenAIResponsesOutput>().toExtend<ResponseInputItem.FunctionCallOutput>();
    expectTypeOf<OpenAIResponsesOutputItem>().toExtend<ResponseFunctionCallOutputItem>();
    expectTypeOf<GeminiFunctionResponsePart["functionResponse"]>().toExtend<FunctionResponse>();
    expectTypeOf<GeminiFunctionResponseMedia>().toExtend<FunctionResponsePart>();
    expectTypeOf<OpenAIChatUserMessage>().toExtend<ChatCompletionUserMessageParam>();
    const chat = openAIChat(registry);
    const messages: ChatCompletionMessageParam[] = [...results.map(chat.result), ...chat.followUp(results)];
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "" } } satisfies AnthropicToolResultContent;
    const file = { type: "input_file", file_data: "data:application/pdf;base64,", filename: "a.pdf" } satisfies OpenAIResponsesOutputItem;
    // @ts-expect-error followUp takes the array of results, not one result
    chat.followUp(results[0]!);
    // @ts-expect-error Anthropic takes only JPEG, PNG, GIF and WebP images
    const tiff = { type: "image", source: { type: "base64", media_type: "image/tiff", data: "" } } satisfies AnthropicToolResultContent;
    void [messages, image, file, tiff];
  });

  it("types a call's arguments as an object or the JSON text a provider delivered", () => {
    expectTypeOf<ToolCallContent["arguments"]>().toEqualTypeOf<Record<string, unknown> | string>();
    expectTypeOf(openAIChat(registry).call).returns.toEqualTypeOf<ToolCallContent>();
  });

  it("gives every adapter the same verbs, and a name map only as something to read", () => {
    expectTypeOf(openAIChat(registry)).toExtend<ProviderAdapter<never, unknown, unknown>>();
    expectTypeOf(gemini(registry)).toExtend<ProviderAdapter<never, unknown, unknown>>();
    expectTypeOf(anthropic(registry).nameMap).toEqualTypeOf<ToolNameMap | undefined>();
  });

  it("refuses what does not fit", () => {
    const chat = openAIChat(registry);
    const responses = openAIResponses(registry);
    // @ts-expect-error names is "strict" or "map": the adapter keeps its own map
    openAIChat(registry, { names: chat.nameMap });
    // @ts-expect-error strict is an option of the OpenAI adapters only
    anthropic(registry, { strict: true });
    // @ts-expect-error nullsAsOmitted is not an option: strict: true drops the nulls
    openAIChat(registry, { nullsAsOmitted: registry });
    // @ts-expect-error an Anthropic tool_use block is not a Responses function_call item
    responses.call(block);
    // @ts-expect-error a Chat Completions tool call is not an Anthropic tool_use block
    anthropic(registry).call(toolCall);
    // @ts-expect-error Chat Completions tools are not Responses tools
    const request: ResponseCreateParamsNonStreaming = { model: "gpt-4.1", input: [], tools: chat.tools() };
    // @ts-expect-error a request's tools() takes only `only`
    chat.tools({ maxTools: 3 });
    void request;
  });
});
