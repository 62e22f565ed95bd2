import type { ToolCallDelta } from "../../types.js";
import { type DeltaContext, fieldOf, namingDelta, stringOf } from "./context.js";

/** What the reader needs of a Messages stream event (the `@anthropic-ai/sdk`'s `RawMessageStreamEvent`). */
export interface AnthropicStreamEvent {
  type: string;
}

/** One `tool_use` block of the stream, by its content index. */
interface AnthropicCall {
  readonly toolCallId: string;
  /** The block's `input` at its start, sent when no `input_json_delta` carried any text. */
  readonly input: unknown;
  streamed: boolean;
}

/**
 * The `tool_use` blocks of a Messages stream, as deltas: `content_block_start` names a call,
 * each `input_json_delta` carries a piece of its input, `content_block_stop` ends it. A tool
 * with no arguments streams no text (only an empty `partial_json`): its input is then the
 * block's `input` at its start (`{}`), as the SDK's own accumulation reads it.
 */
export async function* anthropicDeltas<TEvent extends AnthropicStreamEvent>(
  stream: AsyncIterable<TEvent>,
  context: DeltaContext,
  onEvent: ((event: TEvent) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<number, AnthropicCall>();
  for await (const event of stream) {
    onEvent?.(event);
    const index = fieldOf(event, "index");
    if (typeof index !== "number") continue;
    if (event.type === "content_block_start") {
      const block = fieldOf(event, "content_block");
      const id = stringOf(block, "id");
      const name = stringOf(block, "name");
      if (fieldOf(block, "type") !== "tool_use" || id === undefined || name === undefined) continue;
      calls.set(index, { toolCallId: id, input: fieldOf(block, "input"), streamed: false });
      yield namingDelta(context, { toolCallId: id, toolName: context.registryName(name) });
    } else if (event.type === "content_block_delta") {
      const call = calls.get(index);
      const delta = fieldOf(event, "delta");
      const text = stringOf(delta, "partial_json");
      if (call === undefined || fieldOf(delta, "type") !== "input_json_delta" || text === undefined || text === "") continue;
      call.streamed = true;
      yield { toolCallId: call.toolCallId, argumentsDelta: text };
    } else if (event.type === "content_block_stop") {
      const call = calls.get(index);
      if (call === undefined) continue;
      calls.delete(index);
      yield call.streamed ? { toolCallId: call.toolCallId, done: true } : { toolCallId: call.toolCallId, argumentsDelta: jsonText(call.input ?? {}), done: true };
    }
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
