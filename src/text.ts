// Registered names are at most 128 characters and are shown whole; only longer (unknown) names are cut.
const MAX_NAME_CHARACTERS = 128;
const MAX_DETAIL_CHARACTERS = 1000;

/**
 * Quotes a tool name for a message: JSON string escaping (so control characters
 * and quotes cannot break the message's lines) and a bounded length.
 */
export function describeName(name: string): string {
  const shown = name.length > MAX_NAME_CHARACTERS ? `${name.slice(0, MAX_NAME_CHARACTERS)}…` : name;
  return JSON.stringify(shown);
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
  return detail.length > MAX_DETAIL_CHARACTERS ? `${detail.slice(0, MAX_DETAIL_CHARACTERS)}…` : detail;
}
