import { IncrementalJsonParser } from "../../streaming/incremental-json.js";
import type { ToolCallDelta } from "../../types.js";
import { type DeltaContext, fieldOf, generatedId, namingDelta, stringOf } from "./context.js";

/** What the reader needs of a Chat Completions `chat.completion.chunk` (the `openai` SDK's `ChatCompletionChunk`). */
export interface OpenAIChatChunk {
  choices?: ReadonlyArray<{
    index?: number;
    delta?: { tool_calls?: ReadonlyArray<OpenAIChatToolCallDelta> | null } | null;
    finish_reason?: string | null;
  }>;
}

/** One `delta.tool_calls[i]` of a chunk. */
export interface OpenAIChatToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** The prefix of ids made for calls a server streams without one. */
const GENERATED_ID_PREFIX = "openai-generated-";

/** One call of the stream, by its `index`. */
interface ChatCall {
  readonly toolCallId: string;
  named: boolean;
  done: boolean;
  /** Follows the grammar of the arguments text only, to know when it is one complete JSON value. */
  readonly scanner: IncrementalJsonParser;
}

/**
 * The tool calls of a Chat Completions stream (the first choice's), as deltas. Chat Completions
 * sends each call's arguments in pieces by `index` and never says when one call's arguments end:
 * a call is done when its text is one complete JSON value and a piece of another call arrives
 * (models stream their calls one after the other), or when the choice finishes. Calls whose
 * pieces interleave stay open until their text is complete.
 */
export async function* openAIChatDeltas<TChunk extends OpenAIChatChunk>(
  stream: AsyncIterable<TChunk>,
  context: DeltaContext,
  onEvent: ((chunk: TChunk) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<number, ChatCall>();
  let last: ChatCall | undefined;
  for await (const chunk of stream) {
    onEvent?.(chunk);
    for (const choice of chunk.choices ?? []) {
      // Other choices (`n` > 1) are other answers, not more calls.
      if ((choice.index ?? 0) !== 0) continue;
      for (const piece of choice.delta?.tool_calls ?? []) {
        const index = typeof piece.index === "number" ? piece.index : 0;
        let call = calls.get(index);
        if (call !== last && last !== undefined && !last.done && last.scanner.complete) {
          last.done = true;
          yield { toolCallId: last.toolCallId, done: true };
        }
        if (call === undefined) {
          const id = stringOf(piece, "id");
          call = { toolCallId: id === undefined || id === "" ? generatedId(GENERATED_ID_PREFIX) : id, named: false, done: false, scanner: new IncrementalJsonParser(false) };
          calls.set(index, call);
        }
        last = call;
        if (call.done) continue;
        const name = stringOf(fieldOf(piece, "function"), "name");
        const text = stringOf(fieldOf(piece, "function"), "arguments");
        if (text !== undefined && text !== "") call.scanner.write(text);
        const delta: ToolCallDelta = { toolCallId: call.toolCallId };
        if (!call.named && name !== undefined && name !== "") {
          call.named = true;
          delta.toolName = context.registryName(name);
          namingDelta(context, delta);
        }
        if (text !== undefined && text !== "") delta.argumentsDelta = text;
        if (delta.toolName !== undefined || delta.argumentsDelta !== undefined) yield delta;
      }
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
        for (const call of calls.values()) {
          if (call.done) continue;
          call.done = true;
          yield { toolCallId: call.toolCallId, done: true };
        }
      }
    }
  }
}
