import { MAX_VALUE_DEPTH } from "../schema/keywords.js";

/**
 * A short key for a call's arguments, so that a refusal can be recognised when the same
 * arguments come again: JSON text as written (kept whole when short, else hashed), an object by
 * value (hashed). Work is linear in the text, or in the value up to a bound of nodes; the key
 * is at most about a kilobyte.
 */

/** Texts up to this many characters are their own fingerprint: no hashing, and no collision. */
const MAX_KEPT_CHARACTERS = 1024;
/** The most characters of a text longer than the arguments limit that are hashed (with its length). */
const MAX_OVERSIZED_CHARACTERS = 65_536;
/** The most nodes of an object value that are hashed; the rest counts as one marker. */
const MAX_HASHED_NODES = 1 << 20;

/**
 * The fingerprint of arguments sent as JSON text. Text within `maxTextLength` (what is parsed) is
 * hashed whole; longer text, refused for its size, by its length and its first characters.
 */
export function fingerprintText(text: string, maxTextLength: number): string {
  if (text.length <= MAX_KEPT_CHARACTERS) return `t${text}`;
  const hasher = new Hasher();
  hasher.number(text.length);
  hasher.text(text, Math.min(text.length, text.length > maxTextLength ? MAX_OVERSIZED_CHARACTERS : text.length));
  return `h${hasher.digest()}`;
}

/** The fingerprint of an arguments object (a private copy): its JSON types, keys and values, in order. */
export function fingerprintValue(value: unknown): string {
  const hasher = new Hasher();
  hashValue(hasher, value, 0, { left: MAX_HASHED_NODES });
  return `v${hasher.digest()}`;
}

function hashValue(hasher: Hasher, value: unknown, depth: number, nodes: { left: number }): void {
  if (--nodes.left < 0) return;
  switch (typeof value) {
    case "string":
      hasher.tag(1);
      hasher.number(value.length);
      hasher.text(value, value.length);
      return;
    case "number":
      hasher.tag(2);
      hasher.number(value);
      return;
    case "boolean":
      hasher.tag(value ? 3 : 4);
      return;
    case "bigint":
      hasher.tag(5);
      hasher.text(String(value), Infinity);
      return;
    case "object":
      break;
    default:
      hasher.tag(6);
      return;
  }
  if (value === null) return hasher.tag(7);
  // Deeper data counts as one marker: the walk is bounded in depth as in nodes.
  if (depth >= MAX_VALUE_DEPTH) return hasher.tag(8);
  if (Array.isArray(value)) {
    hasher.tag(9);
    hasher.number(value.length);
    for (const item of value) hashValue(hasher, item, depth + 1, nodes);
    return;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    // A structured-clone copy of something that is not plain data (a Date, a Map): its kind only.
    hasher.tag(10);
    hasher.text(Object.prototype.toString.call(value), Infinity);
    return;
  }
  const keys = Object.keys(value);
  hasher.tag(11);
  hasher.number(keys.length);
  for (const key of keys) {
    hasher.number(key.length);
    hasher.text(key, key.length);
    hashValue(hasher, (value as Record<string, unknown>)[key], depth + 1, nodes);
  }
}

/** A 53-bit hash of a stream of tokens (cyrb53's mixing: two 32-bit lanes, finalised together). */
class Hasher {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;
  readonly #float = new Float64Array(1);
  readonly #words = new Uint32Array(this.#float.buffer);

  tag(code: number): void {
    this.#mix(code);
  }

  number(value: number): void {
    this.#float[0] = value;
    this.#mix(this.#words[0]!);
    this.#mix(this.#words[1]!);
  }

  /** The first `length` characters of `text` (or all of them). */
  text(text: string, length: number): void {
    const end = Math.min(length, text.length);
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let index = 0; index < end; index++) {
      const unit = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ unit, 2654435761);
      h2 = Math.imul(h2 ^ unit, 1597334677);
    }
    this.#h1 = h1;
    this.#h2 = h2;
  }

  digest(): number {
    let h1 = this.#h1;
    let h2 = this.#h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }

  #mix(word: number): void {
    this.#h1 = Math.imul(this.#h1 ^ word, 2654435761);
    this.#h2 = Math.imul(this.#h2 ^ word, 1597334677);
  }
}
