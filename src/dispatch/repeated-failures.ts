import type { FailureStats } from "../types.js";
import { textHash, valueHash } from "../validation/argument-hash.js";

/**
 * The fingerprint of refused arguments: a number, the hash of the checked value (or of a text that
 * could not be parsed and is not kept), or such a text kept as it is (compared with one native
 * comparison); `undefined` for arguments that are neither text nor a value that could be copied (a
 * call's own `null`, an array, a class instance, a proxy that throws), which nothing tells apart
 * without reading them again: such a refusal is never a repeat.
 */
type Fingerprint = string | number | undefined;

/** A tool's last refusal, kept on the tool until its arguments next pass. */
export interface LastRefusal {
  readonly fingerprint: Fingerprint;
  /** Its issue lines. */
  readonly issues: readonly string[];
  readonly repeats: number;
}

/** What a refusal is remembered on: the registry's record of the tool. */
export interface RefusedTool {
  lastRefusal: LastRefusal | undefined;
}

/** JSON texts this short are always kept whole: at most this many characters per tool. */
const ALWAYS_KEPT_CHARACTERS = 1024;
/** The most characters of longer refused texts one registry keeps, all tools together; past it, texts are hashed. */
const MAX_KEPT_CHARACTERS = 1 << 20;

/**
 * Recognises a tool refusing the same arguments for the same reasons twice or more in a row, and
 * counts refusals. It keeps one refusal per tool (the last), with a fingerprint of its arguments:
 * a hash of the value that was checked (an object, or the parse of JSON text, so that the same
 * value sent as an object or as text, spaced or written another way, is the same); for text that
 * could not be parsed, the text as it is (up to 1,024 characters for every tool, and longer texts
 * while all kept texts together stay within 2^20 characters), else a hash of its length and a
 * 3 KiB sample of it. Its work runs on the refusal path only: one pass over the value (or at most
 * one comparison of two texts, or one bounded hash), and, unless the same text was kept whole, one
 * comparison of two lists of issues.
 */
export class RepeatedFailures {
  #argumentFailures = 0;
  #repeatedFailures = 0;
  /** Characters of refused texts kept now, all tools together. */
  #keptCharacters = 0;

  /**
   * Records a refusal of `tool`'s arguments for `issues`, and says how many refusals of this tool
   * in a row before it had the same fingerprint and the same issues (0 for a new failure).
   * @param raw the arguments as the call held them: JSON text, or an object
   * @param value the private value that was checked, when one was made
   */
  refused(tool: RefusedTool, raw: unknown, value: object | undefined, issues: readonly string[]): number {
    this.#argumentFailures++;
    const last = tool.lastRefusal;
    const released = last === undefined ? 0 : keptLength(last.fingerprint);
    let fingerprint: Fingerprint;
    if (value !== undefined) {
      // The value as far as it was checked, however it was sent: an object, or JSON text spaced or
      // written another way (`2.50` is `2.5`).
      fingerprint = valueHash(value);
    } else if (typeof raw === "string") {
      const room = MAX_KEPT_CHARACTERS - (this.#keptCharacters - released);
      fingerprint = raw.length <= ALWAYS_KEPT_CHARACTERS || raw.length <= room ? raw : textHash(raw);
    } else {
      fingerprint = undefined;
    }
    // The same text, kept whole on both sides, is the same arguments and so the same issues (the
    // tool's schema never changes): no need to compare them. A hash (a value's, or a sample of a
    // long text) can collide: its issues must match too.
    const exact = typeof fingerprint === "string" && typeof last?.fingerprint === "string";
    const repeats = last !== undefined && sameFingerprint(last.fingerprint, fingerprint) && (exact || sameIssues(last.issues, issues)) ? last.repeats + 1 : 0;
    this.#keptCharacters += keptLength(fingerprint) - released;
    tool.lastRefusal = { fingerprint, issues, repeats };
    if (repeats > 0) this.#repeatedFailures++;
    return repeats;
  }

  /** Forgets the tool's last refusal: its arguments passed, or it was unregistered. */
  forget(tool: RefusedTool): void {
    const last = tool.lastRefusal;
    if (last === undefined) return;
    this.#keptCharacters -= keptLength(last.fingerprint);
    tool.lastRefusal = undefined;
  }

  /** `{ argumentFailures, repeatedFailures }`. */
  stats(): FailureStats {
    return { argumentFailures: this.#argumentFailures, repeatedFailures: this.#repeatedFailures };
  }
}

/** Long kept texts count against the registry's bound; short ones are bounded per tool. */
function keptLength(fingerprint: Fingerprint): number {
  return typeof fingerprint === "string" && fingerprint.length > ALWAYS_KEPT_CHARACTERS ? fingerprint.length : 0;
}

/** Two fingerprints of the same arguments: equal texts, equal hashes, or a kept text whose hash is the other's; never arguments that had none. */
function sameFingerprint(left: Fingerprint, right: Fingerprint): boolean {
  if (left === undefined || right === undefined) return false;
  if (typeof left === typeof right) return left === right;
  return typeof left === "string" ? textHash(left) === right : textHash(right as string) === left;
}

function sameIssues(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
