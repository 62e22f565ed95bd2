import { type ContentItem, type ToolContent, toolContent } from "../results/content.js";
import { isRecord } from "../objects.js";
import { resourceLinkText, unreadableItemNote } from "../text/content-notes.js";

/**
 * A remote tool's content items as a `toolContent` result, with its `structuredContent` when the
 * server sent one, so that the registry checks that value against the tool's `outputSchema`.
 * Text, images, audio and embedded resources keep MCP's shapes (without `annotations` or
 * `_meta`), base64 data padded and without white space as the providers take it (the SDK accepts
 * what `atob` reads), media types without their parameters; a `resource_link` becomes a line of
 * text naming it; an item of another kind, or one `toolContent` refuses (a media type such as
 * `png`), becomes a line saying it was left out, since the tool did run.
 */
export function remoteToolContent(items: readonly unknown[], structuredContent: unknown): ToolContent {
  const options = structuredContent === undefined ? {} : { structuredContent };
  const candidates = items.map(candidateItem);
  try {
    return toolContent(candidates, options);
  } catch {
    // One item is malformed: find it (and any other) item by item, and say what was left out.
    return toolContent(candidates.map(readableItem), options);
  }
}

/** The fields of an MCP item that `toolContent` knows, or text for an item it does not. */
function candidateItem(item: unknown): ContentItem {
  if (!isRecord(item)) return { type: "text", text: unreadableItemNote(typeof item) };
  const type = typeof item.type === "string" ? item.type : typeof item.type;
  switch (type) {
    case "text":
      return { type, text: item.text } as ContentItem;
    case "image":
    case "audio":
      return { type, data: paddedBase64(item.data), mimeType: mediaType(item.mimeType) } as ContentItem;
    case "resource":
      return { type, resource: resourceFields(item.resource) } as ContentItem;
    case "resource_link":
      if (typeof item.uri === "string") return { type: "text", text: resourceLinkText(typeof item.name === "string" ? item.name : item.uri, item.uri) };
      return { type: "text", text: unreadableItemNote(type) };
    default:
      return { type: "text", text: unreadableItemNote(type) };
  }
}

function resourceFields(resource: unknown): unknown {
  if (!isRecord(resource)) return resource;
  const { uri, mimeType, text, blob } = resource;
  const fields: Record<string, unknown> = { uri };
  if (mimeType !== undefined) fields.mimeType = mediaType(mimeType);
  if (text !== undefined) fields.text = text;
  else fields.blob = paddedBase64(blob);
  return fields;
}

/**
 * A media type without its parameters (`text/csv; charset=utf-8` is `text/csv`), as `toolContent`
 * and the providers take it; anything else as it is.
 */
function mediaType(mimeType: unknown): unknown {
  if (typeof mimeType !== "string") return mimeType;
  const end = mimeType.indexOf(";");
  return end === -1 ? mimeType : mimeType.slice(0, end).trim();
}

/** base64 as `atob` reads it (white space, no padding) in the padded form without white space; anything else as it is. */
function paddedBase64(data: unknown): unknown {
  if (typeof data !== "string") return data;
  const compact = data.replace(/[\t\n\f\r ]+/g, "");
  return compact.length % 4 === 0 ? compact : compact.padEnd(compact.length + 4 - (compact.length % 4), "=");
}

/** The item as `toolContent` checks it, or a line saying it was left out. */
function readableItem(item: ContentItem): ContentItem {
  try {
    return toolContent([item]).content[0]!;
  } catch {
    return { type: "text", text: unreadableItemNote(item.type) };
  }
}
