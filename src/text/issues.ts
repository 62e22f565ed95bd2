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
  tooManyValues: "/: arguments share objects too widely: counting each object each time it appears, they hold over 16777216 values more than they have",
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
  return withinBounds(distinctLines(issues));
}

/**
 * The issues' lines, each once. An explanation gives at most MAX_ISSUES + 1 issues, most with
 * pointers shown as they are: for those, a look back along the issues (pointer and message, no
 * allocation) finds a repeat sooner than a Set is made, and sooner than a look along the lines,
 * which V8 keeps as unflattened pairs of strings. A pointer shown otherwise (the root, escaped,
 * cut) may show as another one does, and a longer list is best looked through with a Set: both
 * compare whole lines.
 */
function distinctLines(issues: readonly Issue[]): string[] {
  const lines: string[] = [];
  for (let index = 0; index < issues.length; index++) {
    const { pointer, message } = issues[index]!;
    const shown = displayPointer(pointer);
    if (shown !== pointer || index > MAX_ISSUES) return distinctLinesBySet(issues);
    if (!repeatsAnEarlierIssue(issues, index)) lines.push(`${shown}: ${message}`);
  }
  return lines;
}

function distinctLinesBySet(issues: readonly Issue[]): string[] {
  const seen = new Set<string>();
  for (const issue of issues) seen.add(`${displayPointer(issue.pointer)}: ${issue.message}`);
  return [...seen];
}

/** Whether an issue before `issues[index]` has its pointer and its message. */
function repeatsAnEarlierIssue(issues: readonly Issue[], index: number): boolean {
  const { pointer, message } = issues[index]!;
  for (let earlier = 0; earlier < index; earlier++) if (issues[earlier]!.pointer === pointer && issues[earlier]!.message === message) return true;
  return false;
}

/** The lines within MAX_ISSUES and MAX_ISSUES_CHARACTERS, with a last line saying that more were left out. */
function withinBounds(lines: readonly string[]): string[] {
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
