/** `text` cut to `max` characters, with an ellipsis when cut (never splitting a surrogate pair). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

// Registered names are at most 128 characters and are shown whole; only longer (unknown) names are cut.
const MAX_NAME_CHARACTERS = 128;
const MAX_DETAIL_CHARACTERS = 1000;

/** The name {@link describeName} quoted last, and its quoted form: a registry's messages name the same few tools again and again. */
let lastName = "";
let lastDescribed = '""';

/**
 * Quotes a tool name for a message: JSON string escaping (so control characters
 * and quotes cannot break the message's lines) and a bounded length.
 */
export function describeName(name: string): string {
  if (name === lastName) return lastDescribed;
  const described = JSON.stringify(cut(name, MAX_NAME_CHARACTERS));
  // Only a name that could be registered is kept: a long unknown one is not held on to.
  if (name.length <= MAX_NAME_CHARACTERS) {
    lastName = name;
    lastDescribed = described;
  }
  return described;
}

/** Names the kind of a value without showing it: `string`, `array`, `null`, `Date`. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value !== "object") return typeof value;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === null || prototype === Object.prototype) return "object";
    const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? name : "object";
  } catch {
    return "object";
  }
}

/**
 * A bounded, never-throwing text for whatever a handler threw: an Error's
 * message, a string as is, and only the type of anything else.
 */
export function describeThrown(thrown: unknown): string {
  let detail: string;
  try {
    if (thrown instanceof Error) detail = String(thrown.message);
    else if (typeof thrown === "string") detail = thrown;
    else detail = `threw a non-Error value (${describeType(thrown)})`;
  } catch {
    detail = "threw an unreadable error";
  }
  return cut(detail, MAX_DETAIL_CHARACTERS);
}
