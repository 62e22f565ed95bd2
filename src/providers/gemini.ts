import { LRUCache } from "lru-cache";
import type { ToolRegistry } from "../registry/registry.js";
import type { ToolResult } from "../types.js";
import { type AdapterOptions, adapterBase, type ProviderAdapter } from "./adapter.js";
import { ProviderFormatError } from "./errors.js";
import { field, stringField } from "./calls.js";
import { GEMINI_NAMES, type ToolNameMap } from "./names.js";
import { ADAPTER_OPTIONS } from "./options.js";
import { onEventOf } from "./deltas/context.js";
import { stoppableDeltas } from "./deltas/stoppable.js";
import { type GeminiStreamChunk, geminiDeltas } from "./deltas/gemini.js";
import { notJsonMessage, resultText, valueText } from "../text/result-text.js";
import { isRecord } from "../objects.js";
import type { ProviderRule } from "./tools.js";
import { joinedText, type MediaRule, type ProviderItem, richItems } from "./rich-content.js";

const PROVIDER = "Gemini";
const RULE: ProviderRule = { ...GEMINI_NAMES, provider: PROVIDER, maxTools: Infinity };
/** The image types Gemini documents for function-response parts (with PDF documents); no audio. */
const MEDIA: MediaRule = { provider: PROVIDER, images: new Set(["image/png", "image/jpeg", "image/webp"]) };

/**
 * The prefix of the ids a Gemini adapter's `call()` generates for calls the
 * model sent without one; its `result()` leaves such ids out again.
 */
export const GENERATED_GEMINI_ID_PREFIX = "gemini-generated-";

/** A Gemini `FunctionCall`: the model asks for one function. `id` and `args` may be missing. */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/** A Gemini content `Part` holding a `functionCall` (the SDK's `Part`). */
export interface GeminiFunctionCallPart {
  functionCall?: GeminiFunctionCall;
}

/** A function declaration for the `tools` of a Gemini request, with its schema as JSON Schema. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** Gemini's field for a full JSON Schema (the older `parameters` takes an OpenAPI subset). */
  parametersJsonSchema: Record<string, unknown>;
}

/** A Gemini `Tool` holding function declarations (the SDK's `Tool`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Media of a function response: base64 `data` and its `mimeType` (the SDK's `FunctionResponsePart`). */
export interface GeminiFunctionResponseMedia {
  inlineData: { mimeType: string; data: string };
}

/** A content `Part` answering one function call, sent in a `user` content (the SDK's `Part`). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    /** The call's id; left out when the model sent none (see {@link GENERATED_GEMINI_ID_PREFIX}). */
    id?: string;
    /** The function's name as the model knows it. */
    name: string;
    /** `{ output }` for a success, `{ error }` for a failure, as Gemini documents it. */
    response: { output: unknown } | { error: string };
    /** The images and PDF documents of a `toolContent` result, when it has any. */
    parts?: GeminiFunctionResponseMedia[];
  };
}

/** The Gemini adapter: what {@link gemini} returns. */
export type GeminiAdapter = ProviderAdapter<GeminiFunctionCallPart | GeminiFunctionCall, GeminiTool, GeminiFunctionResponsePart, GeminiStreamChunk>;

/**
 * The Gemini dialect of a registry:
 * - `tools()`: one `Tool` holding a declaration per tool, each schema as
 *   `parametersJsonSchema` (none at all when no tool is sent);
 * - `call(part)`: a content `Part` holding a `functionCall`, or a bare
 *   `FunctionCall` (as `response.functionCalls` lists them), as a
 *   `ToolCallContent`. Missing `args` means no arguments (`{}`). Gemini may
 *   leave the id out; one is generated then, starting with {@link GENERATED_GEMINI_ID_PREFIX};
 * - `result(toolResult)`: the `functionResponse` part: `response: { output }`
 *   with the value as JSON (`null` when the handler returned nothing), or
 *   `response: { error }` with the text written for the model. It names the
 *   function as the model knows it, and echoes the id unless it was generated.
 *   A `toolContent` result sends its text items (joined by newlines) as `output`,
 *   and its images and PDF documents as `parts` of `inlineData`; audio, and an
 *   image type Gemini does not take (only PNG, JPEG and WebP), become text saying it was left out.
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 * @example
 * ```ts
 * const adapter = gemini(registry);
 * const response = await ai.models.generateContent({ model, contents, config: { tools: adapter.tools() } });
 * const calls = (response.candidates?.[0]?.content?.parts ?? []).filter((part) => part.functionCall).map(adapter.call);
 * ```
 */
export function gemini(registry: ToolRegistry, options?: AdapterOptions): GeminiAdapter {
  const base = adapterBase(registry, RULE, options, ADAPTER_OPTIONS);
  const nameMap = base.nameMap;
  // Calls whose model wrote a name other than the one the map sent for their tool (the registry's own
  // `uber.ride`, which Gemini also accepts): Gemini pairs a response with its call by name, so the
  // response names the function as the call did. Bounded: the oldest is forgotten first.
  const otherNames = new LRUCache<string, string>({ max: 1_000 });
  /** Remembers the name the model wrote for call `id` of tool `toolName`, where it is not the one the map sent. */
  const rememberName = (id: string, toolName: string, modelName: string): void => {
    if (nameMap !== undefined && (nameMap.providerNameOf(toolName) ?? toolName) !== modelName) otherNames.set(id, modelName);
  };
  const deltaContext = base.deltaContext();
  return Object.freeze({
    provider: PROVIDER,
    nameMap,
    tools: (toolsOptions) => {
      const tools = base.tools(toolsOptions);
      if (tools.length === 0) return [];
      return [{ functionDeclarations: tools.map(({ name, description, parameters }) => ({ name, description, parametersJsonSchema: parameters })) }];
    },
    call: (part) => {
      const wrapped = field(PROVIDER, part, "functionCall");
      const call = wrapped === undefined && field(PROVIDER, part, "name") !== undefined ? part : wrapped;
      if (call === undefined) throw new ProviderFormatError(PROVIDER, 'the part has no "functionCall"');
      const modelName = stringField(PROVIDER, call, "name");
      const name = base.registryName(modelName);
      const rawId = field(PROVIDER, call, "id");
      if (rawId !== undefined && rawId !== null && typeof rawId !== "string") throw new ProviderFormatError(PROVIDER, '"id" must be a string');
      const id = typeof rawId === "string" && rawId !== "" ? rawId : `${GENERATED_GEMINI_ID_PREFIX}${crypto.randomUUID()}`;
      rememberName(id, name, modelName);
      const args = field(PROVIDER, call, "args") ?? {};
      if (!isRecord(args)) throw new ProviderFormatError(PROVIDER, '"args" must be an object');
      return base.toolCall(id, name, args);
    },
    result: (toolResult) => {
      const name = otherNames.get(toolResult.toolCallId) ?? nameMap?.providerNameOf(toolResult.toolName) ?? toolResult.toolName;
      const items = richItems(toolResult, MEDIA);
      const functionResponse: GeminiFunctionResponsePart["functionResponse"] = items === undefined ? { name, response: responseOf(toolResult, nameMap) } : richResponse(name, items);
      if (!toolResult.toolCallId.startsWith(GENERATED_GEMINI_ID_PREFIX)) functionResponse.id = toolResult.toolCallId;
      return { functionResponse };
    },
    deltas: (stream, deltasOptions) => {
      const onEvent = onEventOf(deltasOptions);
      return stoppableDeltas(stream, (events) => geminiDeltas(events, deltaContext, onEvent, GENERATED_GEMINI_ID_PREFIX, rememberName));
    },
  } satisfies GeminiAdapter);
}

function richResponse(name: string, items: readonly ProviderItem[]): GeminiFunctionResponsePart["functionResponse"] {
  const parts = items.flatMap((item): GeminiFunctionResponseMedia[] => {
    if (item.kind === "text") return [];
    return [{ inlineData: { mimeType: item.kind === "pdf" ? "application/pdf" : item.mimeType, data: item.data } }];
  });
  const response = { output: joinedText(items) };
  return parts.length === 0 ? { name, response } : { name, response, parts };
}

function responseOf(result: ToolResult, names: ToolNameMap | undefined): { output: unknown } | { error: string } {
  if (result.isError) return { error: result.content };
  if (result.status !== "ok") return { output: resultText(result, names).text };
  if (result.value === undefined) return { output: null };
  const text = valueText(result.value);
  // A JSON round trip: Gemini receives plain JSON (a Date as its string, no class instances).
  if (text === undefined) return { error: notJsonMessage(undefined, result.value) };
  return { output: typeof result.value === "string" ? result.value : (JSON.parse(text) as unknown) };
}
