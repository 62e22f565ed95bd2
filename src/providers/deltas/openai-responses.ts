import type { ToolCallDelta } from "../../types.js";
import { chunkField, type DeltaContext, failingDelta, fieldOf, namingDelta, problemOf, StreamIds, stringOf, UnreadableChunk } from "./context.js";

/** What the reader needs of a Responses stream event (the `openai` SDK's `ResponseStreamEvent`). */
export interface OpenAIResponsesStreamEvent {
  type: string;
}

/** Why an item sent under an earlier item's id fails, and the earlier one too while it is open. */
const REUSED_ITEM_ID = 'its item "id" is the id of an earlier item of the stream';
const PROVIDER = "OpenAI Responses";
/** The stand-in id of a `function_call` item sent with an earlier item's `call_id`, or without one: this, then its `output_index` (else its item id). */
const STAND_IN_ID_PREFIX = "openai-responses-output-";
/** Why an item with the `call_id` of an earlier one fails. */
const TAKEN = 'its "call_id" is the call_id of an earlier function_call item of the stream';

/** One `function_call` item of the stream, by its item id. */
interface ResponsesCall {
  readonly toolCallId: string;
  /** The arguments text streamed so far, while it is within `maxArgumentBytes` (past it, the call is refused as too large, and its end need not be compared). */
  text: string;
  /** Whether the text streamed is past `maxArgumentBytes` and no longer kept. */
  oversize: boolean;
  done: boolean;
  /**
   * Why an event that came while it was open could not be read, when one could not: a piece of
   * it may be lost there, and the whole text its end carries must confirm what streamed.
   */
  cut: string | undefined;
}

/**
 * The function calls of a Responses stream, as deltas: `response.output_item.added` names a
 * call (its `call_id` is the id results answer), `response.function_call_arguments.delta`
 * carries its arguments, and `response.function_call_arguments.done` (or the item's
 * `response.output_item.done`) ends it, with the whole text: what the deltas missed of it, if
 * anything, is sent then.
 *
 * Every `function_call` item gets its result, whatever the events hold. An item with the
 * `call_id` of an earlier one, or that ends with no `call_id` or `name`, fails with a
 * `ProviderFormatError`, under the stand-in id `openai-responses-output-<output_index>` when its
 * own is missing or taken (its result could not be told apart from the first's). An item with the
 * item `id` of an earlier one fails the same way (and the earlier one too, if it is still open: the
 * pieces that follow could be either's); one announced with no `call_id` or `name` that never
 * comes whole fails when the stream ends. An event that
 * cannot be read (not an object, a `type` that is not a string) is reported, never thrown, and
 * reading goes on: each call still open may have lost a piece there, so its end must bring the
 * whole text, of which what streamed is the beginning (the rest is sent then, and it runs);
 * otherwise it fails with a `ProviderFormatError`, as it does when the stream ends first. Any call
 * whose end brings a whole text that does not begin with what streamed fails the same way: what
 * ran would not be what the response records.
 */
export async function* openAIResponsesDeltas<TEvent extends OpenAIResponsesStreamEvent>(
  stream: AsyncIterable<TEvent>,
  context: DeltaContext,
  onEvent: ((event: TEvent) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<string, ResponsesCall>();
  /** Function-call items announced without what names them (read whole at their `output_item.done`), by item id, with their place in the output. */
  const unnamed = new Map<string, unknown>();
  const ids = new StreamIds();
  for await (const event of stream) {
    onEvent?.(event);
    let type: string;
    try {
      const found = chunkField(event, "type", "the event");
      if (typeof found !== "string") throw new UnreadableChunk('its "type" is not a string');
      type = found;
    } catch (thrown) {
      const problem = problemOf(thrown);
      for (const call of calls.values()) if (!call.done) call.cut ??= problem;
      continue;
    }
    switch (type) {
      case "response.output_item.added": {
        const item = fieldOf(event, "item");
        const itemId = stringOf(item, "id");
        const callId = stringOf(item, "call_id");
        const name = stringOf(item, "name");
        if (fieldOf(item, "type") !== "function_call" || itemId === undefined) break;
        const earlier = calls.get(itemId);
        if (earlier !== undefined || unnamed.has(itemId)) {
          // A second item under an earlier item's id: the pieces that follow could be either's.
          const toolName = name === undefined ? undefined : context.registryName(name);
          const toolCallId = callId !== undefined && ids.take(callId) ? callId : standIn(ids, event, itemId);
          yield failingDelta(context, PROVIDER, toolCallId, toolName, REUSED_ITEM_ID);
          if (earlier !== undefined && !earlier.done) {
            earlier.done = true;
            earlier.text = "";
            yield failingDelta(context, PROVIDER, earlier.toolCallId, undefined, REUSED_ITEM_ID);
          } else if (earlier === undefined) {
            // The earlier item waited, unnamed, to be read whole: which one its end belongs to is unknown.
            const outputIndex = unnamed.get(itemId);
            unnamed.delete(itemId);
            calls.set(itemId, { toolCallId: "", text: "", oversize: false, done: true, cut: undefined });
            yield failingDelta(context, PROVIDER, standIn(ids, { output_index: outputIndex }, itemId), undefined, REUSED_ITEM_ID);
          }
          break;
        }
        // An item announced without what names it is read whole at its `response.output_item.done`.
        if (callId === undefined || name === undefined) {
          unnamed.set(itemId, fieldOf(event, "output_index"));
          break;
        }
        const toolName = context.registryName(name);
        if (!ids.take(callId)) {
          // Kept as done: its pieces and its end are skipped.
          const toolCallId = standIn(ids, event, itemId);
          calls.set(itemId, { toolCallId, text: "", oversize: false, done: true, cut: undefined });
          yield failingDelta(context, PROVIDER, toolCallId, toolName, TAKEN);
          break;
        }
        const text = stringOf(item, "arguments") ?? "";
        const call: ResponsesCall = { toolCallId: callId, text: "", oversize: false, done: false, cut: undefined };
        keepText(call, text, context.maxArgumentBytes);
        calls.set(itemId, call);
        const delta: ToolCallDelta = { toolCallId: callId, toolName };
        if (text !== "") delta.argumentsDelta = text;
        yield namingDelta(context, delta);
        break;
      }
      case "response.function_call_arguments.delta": {
        const call = calls.get(stringOf(event, "item_id") ?? "");
        if (call === undefined || call.done) break;
        const text = fieldOf(event, "delta");
        if (typeof text !== "string") {
          call.done = true;
          yield failingDelta(context, PROVIDER, call.toolCallId, undefined, '"delta" must be a string');
          break;
        }
        if (text === "") break;
        keepText(call, text, context.maxArgumentBytes);
        yield { toolCallId: call.toolCallId, argumentsDelta: text };
        break;
      }
      case "response.function_call_arguments.done": {
        const call = calls.get(stringOf(event, "item_id") ?? "");
        if (call !== undefined && !call.done) yield finish(call, stringOf(event, "arguments"), context);
        break;
      }
      case "response.output_item.done": {
        const item = fieldOf(event, "item");
        if (fieldOf(item, "type") !== "function_call") break;
        const itemId = stringOf(item, "id");
        if (itemId !== undefined) unnamed.delete(itemId);
        const call = itemId === undefined ? undefined : calls.get(itemId);
        if (call !== undefined) {
          if (!call.done) yield finish(call, stringOf(item, "arguments"), context);
          break;
        }
        // A call that was never announced arrives whole.
        const callId = stringOf(item, "call_id");
        const name = stringOf(item, "name");
        const toolName = name === undefined ? undefined : context.registryName(name);
        const taken = callId !== undefined && !ids.take(callId);
        const toolCallId = callId === undefined || taken ? standIn(ids, event, itemId) : callId;
        if (itemId !== undefined) calls.set(itemId, { toolCallId, text: "", oversize: false, done: true, cut: undefined });
        // The words of `call()`, which refuses such an item.
        const problem = callId === undefined ? '"call_id" must be a string' : taken ? TAKEN : toolName === undefined ? '"name" must be a string' : undefined;
        if (problem !== undefined) yield failingDelta(context, PROVIDER, toolCallId, toolName, problem);
        else yield namingDelta(context, { toolCallId, toolName: toolName!, argumentsDelta: stringOf(item, "arguments") ?? "", done: true });
        break;
      }
      default:
    }
  }
  // Calls that an unreadable event may have cut, and whose end never came to confirm their text.
  for (const call of calls.values()) if (call.cut !== undefined && !call.done) yield lost(call, call.cut, context);
  // Calls announced without what names them, whose item never came whole.
  for (const [itemId, outputIndex] of unnamed) {
    yield failingDelta(context, PROVIDER, standIn(ids, { output_index: outputIndex }, itemId), undefined, "its item was announced without \"call_id\" or \"name\", and the stream ended before the item came whole");
  }
}

/**
 * The call's last delta: the rest of its whole text, when the deltas sent only a beginning of it.
 * A whole text that does not begin with what streamed fails the call; a call an unreadable event
 * may have cut runs only when the whole text confirms what streamed.
 */
function finish(call: ResponsesCall, whole: string | undefined, context: DeltaContext): ToolCallDelta {
  call.done = true;
  const streamed = call.text;
  // Not kept once the call is over: a stream's calls together would hold up to maxArgumentBytes each.
  call.text = "";
  // Too large whatever its end says: dispatch refuses it for its size (a piece lost in a cut cannot make it smaller).
  if (call.oversize) return { toolCallId: call.toolCallId, done: true };
  if (call.cut !== undefined && (whole === undefined || !whole.startsWith(streamed))) return lost(call, call.cut, context);
  // What ran would not be what the response records (and the caller puts back into the conversation).
  if (whole !== undefined && !whole.startsWith(streamed)) return failingDelta(context, PROVIDER, call.toolCallId, undefined, "the arguments text its end carries differs from the text its deltas streamed");
  const delta: ToolCallDelta = { toolCallId: call.toolCallId, done: true };
  if (whole !== undefined && whole.length > streamed.length) delta.argumentsDelta = whole.slice(streamed.length);
  return delta;
}

/** Adds a piece to the call's text while the text may still be within `maxBytes` (a UTF-16 unit is at least one UTF-8 byte). */
function keepText(call: ResponsesCall, piece: string, maxBytes: number): void {
  if (call.oversize) return;
  if (call.text.length + piece.length > maxBytes) {
    call.oversize = true;
    call.text = "";
    return;
  }
  call.text += piece;
}

/** The failure of a call a piece of whose arguments may have been lost in an event that could not be read. */
function lost(call: ResponsesCall, problem: string, context: DeltaContext): ToolCallDelta {
  call.done = true;
  call.text = "";
  return failingDelta(context, PROVIDER, call.toolCallId, undefined, `an event of its stream could not be read (${problem}), and a piece of its arguments may be lost there`);
}

/** A stand-in id for an item whose `call_id` is missing or taken, from its place in the output (or its item id). */
function standIn(ids: StreamIds, event: unknown, itemId: string | undefined): string {
  const outputIndex = fieldOf(event, "output_index");
  return ids.standIn(`${STAND_IN_ID_PREFIX}${typeof outputIndex === "number" ? outputIndex : (itemId ?? "unknown")}`);
}
