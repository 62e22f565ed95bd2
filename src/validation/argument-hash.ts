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
  start(1);
  mix(text.length);
  if (text.length <= 3 * SAMPLE_CHARACTERS) {
    mixText(text, 0, text.length, 1);
  } else {
    mixText(text, 0, SAMPLE_CHARACTERS, 1);
    const stride = Math.floor((text.length - 2 * SAMPLE_CHARACTERS) / SAMPLE_CHARACTERS);
    mixText(text, SAMPLE_CHARACTERS, SAMPLE_CHARACTERS + stride * SAMPLE_CHARACTERS, stride);
    mixText(text, text.length - SAMPLE_CHARACTERS, text.length, 1);
  }
  return digest();
}

/**
 * An object's hash (a private copy of arguments): its JSON types, keys and values, up to 2^20 nodes
 * and the value depth. An array's items count in order; an object's keys do not (JSON objects are
 * unordered, and `callFingerprint` sorts them too): the same arguments with their keys in another
 * order have the same hash.
 */
export function valueHash(value: unknown): number {
  start(2);
  nodesLeft = MAX_HASHED_NODES;
  hashValue(value, 0);
  return digest();
}

function hashValue(value: unknown, depth: number): void {
  if (--nodesLeft < 0) return;
  switch (typeof value) {
    case "string":
      mix(1);
      mix(value.length);
      mixText(value, 0, value.length, 1);
      return;
    case "number":
      // A 32-bit integer (most numbers in arguments) is its own word; any other number, its 64 bits.
      if ((value | 0) === value) {
        mix(2);
        mix(value);
      } else {
        mix(12);
        mixNumber(value);
      }
      return;
    case "boolean":
      mix(value ? 3 : 4);
      return;
    case "bigint": {
      const digits = String(value);
      mix(5);
      mixText(digits, 0, digits.length, 1);
      return;
    }
    case "object":
      break;
    default:
      mix(6);
      return;
  }
  if (value === null) return mix(7);
  // Deeper data counts as one marker: the walk is bounded in depth as in nodes.
  if (depth >= MAX_VALUE_DEPTH) return mix(8);
  if (Array.isArray(value)) {
    mix(9);
    mix(value.length);
    for (let index = 0; index < value.length; index++) hashValue(value[index], depth + 1);
    return;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    // A structured-clone copy of something that is not plain data (a Date, a Map): its kind, and a date's time.
    const kind = Object.prototype.toString.call(value);
    mix(10);
    mixText(kind, 0, kind.length, 1);
    if (value instanceof Date) mixNumber(value.getTime());
    return;
  }
  const keys = Object.keys(value);
  mix(11);
  mix(keys.length);
  // Each property is hashed on its own and the properties' hashes are added up, which no order of
  // the keys changes; the object's own hash then goes on from where it was.
  const outerLeft = h1;
  const outerRight = h2;
  let sumLeft = 0;
  let sumRight = 0;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    start(13);
    mix(key.length);
    mixText(key, 0, key.length, 1);
    hashValue((value as Record<string, unknown>)[key], depth + 1);
    finish();
    sumLeft = (sumLeft + finishedLeft) | 0;
    sumRight = (sumRight + finishedRight) | 0;
  }
  h1 = outerLeft;
  h2 = outerRight;
  mix(sumLeft);
  mix(sumRight);
}

/*
 * The one hash being computed: a 53-bit hash of a stream of tokens (cyrb53's: two 32-bit lanes,
 * finalised together), each token's step ending with a shift that folds the lane's high bits into
 * its low ones. Without it a product's low bits depend only on lower bits, and small integers of
 * either sign cancel out: `[-3, -1, 3]` and `[-3, 1, -3]` had one hash. Hashing is synchronous and never re-entered, so its state lives in
 * the module: an object per hash, or a pair of typed arrays, would cost more than hashing a small value.
 */
let h1 = 0;
let h2 = 0;
/** Nodes the value's hash may still read. */
let nodesLeft = 0;
/** The bytes of a number as two 32-bit words. */
const FLOAT = new Float64Array(1);
const FLOAT_WORDS = new Uint32Array(FLOAT.buffer);

/** Starts a hash; `seed` tells kinds of fingerprint apart (a text's hash never equals an object's by construction of its input). */
function start(seed: number): void {
  h1 = 0xdeadbeef ^ seed;
  h2 = 0x41c6ce57 ^ seed;
}

function mix(word: number): void {
  h1 = Math.imul(h1 ^ word, 2654435761);
  h1 ^= h1 >>> 15;
  h2 = Math.imul(h2 ^ word, 1597334677);
  h2 ^= h2 >>> 15;
}

function mixNumber(value: number): void {
  FLOAT[0] = value;
  mix(FLOAT_WORDS[0]!);
  mix(FLOAT_WORDS[1]!);
}

/** The characters of `text` from `from` to `to`, every `stride`-th. */
function mixText(text: string, from: number, to: number, stride: number): void {
  let left = h1;
  let right = h2;
  for (let index = from; index < to; index += stride) {
    const unit = text.charCodeAt(index);
    left = Math.imul(left ^ unit, 2654435761);
    left ^= left >>> 15;
    right = Math.imul(right ^ unit, 1597334677);
    right ^= right >>> 15;
  }
  h1 = left;
  h2 = right;
}

/** The two lanes of the last {@link finish}ed hash, each a 32-bit word. */
let finishedLeft = 0;
let finishedRight = 0;

/** Finalises the hash's two lanes together into {@link finishedLeft} and {@link finishedRight}. */
function finish(): void {
  let left = h1;
  let right = h2;
  left = Math.imul(left ^ (left >>> 16), 2246822507);
  left ^= Math.imul(right ^ (right >>> 13), 3266489909);
  right = Math.imul(right ^ (right >>> 16), 2246822507);
  right ^= Math.imul(left ^ (left >>> 13), 3266489909);
  finishedLeft = left;
  finishedRight = right;
}

function digest(): number {
  finish();
  return 4294967296 * (2097151 & finishedRight) + (finishedLeft >>> 0);
}
