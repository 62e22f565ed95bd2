import { MAX_VALUE_DEPTH } from "../schema/keywords.js";
import { hex, sha256 } from "./web-crypto.js";

/**
 * The canonical JSON text of a value: what `JSON.stringify` writes (so `toJSON` is honoured and
 * `undefined` properties are left out), with every object's keys sorted and no white space. Two
 * values with the same JSON up to key order have the same text; `1` and `1.0` are one number,
 * `-0` is `0`.
 *
 * What a private copy of arguments holds beyond JSON (given as objects, copied as `structuredClone`
 * copies) is written in words JSON never uses, so that it is told apart from the JSON it would
 * become: `NaN`, `Infinity`, `-Infinity`, an `undefined` array item, a `Map` or `Set` with its
 * entries, a `Date` with its time, a typed array with its items. A token approving `{}` never
 * approves a `Map` with entries, nor `[null]` `[undefined]`.
 * @throws TypeError for a value with no JSON text (a BigInt, a cycle, nesting deeper than the
 * registry ever accepts in arguments, an object of another kind: a `RegExp`, an `Error`, a boxed
 * primitive, a buffer)
 */
export function canonicalValueJson(value: unknown): string {
  const text = write(value, 0, new Set());
  if (text === undefined) throw new TypeError("the value has no JSON text");
  return text;
}

// The checked copy of arguments is at most MAX_VALUE_DEPTH deep; what toJSON returns may add a little.
const MAX_DEPTH = MAX_VALUE_DEPTH * 2;

function write(value: unknown, depth: number, path: Set<object>): string | undefined {
  if (typeof value === "object" && value !== null && !isPlainData(value)) return writeOtherObject(value, depth, path);
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(key: string): unknown }).toJSON("");
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      // -0 is "0", as JSON has it; NaN and the infinities, which JSON writes as null, as their names.
      return Number.isFinite(value) ? JSON.stringify(value) : String(value);
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
    // An item JSON writes as null (undefined, a function) as the word for what it is: `[undefined]` is not `[null]`.
    for (const item of value) items.push(write(item, depth + 1, path) ?? (item === undefined ? "undefined" : "null"));
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

/** Whether `value` is an object JSON writes by its own keys: a plain object or an array. */
function isPlainData(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || Array.isArray(value);
}

/**
 * An object that is not plain data, as a private copy may hold it: `Map[…]`, `Set[…]`, `Date(…)`,
 * `Uint8Array[…]` (words JSON never writes, so no JSON value shares the text).
 * @throws TypeError for any other kind of object, which has no canonical text here
 */
function writeOtherObject(value: object, depth: number, path: Set<object>): string {
  if (depth > MAX_DEPTH) throw new TypeError("the value nests too deeply");
  if (path.has(value)) throw new TypeError("the value holds a cycle");
  if (value instanceof Date) return `Date(${String(value.getTime())})`;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return `${value.constructor.name}[${Array.from(value as unknown as ArrayLike<number | bigint>, String).join(",")}]`;
  path.add(value);
  let text: string;
  if (value instanceof Map) {
    const entries: string[] = [];
    for (const [key, item] of value) entries.push(`[${write(key, depth + 1, path) ?? "undefined"},${write(item, depth + 1, path) ?? "undefined"}]`);
    text = `Map[${entries.join(",")}]`;
  } else if (value instanceof Set) {
    const items: string[] = [];
    for (const item of value) items.push(write(item, depth + 1, path) ?? "undefined");
    text = `Set[${items.join(",")}]`;
  } else {
    throw new TypeError(`the value holds an object with no canonical text (${Object.prototype.toString.call(value)})`);
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
