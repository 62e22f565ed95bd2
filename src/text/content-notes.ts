/**
 * The words a model reads in place of, or beside, the media of a rich tool result: what was left
 * out and why, and where the images of a Chat Completions result went. Never the media's data.
 */

/** What a note says about one item: its kind and media type, never its data. */
export interface NotedItem {
  readonly type: "image" | "audio" | "resource";
  readonly mimeType?: string | undefined;
}

/** `[An audio item (audio/wav) of this result was left out: Anthropic does not take it in a tool result.]` */
export function leftOutNote(item: NotedItem, provider: string): string {
  return `[${describeItem(item)} of this result was left out: ${provider} does not take it in a tool result.]`;
}

/** The longest name of a provider whose adapter writes these notes: a note is sized with it before the provider is known. */
export const LONGEST_PROVIDER_NAME = "OpenAI Chat Completions";

/** The longest {@link leftOutNote} any adapter may send in place of `item`. */
export function longestLeftOutNote(item: NotedItem): string {
  return leftOutNote(item, LONGEST_PROVIDER_NAME);
}

/** The line a Chat Completions tool message ends with when its images and documents follow in a user message. */
export function attachmentsFollowNote(images: number, documents: number): string {
  const parts = [counted(images, "image"), counted(documents, "PDF document")].filter((part) => part !== "");
  return `[${parts.join(" and ")} of this result follow${images + documents === 1 ? "s" : ""} in the next user message.]`;
}

/** The text before one call's images and documents in the follow-up user message of Chat Completions. */
export function attachmentsHeading(toolCallId: string): string {
  return `[The images and documents of the result of tool call ${JSON.stringify(toolCallId)}:]`;
}

/** An MCP `resource_link` item as text: its name and address. */
export function resourceLinkText(name: string, uri: string): string {
  return `[Resource ${JSON.stringify(name)}: ${uri}]`;
}

/** An MCP content item of a kind this package does not know, or one it cannot read, as text naming its kind. */
export function unreadableItemNote(type: string): string {
  return `[A content item of type ${JSON.stringify(type.slice(0, 40))} was left out: it cannot be shown here.]`;
}

function describeItem(item: NotedItem): string {
  const type = item.mimeType === undefined ? "" : ` (${item.mimeType})`;
  switch (item.type) {
    case "image":
      return `An image${type}`;
    case "audio":
      return `An audio item${type}`;
    case "resource":
      return `A resource${type}`;
  }
}

function counted(count: number, noun: string): string {
  if (count === 0) return "";
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
