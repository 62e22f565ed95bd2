import { ToolArgumentsValidationError } from "../errors.js";
import type { FailureStats } from "../types.js";
import { fingerprintText, fingerprintValue } from "../validation/fingerprint.js";

/** A tool's last refusal, kept on the tool until its arguments next pass. */
export interface LastRefusal {
  /** The fingerprint of the refused arguments (see `validation/fingerprint.ts`). */
  readonly fingerprint: string;
  readonly issues: readonly string[];
  readonly repeats: number;
}

/** What a refusal is remembered on: the registry's record of the tool. */
export interface RefusedTool {
  lastRefusal: LastRefusal | undefined;
}

/**
 * Recognises a tool refusing the same arguments for the same reasons twice or more in a row, and
 * counts refusals. It keeps one refusal per tool (the last; a fingerprint of at most about a
 * kilobyte and the issue lines, themselves capped), so its memory is bounded by the number of
 * tools. Its work runs on the refusal path only: one pass over the arguments' text (or value).
 */
export class RepeatedFailures {
  #argumentFailures = 0;
  #repeatedFailures = 0;

  /**
   * The error to throw for a refusal of `tool`'s arguments: `error` itself for a new failure, or
   * the same error counting its `repeats` when the last refusal of this tool had the same
   * fingerprint and the same issues.
   * @param raw the arguments as the call held them: JSON text, or an object
   * @param value the private value that was checked, when one was made
   * @param maxTextLength the longest text that is parsed (the registry's `maxArgumentBytes`)
   */
  refused(tool: RefusedTool, raw: unknown, value: object | undefined, maxTextLength: number, error: ToolArgumentsValidationError): ToolArgumentsValidationError {
    this.#argumentFailures++;
    const fingerprint = typeof raw === "string" ? fingerprintText(raw, maxTextLength) : value === undefined ? "" : fingerprintValue(value);
    const last = tool.lastRefusal;
    const repeats = last !== undefined && last.fingerprint === fingerprint && sameIssues(last.issues, error.issues) ? last.repeats + 1 : 0;
    tool.lastRefusal = { fingerprint, issues: error.issues, repeats };
    if (repeats === 0) return error;
    this.#repeatedFailures++;
    return new ToolArgumentsValidationError(error.toolName, error.issues, repeats);
  }

  /** `{ argumentFailures, repeatedFailures }`. */
  stats(): FailureStats {
    return { argumentFailures: this.#argumentFailures, repeatedFailures: this.#repeatedFailures };
  }
}

function sameIssues(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
