import { type ContentItem, isToolContent } from "../results/content.js";
import { modelItems } from "../results/model-items.js";
import { leftOutNote } from "../text/content-notes.js";
import type { ToolResult } from "../types.js";
import type { ProviderName } from "./errors.js";

/** What one provider takes in a tool result besides text: these image types, and PDF documents (every provider here takes those). */
export interface MediaRule {
  readonly provider: ProviderName;
  /** The image media types the provider documents for tool results. */
  readonly images: ReadonlySet<string>;
}

/** One item of a rich result as a provider can take it: text, an image, or a PDF document. */
export type ProviderItem =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "image"; readonly mimeType: string; readonly data: string }
  | { readonly kind: "pdf"; readonly data: string; readonly filename: string };

/**
 * The items of a successful `toolContent` result as `rule`'s provider can take them, in order;
 * `undefined` for any other result (it maps as text, as before). The items are those a model
 * reads (the structured value's JSON text included, see `modelItems`). A text resource becomes its
 * text; an image of a type the provider does not take, audio, and a binary resource other than a
 * PDF become a text note saying so; empty text is left out (Anthropic refuses empty text blocks).
 */
export function richItems(result: ToolResult, rule: MediaRule): ProviderItem[] | undefined {
  if (result.status !== "ok" || !isToolContent(result.value)) return undefined;
  const items: ProviderItem[] = [];
  for (const item of modelItems(result.value)) {
    const mapped = providerItem(item, rule);
    if (mapped.kind !== "text" || mapped.text !== "") items.push(mapped);
  }
  return items;
}

/** The text items of `items`, joined by newlines. */
export function joinedText(items: readonly ProviderItem[]): string {
  return items.flatMap((item) => (item.kind === "text" ? [item.text] : [])).join("\n");
}

/** base64 data as a `data:` URL, the form OpenAI takes images and files in. */
export function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

function providerItem(item: ContentItem, rule: MediaRule): ProviderItem {
  switch (item.type) {
    case "text":
      return { kind: "text", text: item.text };
    case "image":
      if (rule.images.has(item.mimeType)) return { kind: "image", mimeType: item.mimeType, data: item.data };
      return { kind: "text", text: leftOutNote(item, rule.provider) };
    case "audio":
      return { kind: "text", text: leftOutNote(item, rule.provider) };
    case "resource": {
      const { resource } = item;
      if ("text" in resource) return { kind: "text", text: resource.text };
      if (resource.mimeType === "application/pdf") return { kind: "pdf", data: resource.blob, filename: fileName(resource.uri) };
      return { kind: "text", text: leftOutNote({ type: "resource", mimeType: resource.mimeType }, rule.provider) };
    }
  }
}

const MAX_FILENAME_CHARACTERS = 200;

/** The last segment of a resource's URI as a file name (OpenAI asks for one with file data). */
function fileName(uri: string): string {
  const path = uri.split(/[?#]/, 1)[0] ?? "";
  const last = path.slice(path.lastIndexOf("/") + 1);
  return last === "" || last.length > MAX_FILENAME_CHARACTERS ? "document.pdf" : last;
}
