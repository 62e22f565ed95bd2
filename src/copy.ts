import { escapePointerSegment, ROOT_ISSUES } from "./issues.js";
import { defineOwn } from "./objects.js";

/**
 * The private deep copy of a tool call's arguments.
 *
 * Plain data (plain objects, arrays, primitives) takes a fast recursive copy.
 * Anything else (a Date, a Map, a class instance, a cycle, a proxy that
 * throws, deep nesting) falls back to `structuredClone`, so the result always
 * has structured-clone semantics, and what structuredClone refuses is refused.
 */

/** Why a value could not be copied; `issue` is ready for a validation error. */
export class CopyRefusal {
  constructor(readonly issue: string) {}
}


// Beyond this depth the fast copy hands over to structuredClone, which also handles cycles.
const MAX_FAST_DEPTH = 64;

/** Thrown inside the fast copy to hand the whole value over to the structuredClone path. */
const NOT_PLAIN_DATA: unique symbol = Symbol("not plain data");

/**
 * Copies `value` (already known to be a plain object) with structured-clone
 * semantics. A `__proto__` key is copied as an own data property, never as a
 * prototype. Sparse arrays are refused, so no handler ever receives a hole.
 * @throws CopyRefusal
 */
export function copyArguments(value: object): Record<string, unknown> {
  try {
    // The caller has checked that the root is a plain object.
    return copyPlainObject(value, 0);
  } catch {
    // Fall through: the slow path decides, with structuredClone as the referee.
  }
  return copyWithStructuredClone(value);
}

function copyPlainData(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol") throw NOT_PLAIN_DATA;
    return value;
  }
  if (depth === MAX_FAST_DEPTH) throw NOT_PLAIN_DATA;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) throw NOT_PLAIN_DATA;
      copy.push(copyPlainData(value[index], depth + 1));
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN_DATA;
  return copyPlainObject(value, depth);
}

function copyPlainObject(value: object, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const item = copyPlainData((value as Record<string, unknown>)[key], depth + 1);
    if (key === "__proto__") defineOwn(copy, key, item);
    else copy[key] = item;
  }
  return copy;
}

function copyWithStructuredClone(value: object): Record<string, unknown> {
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(value) as Record<string, unknown>;
  } catch (error) {
    throw new CopyRefusal(error instanceof RangeError ? ROOT_ISSUES.tooDeep : ROOT_ISSUES.notCloneable);
  }
  const hole = findHole(copy);
  if (hole !== undefined) throw new CopyRefusal(`${hole}: arrays must not have holes`);
  return copy;
}

/** The JSON Pointer of the first sparse-array hole in `root`, if any (cycles are walked once). */
function findHole(root: unknown): string | undefined {
  const seen = new WeakSet<object>();
  const pending: Array<[unknown, string]> = [[root, ""]];
  while (pending.length > 0) {
    const [value, pointer] = pending.pop()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (!(index in value)) return `${pointer}/${index}`;
        pending.push([value[index], `${pointer}/${index}`]);
      }
    } else if (value instanceof Map) {
      // Map and Set contents are not addressable by JSON Pointer, and have no holes.
    } else {
      for (const key of Object.keys(value)) pending.push([(value as Record<string, unknown>)[key], `${pointer}/${escapePointerSegment(key)}`]);
    }
  }
  return undefined;
}
