import type { ToolCallContent } from "../types.js";

/** A call's arguments that could not be read (a throwing getter, a revoked proxy). */
export const UNREADABLE: unique symbol = Symbol("unreadable arguments");

/** The fields of one tool call, each read once. */
export interface CallFields {
  /** The name, if it is a string. */
  readonly name: string | undefined;
  /** The name as text for messages: `""` when there is none. */
  readonly shownName: string;
  /** The id as text: a string as is, a finite number (some clients number their calls) as its digits, else `""`. */
  readonly id: string;
  /** The arguments as they are, or {@link UNREADABLE}. */
  readonly arguments: unknown;
}

/**
 * Reads a call's `name`, `id` and `arguments`, each once and in that order, so that a getter runs
 * once and a call that changes between reads cannot be checked as one thing and run as another.
 * Never throws: a field that cannot be read is missing.
 */
export function readCall(call: ToolCallContent): CallFields {
  const record = call as unknown as Record<string, unknown> | null | undefined;
  // Each read in its own `try`, written out: a helper taking the field's name made each a keyed
  // look-up by a name known only at run time, about a tenth of a small dispatch.
  let name: unknown;
  let id: unknown;
  let args: unknown;
  try {
    name = record?.name;
  } catch {
    name = undefined;
  }
  try {
    id = record?.id;
  } catch {
    id = undefined;
  }
  try {
    args = record?.arguments;
  } catch {
    args = UNREADABLE;
  }
  return {
    name: typeof name === "string" ? name : undefined,
    shownName: typeof name === "string" ? name : name === undefined || name === null ? "" : safeText(name),
    id: typeof id === "string" ? id : typeof id === "number" && Number.isFinite(id) ? String(id) : "",
    arguments: args,
  };
}

function safeText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "";
  }
}
