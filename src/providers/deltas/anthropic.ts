import type { ToolCallDelta } from "../../types.js";
import { chunkField, type DeltaContext, failingDelta, namingDelta, problemOf, StreamIds, UnreadableChunk } from "./context.js";

/** What the reader needs of a Messages stream event (the `@anthropic-ai/sdk`'s `RawMessageStreamEvent`). */
export interface AnthropicStreamEvent {
  type: string;
}

const PROVIDER = "Anthropic";
/** The stand-in id of a `tool_use` block sent without an id, or with an earlier block's: this, then the block's index. */
const STAND_IN_ID_PREFIX = "anthropic-block-";

/** One `tool_use` block of the stream, by its content index. */
interface AnthropicCall {
  readonly toolCallId: string;
  /** The block's `input` at its start, sent when no `input_json_delta` carried any text. */
  readonly input: unknown;
  streamed: boolean;
}

/** What one event says of the stream's `tool_use` blocks. */
type AnthropicEvent =
  | { readonly kind: "start"; readonly index: number; readonly id: string | undefined; readonly name: string | undefined; readonly input: unknown; readonly problem: string | undefined }
  | { readonly kind: "delta"; readonly index: number; readonly text: string; readonly problem: string | undefined }
  | { readonly kind: "stop"; readonly index: number }
  | { readonly kind: "other" };

const OTHER: AnthropicEvent = Object.freeze({ kind: "other" });

/**
 * The `tool_use` blocks of a Messages stream, as deltas: `content_block_start` names a call,
 * each `input_json_delta` carries a piece of its input, `content_block_stop` ends it. A tool
 * with no arguments streams no text (only an empty `partial_json`): its input is then the
 * block's `input` at its start (`{}`), as the SDK's own accumulation reads it.
 *
 * Every `tool_use` block gets its result, whatever the events hold. A block without an `id` or a
 * `name` (which `call()` refuses), or with the `id` of an earlier block, fails with a
 * `ProviderFormatError`, under the stand-in id `anthropic-block-<index>` when its own is missing
 * or taken (its result could not be told apart from the first's). An event that cannot be read
 * (not an object, a `content_block_*` without a numeric `index`) is reported, never thrown, and
 * reading goes on: each block still open may have lost a piece of its input there, and fails;
 * blocks that stopped before, and blocks that start after, are untouched. A piece of a known
 * block that cannot be read fails that block alone.
 */
export async function* anthropicDeltas<TEvent extends AnthropicStreamEvent>(
  stream: AsyncIterable<TEvent>,
  context: DeltaContext,
  onEvent: ((event: TEvent) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<number, AnthropicCall>();
  const ids = new StreamIds();
  for await (const event of stream) {
    onEvent?.(event);
    let read: AnthropicEvent;
    try {
      read = readEvent(event);
    } catch (thrown) {
      // Which block the event was about is unknown: each one still open may have lost a piece there.
      const problem = `an event of its stream could not be read (${problemOf(thrown)}), and a piece of its input may be lost there`;
      for (const call of calls.values()) yield failingDelta(context, PROVIDER, call.toolCallId, undefined, problem);
      calls.clear();
      continue;
    }
    if (read.kind === "start") {
      const taken = read.id !== undefined && !ids.take(read.id);
      const toolCallId = read.id === undefined || taken ? ids.standIn(`${STAND_IN_ID_PREFIX}${read.index}`) : read.id;
      const toolName = read.name === undefined ? undefined : context.registryName(read.name);
      const problem = read.problem ?? (taken ? 'its "id" is the id of an earlier tool_use block of the stream' : undefined);
      if (problem !== undefined || toolName === undefined) {
        // Not kept by its index: its pieces and its stop are skipped.
        yield failingDelta(context, PROVIDER, toolCallId, toolName, problem ?? '"name" must be a string');
        continue;
      }
      calls.set(read.index, { toolCallId, input: read.input, streamed: false });
      yield namingDelta(context, { toolCallId, toolName });
    } else if (read.kind === "delta") {
      const call = calls.get(read.index);
      if (call === undefined) continue;
      if (read.problem !== undefined) {
        calls.delete(read.index);
        yield failingDelta(context, PROVIDER, call.toolCallId, undefined, read.problem);
        continue;
      }
      if (read.text === "") continue;
      call.streamed = true;
      yield { toolCallId: call.toolCallId, argumentsDelta: read.text };
    } else if (read.kind === "stop") {
      const call = calls.get(read.index);
      if (call === undefined) continue;
      calls.delete(read.index);
      yield call.streamed ? { toolCallId: call.toolCallId, done: true } : { toolCallId: call.toolCallId, argumentsDelta: jsonText(call.input ?? {}), done: true };
    }
  }
}

/**
 * What an event says of the `tool_use` blocks; a field of a known block that is wrong is its `problem`.
 * @throws UnreadableChunk when the event is not one, or names no block it is about: which block it was about is unknown
 */
function readEvent(event: unknown): AnthropicEvent {
  const type = chunkField(event, "type", "the event");
  if (typeof type !== "string") throw new UnreadableChunk('its "type" is not a string');
  if (type !== "content_block_start" && type !== "content_block_delta" && type !== "content_block_stop") return OTHER;
  const index = chunkField(event, "index", "the event");
  if (typeof index !== "number") throw new UnreadableChunk(`the "index" of its ${type} is not a number`);
  if (type === "content_block_stop") return { kind: "stop", index };
  if (type === "content_block_start") {
    const block = chunkField(event, "content_block", "the event");
    if (typeof block !== "object" || block === null || chunkField(block, "type", "a content block") !== "tool_use") return OTHER;
    let id: unknown;
    let name: unknown;
    try {
      id = chunkField(block, "id", "a content block");
      name = chunkField(block, "name", "a content block");
      const input = chunkField(block, "input", "a content block");
      // The words of `call()`, which refuses such a block.
      const problem = typeof id !== "string" || id === "" ? '"id" must be a string' : typeof name !== "string" ? '"name" must be a string' : undefined;
      return { kind: "start", index, id: typeof id === "string" && id !== "" ? id : undefined, name: typeof name === "string" ? name : undefined, input, problem };
    } catch (thrown) {
      return { kind: "start", index, id: typeof id === "string" && id !== "" ? id : undefined, name: typeof name === "string" ? name : undefined, input: undefined, problem: problemOf(thrown) };
    }
  }
  try {
    const delta = chunkField(event, "delta", "the event");
    if (chunkField(delta, "type", "its delta") !== "input_json_delta") return OTHER;
    const text = chunkField(delta, "partial_json", "its delta");
    return typeof text === "string" ? { kind: "delta", index, text, problem: undefined } : { kind: "delta", index, text: "", problem: '"delta.partial_json" must be a string' };
  } catch (thrown) {
    // The delta of a known block: that block alone may have lost a piece.
    return { kind: "delta", index, text: "", problem: problemOf(thrown) };
  }
}

/** The JSON text of a value the SDK parsed from JSON; `""` (not JSON, so refused as such) if it cannot be written. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
