import { notJsonMessage, valueText } from "../text/result-text.js";
import type { ContentItem, ToolContent } from "./content.js";

/**
 * The items of a rich result as a model reads them: its own items, then the JSON text of its
 * `structuredContent` as one more text item, unless a text item already holds exactly that text
 * (MCP asks a tool with structured content to send its JSON as text too, for clients that read
 * only `content`; a model reads only content). A structured value with no JSON text (a BigInt,
 * a cycle) adds a text item that says so and names its type, as a plain result's failure does.
 */
export function modelItems(value: ToolContent): readonly ContentItem[] {
  if (!("structuredContent" in value) || value.structuredContent === undefined) return value.content;
  const text = valueText(value.structuredContent);
  if (text === undefined) return [...value.content, { type: "text", text: notJsonMessage(undefined, value.structuredContent) }];
  if (value.content.some((item) => item.type === "text" && item.text === text)) return value.content;
  return [...value.content, { type: "text", text }];
}
