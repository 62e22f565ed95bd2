import { MAX_VALUE_DEPTH } from "../schema/keywords.js";

/**
 * Cheap, synchronous hashes of a call's arguments, so that a refusal can be recognised when the
 * same arguments come again (not a call's identity: no cryptographic strength is claimed). JSON
 * text is best compared as it is (one native comparison); where it is not kept, its hash reads its
 * length and a bounded sample of it, so that a text too long to keep costs no more than a short
 * one. An object is hashed by value.
 */

/** The characters of a long text that its hash reads: its first and last 1,024, and 1,024 spread evenly between. */
const SAMPLE_CHARACTERS = 1024;
/** The most nodes of an object value that are hashed; the rest counts as one marker. */
const MAX_HASHED_NODES = 1 << 20;

/** A text's hash: its length and a sample of it (`SAMPLE_CHARACTERS` at each end, and as many spread evenly between). */
export function textHash(text: string): number {
  const hasher = new Hasher(1);
  hasher.number(text.length);
  if (text.length <= 3 * SAMPLE_CHARACTERS) {
    hasher.text(text, 0, text.length, 1);
  } else {
    hasher.text(text, 0, SAMPLE_CHARACTERS, 1);
    const stride = Math.floor((text.length - 2 * SAMPLE_CHARACTERS) / SAMPLE_CHARACTERS);
    hasher.text(text, SAMPLE_CHARACTERS, SAMPLE_CHARACTERS + stride * SAMPLE_CHARACTERS, stride);
    hasher.text(text, text.length - SAMPLE_CHARACTERS, text.length, 1);
  }
  return hasher.digest();
}

/** An object's hash (a private copy of arguments): its JSON types, keys and values, in order, up to 2^20 nodes and the value depth. */
export function valueHash(value: unknown): number {
  const hasher = new Hasher(2);
  hashValue(hasher, value, 0, { left: MAX_HASHED_NODES });
  return hasher.digest();
}

function hashValue(hasher: Hasher, value: unknown, depth: number, nodes: { left: number }): void {
  if (--nodes.left < 0) return;
  switch (typeof value) {
    case "string":
      hasher.tag(1);
      hasher.number(value.length);
      hasher.text(value, 0, value.length, 1);
      return;
    case "number":
      hasher.tag(2);
      hasher.number(value);
      return;
    case "boolean":
      hasher.tag(value ? 3 : 4);
      return;
    case "bigint": {
      const digits = String(value);
      hasher.tag(5);
      hasher.text(digits, 0, digits.length, 1);
      return;
    }
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
    const kind = Object.prototype.toString.call(value);
    hasher.tag(10);
    hasher.text(kind, 0, kind.length, 1);
    return;
  }
  const keys = Object.keys(value);
  hasher.tag(11);
  hasher.number(keys.length);
  for (const key of keys) {
    hasher.number(key.length);
    hasher.text(key, 0, key.length, 1);
    hashValue(hasher, (value as Record<string, unknown>)[key], depth + 1, nodes);
  }
}

/**
 * The bytes of a number as two 32-bit words, shared by every hasher: each reads them back at once,
 * and a pair of typed arrays per hash would cost more than hashing a small value.
 */
const FLOAT = new Float64Array(1);
const FLOAT_WORDS = new Uint32Array(FLOAT.buffer);

/** A 53-bit hash of a stream of tokens (cyrb53's mixing: two 32-bit lanes, finalised together). */
class Hasher {
  #h1: number;
  #h2: number;

  /** @param seed tells kinds of fingerprint apart: a text's hash never equals an object's by construction of its input */
  constructor(seed: number) {
    this.#h1 = 0xdeadbeef ^ seed;
    this.#h2 = 0x41c6ce57 ^ seed;
  }

  tag(code: number): void {
    this.#mix(code);
  }

  number(value: number): void {
    FLOAT[0] = value;
    this.#mix(FLOAT_WORDS[0]!);
    this.#mix(FLOAT_WORDS[1]!);
  }

  /** The characters of `text` from `start` to `end`, every `stride`-th. */
  text(text: string, start: number, end: number, stride: number): void {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let index = start; index < end; index += stride) {
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

/** A hasher kept for the life of the module, so that its layout (and the code built on it) outlives a full garbage collection: see `WALK_LAYOUT_KEEPER`. */
export const HASHER_LAYOUT_KEEPER: object = new Hasher(0);
