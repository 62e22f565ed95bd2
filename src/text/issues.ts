import { displayPointer, escapeSegment } from "../schema/pointer.js";

/** One reason a value fails its schema: where (a raw JSON Pointer into the arguments) and what is expected there. */
export interface Issue {
  readonly pointer: string;
  readonly message: string;
}

/** The most issues one error lists; the rest are summed up in a last line. */
export const MAX_ISSUES = 20;
/** The most characters all the issues of one error take together; the rest are summed up in a last line. */
export const MAX_ISSUES_CHARACTERS = 6_000;

/** Issue texts for failures found before the schema is consulted. */
export const ROOT_ISSUES = {
  notPlainObject: "/: arguments must be a plain object",
  notCloneable: "/: arguments must contain only structured-clone-compatible values",
  notJson: "/: arguments must be valid JSON",
  tooDeep: "/: arguments are nested too deeply",
  unchecked: "/: arguments could not be checked against the schema",
  mismatch: "/: arguments do not match the schema",
} as const;

/** Escapes one JSON Pointer segment: `~` as `~0`, `/` as `~1` (RFC 6901). */
export const escapePointerSegment = escapeSegment;

/**
 * Issues as the `<JSON Pointer>: <message>` lines of an error: each pointer shown safely
 * (control characters escaped, overlong segments cut), duplicates dropped, and the list kept
 * within {@link MAX_ISSUES} lines and {@link MAX_ISSUES_CHARACTERS}, with a last line saying that
 * more were left out. (Explain with `MAX_ISSUES + 1` to learn whether there are more.)
 */
export function issueLines(issues: readonly Issue[]): string[] {
  const lines: string[] = [];
  // An explanation gives at most MAX_ISSUES + 1 issues: a look along the shown pointers and
  // messages finds a duplicate sooner than a Set is made (and sooner than a look along the lines,
  // which V8 keeps as unflattened pairs of strings). A longer list (none is, today) takes the Set.
  const seen = issues.length > MAX_ISSUES + 1 ? new Set<string>() : undefined;
  const shown: Issue[] = [];
  for (const issue of issues) {
    const pointer = displayPointer(issue.pointer);
    const line = `${pointer}: ${issue.message}`;
    if (seen === undefined) {
      if (shownBefore(shown, pointer, issue.message)) continue;
      shown.push({ pointer, message: issue.message });
    } else {
      if (seen.has(line)) continue;
      seen.add(line);
    }
    lines.push(line);
  }
  const kept: string[] = [];
  let characters = 0;
  for (const line of lines) {
    if (kept.length === MAX_ISSUES - 1 && lines.length > MAX_ISSUES) break;
    if (characters + line.length > MAX_ISSUES_CHARACTERS) break;
    kept.push(line);
    characters += line.length;
  }
  if (kept.length < lines.length) kept.push("/: more issues not shown");
  return kept;
}

/** Whether `shown` already holds an issue with this shown pointer and message. */
function shownBefore(shown: readonly Issue[], pointer: string, message: string): boolean {
  for (let index = 0; index < shown.length; index++) if (shown[index]!.pointer === pointer && shown[index]!.message === message) return true;
  return false;
}
