import { MAX_VALUE_DEPTH } from "../schema/keywords.js";
import { hex, sha256 } from "./web-crypto.js";

/**
 * The canonical JSON text of a value: what `JSON.stringify` writes (so `toJSON` is honoured and
 * `undefined` properties are left out), with every object's keys sorted and no white space. Two
 * values with the same JSON up to key order have the same text; `1` and `1.0` are one number,
 * `-0` is `0`.
 * @throws TypeError for a value with no JSON text (a BigInt, a cycle, nesting deeper than the
 * registry ever accepts in arguments)
 */
export function canonicalValueJson(value: unknown): string {
  const text = write(value, 0, new Set());
  if (text === undefined) throw new TypeError("the value has no JSON text");
  return text;
}

// The checked copy of arguments is at most MAX_VALUE_DEPTH deep; what toJSON returns may add a little.
const MAX_DEPTH = MAX_VALUE_DEPTH * 2;

function write(value: unknown, depth: number, path: Set<object>): string | undefined {
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(key: string): unknown }).toJSON("");
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return JSON.stringify(value); // -0 → "0", non-finite → "null", as JSON has it
    case "bigint":
      throw new TypeError("a BigInt has no JSON text");
    case "object":
      break;
    default:
      return undefined; // undefined, a function, a symbol: left out, as JSON.stringify leaves them
  }
  if (value === null) return "null";
  if (depth > MAX_DEPTH) throw new TypeError("the value nests too deeply");
  if (path.has(value)) throw new TypeError("the value holds a cycle");
  path.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) items.push(write(item, depth + 1, path) ?? "null");
    text = `[${items.join(",")}]`;
  } else {
    const parts: string[] = [];
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) {
      const item = write(record[key], depth + 1, path);
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
    }
    text = `{${parts.join(",")}}`;
  }
  path.delete(value);
  return text;
}

/**
 * The fingerprint of a call: SHA-256 (Web Crypto) of the tool's name and the canonical JSON of
 * its arguments, as 64 hex digits. Key order and JSON-equal spellings do not change it; any other
 * difference does. Pass the *checked private copy* (what the handler would receive), as the
 * registry does, so that the fingerprint identifies what would run.
 * @throws TypeError (as a rejection) for arguments with no JSON text, or a name that is not a string
 * @example
 * ```ts
 * const fingerprint = await callFingerprint("pay", { invoice: "inv_42", amount: 10 });
 * ```
 */
export async function callFingerprint(toolName: string, args: unknown): Promise<string> {
  if (typeof toolName !== "string") throw new TypeError(`toolName must be a string, got ${typeof toolName}`);
  // The name is JSON-quoted, so no name and arguments can spell another pair's text.
  const digest = sha256(`${JSON.stringify(toolName)}\n${canonicalValueJson(args)}`);
  // Web Crypto hashes on worker threads, which finish in any order; fingerprints resolve in the order
  // they were asked for, so that of identical calls made together the first made is the one that runs.
  const inOrder = lastFingerprint.then(() => digest);
  lastFingerprint = inOrder.catch(() => undefined);
  return hex(await inOrder);
}

/** The fingerprint asked for last, settled: the next one resolves after it. */
let lastFingerprint: Promise<unknown> = Promise.resolve();
