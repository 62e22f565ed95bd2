import { ProviderFormatError } from "../errors.js";
import type { ToolCallDelta } from "../../types.js";
import { chunkField, type DeltaContext, failingDelta, fieldOf, generatedId, namingDelta, problemOf, StreamIds, UnreadableChunk } from "./context.js";
import { type GeminiPartialArg, PartialArgsWriter } from "./gemini-partial-args.js";

/** What the reader needs of a `generateContentStream` chunk (the `@google/genai` SDK's `GenerateContentResponse`). */
export interface GeminiStreamChunk {
  candidates?: ReadonlyArray<{ content?: { parts?: ReadonlyArray<unknown> } }>;
}

const PROVIDER = "Gemini";

/** A call whose arguments stream as `partialArgs`. */
interface StreamedCall {
  readonly toolCallId: string;
  readonly writer: PartialArgsWriter;
  /** An entry could not be written: the call has failed, and its further parts are skipped. */
  broken: boolean;
}

/** One `functionCall` part, its fields read. */
interface GeminiCallPart {
  /** The tool's name: a part that names one starts a call, one that names none continues the open call. */
  readonly name: string | undefined;
  readonly id: string | undefined;
  readonly args: unknown;
  /** Its `partialArgs` entries, each copied field by field. */
  readonly partialArgs: readonly GeminiPartialArg[] | undefined;
  readonly continues: boolean;
  /** Set when a field is not what Gemini sends: the call the part starts or continues fails. */
  readonly problem: string | undefined;
}

/**
 * The function calls of a Gemini stream (the first candidate's), as deltas. A `functionCall`
 * part without `willContinue` or `partialArgs` entries is a whole call, whose `args` are its arguments (Gemini 2, and Gemini 3 without
 * argument streaming). Gemini 3's streamed call starts with a part naming it with
 * `willContinue: true`; its arguments come as `partialArgs` entries addressed by JSON path,
 * written here as JSON text; the first part without `willContinue` ends it, whether or not it is
 * the empty terminal part (which a stream may leave out). A call still to continue when the
 * stream ends, or when the next call is named, was cut short: its text is left unfinished, so
 * that it fails as arguments that are not JSON, and never runs on a truncated value. Gemini may
 * leave ids out: one is made, starting with `prefix`, which the adapter's `result()` leaves out again.
 *
 * Every call the stream names gets its result, whatever the chunks hold. A call with the id of an
 * earlier call, or with a field Gemini never sends so (an `id` that is not a string,
 * `partialArgs` that are not a list, `args` that hold arguments in a part of a call whose arguments
 * stream), fails with a `ProviderFormatError`, under a made id (its
 * result could not be told apart from the first's). A chunk or a part that cannot be read (a
 * `null` chunk, `candidates` or `parts` that are not lists, a part that is not an object) is
 * reported, never thrown, and reading goes on: the call still open, if any, may have lost a part
 * there, and fails with a `ProviderFormatError`; calls that ended before, and calls that start
 * after, are untouched.
 * @param onNamed told of each call a part names: its id, its tool, and the name the model wrote
 */
export async function* geminiDeltas<TChunk extends GeminiStreamChunk>(
  stream: AsyncIterable<TChunk>,
  context: DeltaContext,
  onEvent: ((chunk: TChunk) => void) | undefined,
  prefix: string,
  onNamed?: (toolCallId: string, toolName: string, modelName: string) => void,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  let open: StreamedCall | undefined;
  const ids = new StreamIds();
  for await (const chunk of stream) {
    onEvent?.(chunk);
    let parts: readonly unknown[];
    let count: number;
    try {
      parts = partsOf(chunk);
      count = parts.length;
    } catch (thrown) {
      if (open !== undefined) yield lost(context, open, problemOf(thrown));
      open = undefined;
      continue;
    }
    for (let index = 0; index < count; index++) {
      let read: GeminiCallPart | undefined;
      try {
        // Read here, not by an iterator: a part that throws as it is read (a getter, a proxy) is one part lost.
        read = readPart(parts[index]);
      } catch (thrown) {
        if (open !== undefined) yield lost(context, open, problemOf(thrown));
        open = undefined;
        continue;
      }
      if (read === undefined) continue;
      const { name, partialArgs, continues } = read;
      if (name !== undefined && name !== "") {
        // A named part starts a call: one still open was cut short.
        if (open !== undefined) yield cut(open);
        open = undefined;
        const taken = read.id !== undefined && read.id !== "" && !ids.take(read.id);
        const toolCallId = read.id === undefined || read.id === "" || taken ? generatedId(prefix) : read.id;
        const toolName = context.registryName(name);
        onNamed?.(toolCallId, toolName, name);
        const problem = read.problem ?? (taken ? 'its "id" is the id of an earlier function call of the stream' : undefined);
        if (problem !== undefined) {
          // Its further parts, which name no tool, are skipped: no call is open.
          yield failingDelta(context, PROVIDER, toolCallId, toolName, problem);
          continue;
        }
        if (!continues && (partialArgs === undefined || partialArgs.length === 0)) {
          yield namingDelta(context, { toolCallId, toolName, argumentsDelta: jsonText(read.args ?? {}), done: true });
          continue;
        }
        open = { toolCallId, writer: new PartialArgsWriter(), broken: false };
        yield namingDelta(context, { toolCallId, toolName, argumentsDelta: open.writer.start() });
      } else if (open === undefined) {
        continue;
      } else if (read.problem !== undefined && !open.broken) {
        open.broken = true;
        yield failingDelta(context, PROVIDER, open.toolCallId, undefined, read.problem);
      }
      if (partialArgs !== undefined && !open.broken) {
        for (const entry of partialArgs) {
          const written = open.writer.write(entry);
          if ("problem" in written) {
            open.broken = true;
            yield { toolCallId: open.toolCallId, error: new ProviderFormatError(PROVIDER, written.problem) };
            break;
          }
          if (written.text !== "") yield { toolCallId: open.toolCallId, argumentsDelta: written.text };
        }
      }
      if (!continues) {
        yield end(open);
        open = undefined;
      }
    }
  }
  // The stream ended while the call was to continue: it was cut short.
  if (open !== undefined) yield cut(open);
}

/**
 * The parts of the first candidate's content in a chunk.
 * @throws UnreadableChunk when the chunk, its candidates, or the first one's content or parts are not what Gemini sends
 */
function partsOf(chunk: unknown): readonly unknown[] {
  const candidates = chunkField(chunk, "candidates", "the chunk");
  if (candidates === undefined || candidates === null) return [];
  if (!Array.isArray(candidates)) throw new UnreadableChunk('its "candidates" is not a list');
  // Other candidates are other answers, not more calls.
  if (candidates.length === 0) return [];
  const content = chunkField(candidates[0], "content", "its first candidate");
  if (content === undefined || content === null) return [];
  const parts = chunkField(content, "parts", "its first candidate's content");
  if (parts === undefined || parts === null) return [];
  if (!Array.isArray(parts)) throw new UnreadableChunk('its "candidates[0].content.parts" is not a list');
  return parts as unknown[];
}

/**
 * One part's call, or `undefined` for a part that holds none (text, a thought).
 * @throws UnreadableChunk when the part, or its `functionCall`, is not an object, or its name is not a
 * string: whether it starts a call or continues the open one is unknown
 */
function readPart(part: unknown): GeminiCallPart | undefined {
  const call = chunkField(part, "functionCall", "a part");
  if (call === undefined || call === null) return undefined;
  const name = chunkField(call, "name", "a part's functionCall");
  if (name !== undefined && name !== null && typeof name !== "string") throw new UnreadableChunk('a functionCall\'s "name" is not a string');
  const id = chunkField(call, "id", "a functionCall");
  const rawEntries = chunkField(call, "partialArgs", "a functionCall");
  // Every place of the list, a hole too (no JSON has one, a list built in code may), as an entry with no fields.
  const entries = Array.isArray(rawEntries) && rawEntries.length <= MAX_PARTIAL_ARGS ? Array.from(rawEntries as unknown[], entryOf) : undefined;
  const args = chunkField(call, "args", "a functionCall");
  const continues = chunkField(call, "willContinue", "a functionCall") === true;
  // A part that names no tool continues the open call, whose arguments stream: so does a part that will continue or has entries.
  const streams = continues || (entries !== undefined && entries.length > 0) || name === undefined || name === null || name === "";
  return {
    name: name ?? undefined,
    id: typeof id === "string" ? id : undefined,
    args,
    partialArgs: entries,
    continues,
    // The words of `call()` for an id; partialArgs, which `call()` never reads, as their SDK type has them.
    problem:
      id !== undefined && id !== null && typeof id !== "string"
        ? '"id" must be a string'
        : rawEntries !== undefined && rawEntries !== null && entries === undefined
          ? Array.isArray(rawEntries)
            ? `"partialArgs" must hold at most ${MAX_PARTIAL_ARGS} entries`
            : '"partialArgs" must be a list'
          : streams && holdsArguments(args)
            ? // Gemini sends a streamed call's arguments as entries only: these would be neither written nor dropped safely.
              'its "args" hold arguments of a call whose arguments stream as "partialArgs"'
            : undefined,
  };
}

/** The most `partialArgs` entries one part may hold: a list longer than that is read as no list. */
const MAX_PARTIAL_ARGS = 1 << 20;

/** Whether a part's `args` hold anything: absent, `null` and `{}` hold nothing. */
function holdsArguments(args: unknown): boolean {
  if (args === undefined || args === null) return false;
  return typeof args !== "object" || Reflect.ownKeys(args).length > 0;
}

/** A `partialArgs` entry's fields, copied (the writer checks each): what is not an object holds none. */
function entryOf(entry: unknown): GeminiPartialArg {
  return {
    jsonPath: fieldOf(entry, "jsonPath"),
    stringValue: fieldOf(entry, "stringValue"),
    numberValue: fieldOf(entry, "numberValue"),
    boolValue: fieldOf(entry, "boolValue"),
    nullValue: fieldOf(entry, "nullValue"),
    willContinue: fieldOf(entry, "willContinue"),
  } as GeminiPartialArg;
}

/** A call a piece of whose arguments may be lost in a chunk that could not be read. */
function lost(context: DeltaContext, call: StreamedCall, problem: string): ToolCallDelta {
  return call.broken ? { toolCallId: call.toolCallId, done: true } : failingDelta(context, PROVIDER, call.toolCallId, undefined, `a chunk of its stream could not be read (${problem}), and a piece of its arguments may be lost there`);
}

/** A call cut short: done, its text unfinished. */
function cut(call: StreamedCall): ToolCallDelta {
  return { toolCallId: call.toolCallId, done: true };
}

/** A call's last part came: its text is finished. */
function end(call: StreamedCall): ToolCallDelta {
  return call.broken ? { toolCallId: call.toolCallId, done: true } : { toolCallId: call.toolCallId, argumentsDelta: call.writer.end(), done: true };
}

/** The JSON text of the `args` the SDK parsed; `""` (not JSON, so refused as such) if it cannot be written. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
