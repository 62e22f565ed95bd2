import type { ToolArgumentsValidationError } from "../errors.js";
import type { FailureStats } from "../types.js";
import { fingerprintText, fingerprintValue } from "../validation/fingerprint.js";

/** A tool's last refusal, kept on the tool until its arguments next pass. */
export interface LastRefusal {
  /** The fingerprint of the refused arguments (see `validation/fingerprint.ts`). */
  readonly fingerprint: string;
  /** The error's message: the tool's name and every issue line, in one flat string (one comparison, not one per line). */
  readonly message: string;
  readonly repeats: number;
}

/** What a refusal is remembered on: the registry's record of the tool. */
export interface RefusedTool {
  lastRefusal: LastRefusal | undefined;
}

/**
 * Recognises a tool refusing the same arguments for the same reasons twice or more in a row, and
 * counts refusals. It keeps one refusal per tool (the last; a fingerprint of at most about a
 * kilobyte and the error's message, its issues capped at 6,000 characters), so its memory is
 * bounded by the number of tools. Its work runs on the refusal path only: one pass over the
 * arguments' text (or value), and one comparison of two messages.
 */
export class RepeatedFailures {
  #argumentFailures = 0;
  #repeatedFailures = 0;

  /**
   * The error to throw for a refusal of `tool`'s arguments: `error` itself, made for this call and
   * not yet thrown, with its `repeats` counted when the last refusal of this tool had the same
   * fingerprint and the same issues.
   * @param raw the arguments as the call held them: JSON text, or an object
   * @param value the private value that was checked, when one was made
   * @param maxTextLength the longest text that is parsed (the registry's `maxArgumentBytes`)
   */
  refused(tool: RefusedTool, raw: unknown, value: object | undefined, maxTextLength: number, error: ToolArgumentsValidationError): ToolArgumentsValidationError {
    this.#argumentFailures++;
    const fingerprint = typeof raw === "string" ? fingerprintText(raw, maxTextLength) : value === undefined ? "" : fingerprintValue(value);
    const last = tool.lastRefusal;
    const repeats = last !== undefined && last.fingerprint === fingerprint && last.message === error.message ? last.repeats + 1 : 0;
    tool.lastRefusal = { fingerprint, message: error.message, repeats };
    if (repeats === 0) return error;
    this.#repeatedFailures++;
    // The error was made for this call and nobody holds it yet: counting on it costs nothing more.
    (error as { repeats: number }).repeats = repeats;
    return error;
  }

  /** `{ argumentFailures, repeatedFailures }`. */
  stats(): FailureStats {
    return { argumentFailures: this.#argumentFailures, repeatedFailures: this.#repeatedFailures };
  }
}
