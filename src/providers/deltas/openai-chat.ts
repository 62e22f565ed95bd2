import { IncrementalJsonParser } from "../../streaming/incremental-json.js";
import type { ToolCallDelta } from "../../types.js";
import { chunkField, type DeltaContext, failingDelta, generatedId, namingDelta, problemOf, StreamIds, UnreadableChunk } from "./context.js";

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

const PROVIDER = "OpenAI Chat Completions";
/** The prefix of ids made for calls a server streams without one. */
const GENERATED_ID_PREFIX = "openai-generated-";
/** The stand-in id of a call whose id an earlier call of the stream has: this, then its `index`. */
const STAND_IN_ID_PREFIX = "openai-chat-index-";

/** One call of the stream, by its `index`. */
interface ChatCall {
  readonly toolCallId: string;
  /** The id the server sent for it, if any (a generated or stand-in `toolCallId` is not one). */
  readonly sentId: string | undefined;
  /** A name sent at its index once its text was complete: the next call's, if a text follows. */
  nextName: string | undefined;
  /** The name the server sent for it, once it did. */
  sentName: string | undefined;
  named: boolean;
  /** Its arguments ended, or it failed: its further pieces are skipped. */
  done: boolean;
  /** Follows the grammar of the arguments text only, to know when it is one complete JSON value. */
  readonly scanner: IncrementalJsonParser;
}

/** One `delta.tool_calls[i]`, its fields read and checked. */
interface ChatPiece {
  /** The `index` of its call; `undefined` when the piece is not an object or its `index` not a number: its call is unknown. */
  readonly index: number | undefined;
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly text: string | undefined;
  /** Set when a field is not what Chat Completions sends: its call fails (every open call, when its call is unknown). */
  readonly problem: string | undefined;
}

/** What one chunk says of the first choice's calls. */
interface ChatChunk {
  readonly pieces: readonly ChatPiece[];
  /** The choice finished: every call still open ends. */
  readonly finished: boolean;
}

/**
 * The tool calls of a Chat Completions stream (the first choice's), as deltas. Chat Completions
 * sends each call's arguments in pieces by `index` and never says when one call's arguments end:
 * a call is done when its text is one complete JSON value and a piece of another call arrives
 * (models stream their calls one after the other), or when the choice finishes. Calls whose
 * pieces interleave stay open until their text is complete. Some servers (Ollama) send every call
 * of a turn at index 0: a name under another id, or a new text after a complete one that comes with
 * or after a name (or under another id), begins the next call at that index. A call so interrupted
 * before its text is complete fails with a `ProviderFormatError`.
 *
 * Every call the stream names gets its result, whatever the chunks hold. A call sent without an
 * id gets one made here (`openai-generated-…`). A call sent with the id of an earlier call fails
 * with a `ProviderFormatError`, under the stand-in id `openai-chat-index-<index>` (its results
 * could not be told apart from the first's). A chunk that cannot be read (`choices` not an array,
 * a `null` choice or piece, `tool_calls` not an array, a `null` chunk…) is reported, never thrown,
 * and reading goes on: a piece whose call is known fails that call alone; otherwise every call
 * still open may have lost a piece, and fails with a `ProviderFormatError`, except one whose text
 * is already one complete JSON value (nothing but whitespace can follow it), which ends as it is.
 * Calls that ended before, and calls that begin after, are untouched.
 */
export async function* openAIChatDeltas<TChunk extends OpenAIChatChunk>(
  stream: AsyncIterable<TChunk>,
  context: DeltaContext,
  onEvent: ((chunk: TChunk) => void) | undefined,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const calls = new Map<number, ChatCall>();
  const ids = new StreamIds();
  let last: ChatCall | undefined;
  for await (const chunk of stream) {
    onEvent?.(chunk);
    let read: ChatChunk;
    try {
      read = readChunk(chunk);
    } catch (thrown) {
      yield* lostPieces(calls, context, problemOf(thrown));
      continue;
    }
    for (const piece of read.pieces) {
      if (piece.index === undefined) {
        yield* lostPieces(calls, context, piece.problem!);
        continue;
      }
      let call = calls.get(piece.index);
      let carriedName: string | undefined;
      if (call !== undefined) {
        const role = pieceRole(call, piece);
        if (role === "names-next") {
          call.nextName = piece.name;
          continue;
        }
        if (role === "begins-next") {
          // Some servers (Ollama) send every call of a turn at index 0. An open call the next one
          // interrupts has lost the rest of its text.
          carriedName = call.nextName;
          call.nextName = undefined;
          if (!call.done) {
            call.done = true;
            yield call.scanner.complete
              ? { toolCallId: call.toolCallId, done: true }
              : failingDelta(context, PROVIDER, call.toolCallId, undefined, "another tool call began at its index before its arguments were complete");
          }
          call = undefined;
        }
      }
      if (call !== last && last !== undefined && !last.done && last.scanner.complete) {
        last.done = true;
        yield { toolCallId: last.toolCallId, done: true };
      }
      let problem = piece.problem;
      if (call === undefined) {
        const id = piece.id === undefined || piece.id === "" ? generatedId(GENERATED_ID_PREFIX) : piece.id;
        const taken = !ids.take(id);
        if (taken) problem ??= 'its "id" is the id of an earlier tool call of the stream';
        const sentId = piece.id === undefined || piece.id === "" ? undefined : piece.id;
        call = { toolCallId: taken ? ids.standIn(`${STAND_IN_ID_PREFIX}${piece.index}`) : id, sentId, nextName: undefined, sentName: undefined, named: false, done: false, scanner: new IncrementalJsonParser(false) };
        calls.set(piece.index, call);
      }
      last = call;
      if (call.done) continue;
      const sentName = piece.name !== undefined && piece.name !== "" ? piece.name : carriedName;
      const name = !call.named && sentName !== undefined ? context.registryName(sentName) : undefined;
      if (name !== undefined) call.sentName = sentName;
      if (problem !== undefined) {
        call.done = true;
        yield failingDelta(context, PROVIDER, call.toolCallId, name, problem);
        continue;
      }
      const text = piece.text;
      if (text !== undefined && text !== "") call.scanner.write(text);
      const delta: ToolCallDelta = { toolCallId: call.toolCallId };
      if (name !== undefined) {
        call.named = true;
        delta.toolName = name;
        namingDelta(context, delta);
      }
      if (text !== undefined && text !== "") delta.argumentsDelta = text;
      if (delta.toolName !== undefined || delta.argumentsDelta !== undefined) yield delta;
    }
    if (read.finished) {
      for (const call of calls.values()) {
        if (call.done) continue;
        call.done = true;
        yield { toolCallId: call.toolCallId, done: true };
      }
      yield* namedOnly(calls, context);
    }
  }
  yield* namedOnly(calls, context);
}

/**
 * The calls a server named at an index after a complete call there, and then sent no text for
 * (the choice finished, or the stream ended): each is a call of its own, with no arguments, which
 * dispatch reports to the model as it would the same call read whole. A name that repeats the
 * call's own (as vLLM sends it on every piece) names no new call.
 */
function* namedOnly(calls: ReadonlyMap<number, ChatCall>, context: DeltaContext): Generator<ToolCallDelta, void, undefined> {
  for (const call of calls.values()) {
    const name = call.nextName;
    call.nextName = undefined;
    if (name === undefined || name === call.sentName) continue;
    yield namingDelta(context, { toolCallId: generatedId(GENERATED_ID_PREFIX), toolName: context.registryName(name), done: true });
  }
}

/**
 * What a piece at a known call's index is to that call: more of it, the beginning of the next call,
 * or the next call's name (sent before its text). A name under another id begins the next call; so
 * does, once the call's text is complete (only whitespace may follow a complete JSON value), a text
 * that comes with a name or another id or after a name. A server that repeats a call's id or name
 * on each of its pieces (vLLM), or changes its id along the way with no new name, continues it.
 */
function pieceRole(call: ChatCall, piece: ChatPiece): "continues" | "begins-next" | "names-next" {
  const named = piece.name !== undefined && piece.name !== "";
  const otherId = piece.id !== undefined && piece.id !== "" && call.sentId !== undefined && piece.id !== call.sentId;
  if (named && otherId) return "begins-next";
  if (!call.scanner.complete) return "continues";
  const startsText = piece.text !== undefined && piece.text.trim() !== "";
  if (startsText && (named || otherId || call.nextName !== undefined)) return "begins-next";
  return named && call.named ? "names-next" : "continues";
}

/**
 * A chunk, or a piece of one, whose call is unknown could not be read: each call still open may
 * have lost a piece of its text there, and fails, unless its text is one complete JSON value
 * (only whitespace may follow one: nothing that mattered was lost), which ends as it is.
 */
function* lostPieces(calls: ReadonlyMap<number, ChatCall>, context: DeltaContext, problem: string): Generator<ToolCallDelta, void, undefined> {
  for (const call of calls.values()) {
    if (call.done) continue;
    call.done = true;
    yield call.scanner.complete
      ? { toolCallId: call.toolCallId, done: true }
      : failingDelta(context, PROVIDER, call.toolCallId, undefined, `a chunk of its stream could not be read (${problem}), and a piece of its arguments may be lost there`);
  }
}

/**
 * The pieces of the first choice's calls in a chunk, and whether that choice finished.
 * @throws UnreadableChunk when the chunk or a choice is not what Chat Completions sends: which calls it held pieces of is unknown
 */
function readChunk(chunk: unknown): ChatChunk {
  const pieces: ChatPiece[] = [];
  let finished = false;
  const choices = chunkField(chunk, "choices", "the chunk");
  if (choices === undefined || choices === null) return { pieces, finished };
  if (!Array.isArray(choices)) throw new UnreadableChunk('its "choices" is not an array');
  for (const choice of choices as unknown[]) {
    try {
      const index = chunkField(choice, "index", "a choice");
      if (index !== undefined && index !== null && typeof index !== "number") throw new UnreadableChunk('a choice\'s "index" is not a number');
      // Other choices (`n` > 1) are other answers, not more calls.
      if ((index ?? 0) !== 0) continue;
      const delta = chunkField(choice, "delta", "a choice");
      const toolCalls = delta === undefined || delta === null ? undefined : chunkField(delta, "tool_calls", "a choice's delta");
      if (toolCalls !== undefined && toolCalls !== null) {
        if (!Array.isArray(toolCalls)) throw new UnreadableChunk('its "delta.tool_calls" is not an array');
        for (const piece of toolCalls as unknown[]) pieces.push(readPiece(piece));
      }
      const finishReason = chunkField(choice, "finish_reason", "a choice");
      if (finishReason !== undefined && finishReason !== null) finished = true;
    } catch (thrown) {
      // One choice that cannot be read loses nothing the readable ones carry: it is a piece of no known call.
      pieces.push({ index: undefined, id: undefined, name: undefined, text: undefined, problem: problemOf(thrown) });
    }
  }
  return { pieces, finished };
}

/** One piece's fields; never throws: a piece that cannot be read says so in `problem`. */
function readPiece(piece: unknown): ChatPiece {
  let index: number | undefined;
  try {
    const rawIndex = chunkField(piece, "index", "a piece of its tool calls");
    if (rawIndex !== undefined && rawIndex !== null && typeof rawIndex !== "number") throw new UnreadableChunk('a tool call\'s "index" is not a number');
    index = typeof rawIndex === "number" ? rawIndex : 0;
  } catch (thrown) {
    return { index: undefined, id: undefined, name: undefined, text: undefined, problem: problemOf(thrown) };
  }
  // The piece is of call `index` now: a field it gets wrong fails that call only.
  let id: string | undefined;
  try {
    id = optionalString(piece, "id", '"id"');
    const holder = chunkField(piece, "function", "a tool call");
    if (holder === undefined || holder === null) return { index, id, name: undefined, text: undefined, problem: undefined };
    if (typeof holder !== "object") throw new UnreadableChunk('"function" must be an object');
    return { index, id, name: optionalString(holder, "name", '"function.name"'), text: optionalString(holder, "arguments", '"function.arguments"'), problem: undefined };
  } catch (thrown) {
    return { index, id, name: undefined, text: undefined, problem: problemOf(thrown) };
  }
}

/**
 * A field that is a string when present.
 * @throws UnreadableChunk when it is present and not a string
 */
function optionalString(value: unknown, key: string, shown: string): string | undefined {
  const found = chunkField(value, key, "a tool call");
  if (found === undefined || found === null || typeof found === "string") return found ?? undefined;
  throw new UnreadableChunk(`${shown} must be a string`);
}
