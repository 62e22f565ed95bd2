import { describeOption } from "../options.js";

/** A text item of a tool's result, in MCP's shape. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image item of a tool's result, in MCP's shape: base64 `data` and its `mimeType` (`image/png`…). */
export interface ImageContent {
  type: "image";
  /** The image's bytes, base64-encoded (no `data:` prefix). */
  data: string;
  mimeType: string;
}

/** An audio item of a tool's result, in MCP's shape: base64 `data` and its `mimeType` (`audio/wav`…). */
export interface AudioContent {
  type: "audio";
  /** The audio's bytes, base64-encoded (no `data:` prefix). */
  data: string;
  mimeType: string;
}

/** An embedded resource of a tool's result, in MCP's shape: text or a base64 `blob`, named by `uri`. */
export interface ResourceContent {
  type: "resource";
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
}

/** One item of a rich tool result. */
export type ContentItem = TextContent | ImageContent | AudioContent | ResourceContent;

/** The mark of a {@link ToolContent}, shared by every copy of this package loaded in one runtime. */
const TOOL_CONTENT: unique symbol = Symbol.for("typebox-tool-registry.tool-content") as never;

/**
 * A rich tool result, made by {@link toolContent}: items in MCP's shapes, which each provider
 * adapter sends in its native form, and, for a tool with an `outputSchema`, the structured value
 * that schema describes.
 */
export interface ToolContent<TStructured = unknown> {
  readonly [TOOL_CONTENT]: true;
  /** The items, in order: a frozen private copy of those given. */
  readonly content: readonly ContentItem[];
  /** The value the tool's `outputSchema` describes (MCP's `structuredContent`), when given. */
  readonly structuredContent?: TStructured;
}

/** Options of {@link toolContent}. */
export interface ToolContentOptions<TStructured> {
  /** The structured value, checked against the tool's `outputSchema` (MCP's `structuredContent`). */
  structuredContent?: TStructured | undefined;
}

/** The standard base64 alphabet, with no padding. */
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*$/;

/**
 * Whether `text` is base64 as MCP and the providers take it: the standard alphabet, padded to
 * whole quanta. Tested without a repeated group: a pattern that repeats one per quantum ran out of
 * the regular expression engine's stack on an image of 3.35 MB.
 */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return BASE64_ALPHABET.test(padding === 0 ? text : text.slice(0, text.length - padding));
}

/**
 * A rich tool result for a handler to return: text, images, audio and resources in MCP's shapes.
 * Each provider adapter's `result()` maps the items to its own form (Anthropic image blocks inside
 * `tool_result`, OpenAI Responses content arrays, Gemini function-response parts, MCP content as
 * is); a result that is only text stays text everywhere.
 * @param items the items, in order; images and audio as base64 `data` with a `mimeType`
 * @throws TypeError for an item that is not one of these shapes, naming its index and field (never its data)
 * @example
 * ```ts
 * registry.register(screenshotTool, async () =>
 *   toolContent([{ type: "text", text: "The page after login:" }, { type: "image", data: png.toString("base64"), mimeType: "image/png" }]),
 * );
 * ```
 */
export function toolContent<TStructured = unknown>(items: readonly ContentItem[], options: ToolContentOptions<TStructured> = {}): ToolContent<TStructured> {
  if (!Array.isArray(items)) throw new TypeError(`toolContent takes an array of content items, got ${describeOption(items)}`);
  const content = Object.freeze(items.map((item, index) => Object.freeze(checkedItem(item, index))));
  const result: ToolContent<TStructured> = { [TOOL_CONTENT]: true, content };
  if (options !== undefined && options !== null && "structuredContent" in options) {
    Object.assign(result, { structuredContent: options.structuredContent });
  }
  return Object.freeze(result);
}

/** Whether `value` was made by {@link toolContent} (by this copy of the package or another). */
export function isToolContent(value: unknown): value is ToolContent {
  if (typeof value !== "object" || value === null) return false;
  try {
    return (value as { [TOOL_CONTENT]?: unknown })[TOOL_CONTENT] === true;
  } catch {
    // A proxy whose trap throws for a key it does not know: not one (it is sent as its JSON, if it has one).
    return false;
  }
}

/** A copy of one item, holding only its known fields, once they are of the right kinds. */
function checkedItem(item: unknown, index: number): ContentItem {
  const at = `content item ${index}`;
  if (typeof item !== "object" || item === null) throw new TypeError(`${at} must be an object, got ${describeOption(item)}`);
  const fields = item as Record<string, unknown>;
  const field = (name: string): string => {
    const value = fields[name];
    if (typeof value !== "string") throw new TypeError(`${at} needs "${name}" as a string, got ${describeOption(value)}`);
    return value;
  };
  switch (fields.type) {
    case "text":
      return { type: "text", text: field("text") };
    case "image":
    case "audio": {
      const data = field("data");
      if (!isBase64(data)) throw new TypeError(`${at} needs "data" as base64 (no data: prefix)`);
      return { type: fields.type, data, mimeType: mimeType(at, field("mimeType")) };
    }
    case "resource":
      return { type: "resource", resource: resourceOf(at, fields.resource) };
    default:
      throw new TypeError(`${at} must have "type" "text", "image", "audio" or "resource", got ${describeOption(fields.type)}`);
  }
}

function resourceOf(at: string, value: unknown): ResourceContent["resource"] {
  if (typeof value !== "object" || value === null) throw new TypeError(`${at} needs "resource" as an object, got ${describeOption(value)}`);
  const { uri, mimeType: type, text, blob } = value as Record<string, unknown>;
  if (typeof uri !== "string") throw new TypeError(`${at} needs "resource.uri" as a string, got ${describeOption(uri)}`);
  const named = type === undefined ? { uri } : { uri, mimeType: mimeType(at, type) };
  if (typeof text === "string") return { ...named, text };
  if (typeof blob === "string" && isBase64(blob)) return { ...named, blob };
  throw new TypeError(`${at} needs "resource.text" as a string or "resource.blob" as base64`);
}

function mimeType(at: string, value: unknown): string {
  if (typeof value === "string" && /^[\w.+-]+\/[\w.+-]+$/.test(value) && value.length <= 255) return value;
  throw new TypeError(`${at} needs "mimeType" as a media type such as "image/png", got ${describeOption(value)}`);
}
