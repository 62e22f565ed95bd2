import type { ToolCallDelta } from "../../types.js";
import { type DeltaContext, fieldOf, namingDelta, stringOf } from "./context.js";

/** What the reader needs of a Responses stream event (the `openai` SDK's `ResponseStreamEvent`). */
export interface OpenAIResponsesStreamEvent {
  type: string;
}

/** One `function_call` item of the stream, by its item id. */
interface ResponsesCall {
  readonly toolCallId: string;
  /** The arguments text streamed so far. */
  text: string;
  done: boolean;
}

/**
 * The function calls of a Responses stream, as deltas: `response.output_item.added` names a
 * call (its `call_id` is the id results answer), `response.function_call_arguments.delta`
 * carries its arguments, and `response.function_call_arguments.done` (or the item's
 * `response.output_item.done`) ends it, with the whole text: what the deltas missed of it, if
 * anything, is sent then.
 */
export async function* openAIResponsesDeltas<TEvent extends OpenAIResponsesStreamEvent>(
  stream: AsyncIterable<TEvent>,
  context: DeltaContext,
  onEvent: ((event: TEvent) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<string, ResponsesCall>();
  for await (const event of stream) {
    onEvent?.(event);
    switch (event.type) {
      case "response.output_item.added": {
        const item = fieldOf(event, "item");
        const itemId = stringOf(item, "id");
        const callId = stringOf(item, "call_id");
        const name = stringOf(item, "name");
        if (fieldOf(item, "type") !== "function_call" || itemId === undefined || callId === undefined || name === undefined || calls.has(itemId)) break;
        const text = stringOf(item, "arguments") ?? "";
        calls.set(itemId, { toolCallId: callId, text, done: false });
        const delta: ToolCallDelta = { toolCallId: callId, toolName: context.registryName(name) };
        if (text !== "") delta.argumentsDelta = text;
        yield namingDelta(context, delta);
        break;
      }
      case "response.function_call_arguments.delta": {
        const call = calls.get(stringOf(event, "item_id") ?? "");
        const text = stringOf(event, "delta");
        if (call === undefined || call.done || text === undefined || text === "") break;
        call.text += text;
        yield { toolCallId: call.toolCallId, argumentsDelta: text };
        break;
      }
      case "response.function_call_arguments.done": {
        const call = calls.get(stringOf(event, "item_id") ?? "");
        if (call !== undefined && !call.done) yield finish(call, stringOf(event, "arguments"));
        break;
      }
      case "response.output_item.done": {
        const item = fieldOf(event, "item");
        if (fieldOf(item, "type") !== "function_call") break;
        const itemId = stringOf(item, "id");
        const call = itemId === undefined ? undefined : calls.get(itemId);
        if (call !== undefined) {
          if (!call.done) yield finish(call, stringOf(item, "arguments"));
          break;
        }
        // A call that was never announced arrives whole.
        const callId = stringOf(item, "call_id");
        const name = stringOf(item, "name");
        if (callId === undefined || name === undefined) break;
        if (itemId !== undefined) calls.set(itemId, { toolCallId: callId, text: "", done: true });
        yield namingDelta(context, { toolCallId: callId, toolName: context.registryName(name), argumentsDelta: stringOf(item, "arguments") ?? "", done: true });
        break;
      }
      default:
    }
  }
}

/** The call's last delta: the rest of its whole text, when the deltas sent only a beginning of it. */
function finish(call: ResponsesCall, whole: string | undefined): ToolCallDelta {
  call.done = true;
  const delta: ToolCallDelta = { toolCallId: call.toolCallId, done: true };
  if (whole !== undefined && whole.length > call.text.length && whole.startsWith(call.text)) delta.argumentsDelta = whole.slice(call.text.length);
  return delta;
}
