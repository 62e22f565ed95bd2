import { ProviderFormatError } from "../errors.js";
import type { ToolCallDelta } from "../../types.js";
import { type DeltaContext, fieldOf, generatedId, namingDelta, stringOf } from "./context.js";
import { type GeminiPartialArg, PartialArgsWriter } from "./gemini-partial-args.js";

/** What the reader needs of a `generateContentStream` chunk (the `@google/genai` SDK's `GenerateContentResponse`). */
export interface GeminiStreamChunk {
  candidates?: ReadonlyArray<{ content?: { parts?: ReadonlyArray<unknown> } }>;
}

/** A call whose arguments stream as `partialArgs`. */
interface StreamedCall {
  readonly toolCallId: string;
  readonly writer: PartialArgsWriter;
  /** An entry could not be written: the call has failed, and its further parts are skipped. */
  broken: boolean;
}

/**
 * The function calls of a Gemini stream (the first candidate's), as deltas. A `functionCall`
 * part without `willContinue` or `partialArgs` is a whole call (Gemini 2, and Gemini 3 without
 * argument streaming). Gemini 3's streamed call starts with a part naming it with
 * `willContinue: true`; its arguments come as `partialArgs` entries addressed by JSON path,
 * written here as JSON text; the first part without `willContinue` ends it, whether or not it is
 * the empty terminal part (which a stream may leave out). A call still to continue when the
 * stream ends, or when the next call is named, was cut short: its text is left unfinished, so
 * that it fails as arguments that are not JSON, and never runs on a truncated value. Gemini may
 * leave ids out: one is made, starting with `prefix`, which the adapter's `result()` leaves out again.
 */
export async function* geminiDeltas<TChunk extends GeminiStreamChunk>(
  stream: AsyncIterable<TChunk>,
  context: DeltaContext,
  onEvent: ((chunk: TChunk) => void) | undefined,
  prefix: string,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  let open: StreamedCall | undefined;
  for await (const chunk of stream) {
    onEvent?.(chunk);
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      const call = fieldOf(part, "functionCall");
      if (typeof call !== "object" || call === null) continue;
      const name = stringOf(call, "name");
      const partialArgs = fieldOf(call, "partialArgs");
      const continues = fieldOf(call, "willContinue") === true;
      if (name !== undefined && name !== "") {
        // A named part starts a call: one still open was cut short.
        if (open !== undefined) yield cut(open);
        open = undefined;
        const id = stringOf(call, "id");
        const toolCallId = id === undefined || id === "" ? generatedId(prefix) : id;
        const toolName = context.registryName(name);
        if (!continues && partialArgs === undefined) {
          yield namingDelta(context, { toolCallId, toolName, argumentsDelta: jsonText(fieldOf(call, "args") ?? {}), done: true });
          continue;
        }
        open = { toolCallId, writer: new PartialArgsWriter(), broken: false };
        yield namingDelta(context, { toolCallId, toolName, argumentsDelta: open.writer.start() });
      } else if (open === undefined) {
        continue;
      }
      if (Array.isArray(partialArgs) && !open.broken) {
        for (const entry of partialArgs as unknown[]) {
          const written = open.writer.write((typeof entry === "object" && entry !== null ? entry : {}) as GeminiPartialArg);
          if ("problem" in written) {
            open.broken = true;
            yield { toolCallId: open.toolCallId, error: new ProviderFormatError("Gemini", written.problem) };
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
