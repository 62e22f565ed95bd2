import { isToolContent, toolContent, type ContentItem, type ToolContent } from "./content.js";
import { valueText } from "../text/result-text.js";
import { modelItems } from "./model-items.js";
import { attachmentsFollowNote, longestLeftOutNote } from "../text/content-notes.js";

/** A result as it reaches the model, and whether it was cut to fit. */
export interface FittedResult {
  readonly value: unknown;
  readonly truncated: boolean;
}

const encoder = new TextEncoder();

/**
 * A result within `maxBytes` of UTF-8 text (or base64 data) for the model, its notice included. A
 * larger value becomes the start of its text, cut at a character boundary, followed by a notice
 * that says it was cut and by how much (shorter where the limit is small: see {@link noticeWithin});
 * a `toolContent` result keeps its items in order while they fit, cuts the text item (or text
 * resource, as the text item it is sent as) that crosses the limit, replaces each image, audio or
 * binary resource that does not fit whole by a line saying it was left out (while such lines fit),
 * and ends with the notice. A value with no JSON text is
 * left for the adapters to report.
 */
export function fitResult(value: unknown, maxBytes: number): FittedResult {
  if (isToolContent(value)) return fitContent(value, maxBytes);
  const text = valueText(value);
  if (text === undefined || text.length <= maxBytes / 3) return { value, truncated: false };
  const bytes = utf8Length(text);
  if (bytes <= maxBytes) return { value, truncated: false };
  const notice = noticeWithin(bytes, maxBytes);
  if (notice === undefined) return { value: cutUtf8(text, maxBytes), truncated: true };
  return { value: `${cutUtf8(text, maxBytes - utf8Length(notice) - 1)}\n${notice}`, truncated: true };
}

/**
 * A `toolContent` result within `maxBytes`, counted as the model gets it: every item the adapters
 * send (its `structuredContent` as text too, where no text item holds it), each image, audio item
 * or binary resource as its data or as the note an adapter sends in its place, whichever is
 * longer, a byte between two items (the adapters that join text join it with newlines), and the
 * line Chat Completions adds when images or documents follow in a user message. A cut result keeps
 * no `structuredContent`: the text it would be sent as could be any size, and it no longer matches what was cut.
 */
function fitContent(value: ToolContent, maxBytes: number): FittedResult {
  const sent = modelItems(value);
  const attachments = attachmentsNoteBytes(sent);
  const total = sent.reduce((sum, item) => sum + itemBytes(item), 0) + sent.length - 1 + attachments;
  if (total <= maxBytes) return { value, truncated: false };
  const notice = noticeWithin(total, maxBytes);
  let left = notice === undefined ? maxBytes : maxBytes - utf8Length(notice) - 1;
  // The attachments line is paid for with the first image or document kept.
  let attachmentsUnpaid = attachments;
  const items: ContentItem[] = [];
  // Each item after the first costs one byte more: the newline before it.
  const room = (): number => left - (items.length > 0 ? 1 : 0);
  for (const item of value.content) {
    const attachment = isAttachment(item);
    const bytes = itemBytes(item) + (attachment ? attachmentsUnpaid : 0);
    if (bytes <= room()) {
      left = room() - bytes;
      if (attachment) attachmentsUnpaid = 0;
      items.push(item);
    } else if (item.type === "text" || (item.type === "resource" && "text" in item.resource)) {
      // A text resource reaches the model as its text (see the adapters): cut, it is that text's start.
      const text = item.type === "text" ? item.text : (item.resource as { text: string }).text;
      if (room() > 0) items.push({ type: "text", text: cutUtf8(text, room()) });
      left = 0;
    } else {
      const leftOut = `[${describeItem(item)} left out: the result is over its size limit]`;
      const leftOutBytes = utf8Length(leftOut);
      if (leftOutBytes > room()) continue;
      left = room() - leftOutBytes;
      items.push({ type: "text", text: leftOut });
    }
  }
  if (notice !== undefined) items.push({ type: "text", text: notice });
  return { value: toolContent(items), truncated: true };
}

/** What an item costs: its text's UTF-8 bytes, or the longer of its base64 data and the note an adapter may send in its place. */
function itemBytes(item: ContentItem): number {
  switch (item.type) {
    case "text":
      return utf8Length(item.text);
    case "image":
    case "audio":
      return Math.max(item.data.length, utf8Length(longestLeftOutNote(item)));
    case "resource":
      if ("text" in item.resource) return utf8Length(item.resource.text);
      return Math.max(item.resource.blob.length, utf8Length(longestLeftOutNote({ type: "resource", mimeType: item.resource.mimeType })));
  }
}

/** The bytes of the line (and its newline) Chat Completions adds when a result's images and PDF documents follow in a user message; 0 without any. */
function attachmentsNoteBytes(items: readonly ContentItem[]): number {
  const images = items.filter((item) => item.type === "image").length;
  const documents = items.filter((item) => item.type === "resource" && isAttachment(item)).length;
  return images + documents === 0 ? 0 : utf8Length(attachmentsFollowNote(images, documents)) + 1;
}

/** Whether Chat Completions may send `item` in a user message after the tool message: an image, or a PDF document. */
function isAttachment(item: ContentItem): boolean {
  return item.type === "image" || (item.type === "resource" && !("text" in item.resource) && item.resource.mimeType === "application/pdf");
}

function describeItem(item: Exclude<ContentItem, { type: "text" }>): string {
  return item.type === "resource" ? "a resource" : `an ${item.type} (${item.mimeType})`;
}

/**
 * The notice after a cut result, counted within the limit: it was cut, from what size to what limit,
 * and what to do; where that would take more than half of the limit, only the sizes, or only
 * `[cut]`; `undefined` when even that leaves no room (the result is then its cut text alone, still
 * marked `truncated`).
 */
export function noticeWithin(bytes: number, maxBytes: number): string | undefined {
  const notices = [`[Result cut to ${maxBytes} of its ${bytes} bytes. Ask for less (a narrower query, one page) to see the rest.]`, `[Result cut to ${maxBytes} of its ${bytes} bytes.]`, "[cut]"];
  return notices.find((notice) => (notice.length + 1) * 2 <= maxBytes) ?? (maxBytes > "[cut]".length ? "[cut]" : undefined);
}

function utf8Length(text: string): number {
  // Counted in place: encoding a large string only to count it would double its memory.
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest start of `text` whose UTF-8 takes at most `maxBytes`, never splitting a character. */
function cutUtf8(text: string, maxBytes: number): string {
  const { read } = encoder.encodeInto(text.slice(0, maxBytes), new Uint8Array(maxBytes));
  return text.slice(0, read);
}
