import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { ToolRegistry, Type, type ToolCallDelta } from "../../src/index.js";
import { anthropic, gemini, openAIChat, openAIResponses } from "../../src/providers/index.js";
import { type ServerSentEvent, startReplayServer } from "../fixtures/providers/replay-server.js";

/** The providers whose recorded streams the corpus holds, by folder. */
export const PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const;
export type StreamProvider = (typeof PROVIDERS)[number];

/** A call as the SDK's own accumulation (or, for Gemini's partialArgs, an independent reading) sees it. */
export interface ReferenceCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly args: unknown;
}

/** A call as the adapter's deltas give it. */
export interface ReadCall {
  readonly toolCallId: string;
  toolName: string | undefined;
  text: string;
  done: boolean;
}

/** What reading one recording through the SDK and the adapter gave. */
export interface RecordingOutcome {
  readonly calls: ReadCall[];
  readonly reference: ReferenceCall[];
  /** Events `onEvent` saw, and events the SDK yields when read directly. */
  readonly seen: number;
  readonly yielded: number;
  readonly deltas: ToolCallDelta[];
  /** What reading threw, through the adapter and directly (a recording the SDK itself refuses). */
  readonly thrown: { readonly adapted: unknown; readonly direct: unknown } | undefined;
}

/** The recordings of one provider's folder, by file name. */
export function recordingsOf(corpus: string, provider: StreamProvider): string[] {
  return readdirSync(join(corpus, provider)).filter((file) => file.endsWith(".txt")).sort();
}

/** A recording's lines, sent as they are, as the server-sent events of its API (with `event:` names where the SDK reads them). */
function serverSentEvents(provider: StreamProvider, text: string): ServerSentEvent[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const type = /^\{"type":"([^"]+)"/.exec(line)?.[1];
      return (provider === "anthropic" || provider === "openai-responses") && type !== undefined ? { event: type, data: line } : { data: line };
    });
}

/** Reads one recording twice through the provider's SDK from a local server: once through the adapter's deltas, once directly. */
export async function readRecording(provider: StreamProvider, path: string): Promise<RecordingOutcome> {
  const events = serverSentEvents(provider, readFileSync(path, "utf8"));
  const server = await startReplayServer([() => ({ events }), () => ({ events })]);
  try {
    const registry = new ToolRegistry();
    const read = new Map<string, ReadCall>();
    const deltas: ToolCallDelta[] = [];
    let seen = 0;
    const take = async (stream: AsyncIterable<ToolCallDelta>) => {
      for await (const delta of stream) {
        deltas.push(delta);
        const call = read.get(delta.toolCallId) ?? { toolCallId: delta.toolCallId, toolName: undefined, text: "", done: false };
        read.set(delta.toolCallId, call);
        call.toolName ??= delta.toolName;
        call.text += delta.argumentsDelta ?? "";
        call.done ||= delta.done === true;
      }
    };
    const onEvent = () => void seen++;
    let reference: ReferenceCall[] = [];
    let yielded = 0;
    const count = async (stream: AsyncIterable<unknown>) => {
      for await (const _event of stream) yielded++;
    };
    let adapted: unknown;
    let direct: unknown;
    const attempt = async (read: () => Promise<void>): Promise<unknown> => {
      try {
        await read();
        return undefined;
      } catch (error) {
        return error;
      }
    };
    if (provider === "openai-chat") {
      const openai = new OpenAI({ apiKey: "k", baseURL: `${server.origin}/v1`, maxRetries: 0 });
      const chunks: ChatChunk[] = [];
      adapted = await attempt(async () => take(openAIChat(registry).deltas(await openai.chat.completions.create({ model: "m", messages: [], stream: true }), { onEvent: (chunk) => (seen++, chunks.push(chunk)) })));
      reference = chatReference(chunks);
      direct = await attempt(async () => count(await openai.chat.completions.create({ model: "m", messages: [], stream: true })));
    } else if (provider === "openai-responses") {
      const openai = new OpenAI({ apiKey: "k", baseURL: `${server.origin}/v1`, maxRetries: 0 });
      const onEvent = (event: ResponseStreamEvent) => {
        seen++;
        if (event.type === "response.output_item.done" && event.item.type === "function_call") reference.push({ id: event.item.call_id, name: event.item.name, args: JSON.parse(event.item.arguments) });
      };
      adapted = await attempt(async () => take(openAIResponses(registry).deltas(await openai.responses.create({ model: "m", input: "", stream: true }), { onEvent })));
      direct = await attempt(async () => count(await openai.responses.create({ model: "m", input: "", stream: true })));
    } else if (provider === "anthropic") {
      const client = new Anthropic({ apiKey: "k", baseURL: server.origin, maxRetries: 0 });
      const stream = client.messages.stream({ model: "m", max_tokens: 1, messages: [] });
      adapted = await attempt(async () => {
        await take(anthropic(registry).deltas(stream, { onEvent: () => void seen++ }));
        reference = (await stream.finalMessage()).content.flatMap((block) => (block.type === "tool_use" ? [{ id: block.id, name: block.name, args: block.input }] : []));
      });
      direct = await attempt(async () => count(await client.messages.create({ model: "m", max_tokens: 1, messages: [], stream: true })));
    } else {
      const ai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: server.origin } });
      const chunks: unknown[] = [];
      adapted = await attempt(async () => take(gemini(registry).deltas(await ai.models.generateContentStream({ model: "m", contents: "" }), { onEvent: (chunk) => (seen++, chunks.push(chunk)) })));
      reference = geminiReference(chunks);
      direct = await attempt(async () => count(await ai.models.generateContentStream({ model: "m", contents: "" })));
    }
    const thrown = adapted === undefined && direct === undefined ? undefined : { adapted, direct };
    return { calls: [...read.values()], reference, seen, yielded, deltas, thrown };
  } finally {
    await server.close();
  }
}

/** A Chat Completions chunk, as much as the reference reads of it. */
interface ChatChunk {
  choices?: ReadonlyArray<{ index?: number; delta?: { tool_calls?: ReadonlyArray<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> | null } | null }>;
}

/** Chat Completions calls accumulated as the API documents it: by `index`, the first id and name, the arguments joined. */
function chatReference(chunks: readonly ChatChunk[]): ReferenceCall[] {
  const calls = new Map<number, { id: string | undefined; name: string; text: string }>();
  for (const chunk of chunks) {
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      for (const piece of choice.delta?.tool_calls ?? []) {
        const call = calls.get(piece.index ?? 0) ?? { id: undefined, name: "", text: "" };
        calls.set(piece.index ?? 0, call);
        call.id ??= piece.id;
        if (call.name === "") call.name = piece.function?.name ?? "";
        call.text += piece.function?.arguments ?? "";
      }
    }
  }
  return [...calls.values()].map((call) => ({ id: call.id, name: call.name, args: JSON.parse(call.text) as unknown }));
}

/**
 * Gemini's calls read independently of the adapter: whole calls as they are, streamed calls by
 * setting each `partialArgs` entry at its path in an object (strings joined), not by writing text.
 */
function geminiReference(chunks: readonly unknown[]): ReferenceCall[] {
  const calls: Array<{ id: string | undefined; name: string; args: Record<string, unknown> }> = [];
  let open: (typeof calls)[number] | undefined;
  for (const chunk of chunks as Array<{ candidates?: Array<{ content?: { parts?: Array<{ functionCall?: Record<string, unknown> }> } }> }>) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      const call = part.functionCall;
      if (call === undefined) continue;
      if (typeof call.name === "string" && call.name !== "") {
        const entry = { id: typeof call.id === "string" ? call.id : undefined, name: call.name, args: (call.args as Record<string, unknown> | undefined) ?? {} };
        calls.push(entry);
        open = call.willContinue === true || call.partialArgs !== undefined ? entry : undefined;
      }
      for (const arg of (call.partialArgs as Array<Record<string, unknown>> | undefined) ?? []) setAt(open!.args, String(arg.jsonPath), arg);
      if (call.willContinue !== true) open = undefined;
    }
  }
  return calls;
}

function setAt(root: Record<string, unknown>, path: string, arg: Record<string, unknown>): void {
  const segments = [...path.slice(1).matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((match) => (match[2] === undefined ? match[1]! : Number(match[2])));
  let node: Record<string | number, unknown> = root;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (!last) {
      node[segment] ??= typeof segments[index + 1] === "number" ? [] : {};
      node = node[segment] as Record<string | number, unknown>;
      return;
    }
    if (typeof arg.stringValue === "string") node[segment] = (typeof node[segment] === "string" ? (node[segment] as string) : "") + arg.stringValue;
    else if (arg.numberValue !== undefined) node[segment] = arg.numberValue;
    else if (arg.boolValue !== undefined) node[segment] = arg.boolValue;
    else node[segment] = null;
  });
}

/** A registry that accepts any object arguments for each of `names`. */
export function permissiveRegistry(names: Iterable<string>): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of new Set(names)) registry.register({ name, description: "", parameters: Type.Object({}) }, (args) => args);
  return registry;
}
