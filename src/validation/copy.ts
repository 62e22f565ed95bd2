import { escapePointerSegment, ROOT_ISSUES } from "../text/issues.js";
import { defineOwn, isPlainObject } from "../objects.js";
import { MAX_VALUE_DEPTH } from "../schema/keywords.js";

/**
 * The private deep copy of a tool call's arguments.
 *
 * Plain data (plain objects, arrays, primitives) takes a fast recursive copy that reads each
 * property once. A value inside that is not plain data (a Date, a Map, a class instance, a
 * typed array) is copied on the spot by `structuredClone`, so it has structured-clone
 * semantics, and what structuredClone refuses (a function, a symbol, a proxy it meets) is
 * refused. A cycle is kept, as structuredClone keeps it: a value met again on its own path
 * becomes that ancestor's copy. Only data nested deeper than the fast copy goes is handed whole to
 * `structuredClone`.
 */

/** Why a value could not be copied; `issue` is ready for a validation error. */
export class CopyRefusal extends Error {
  override readonly name = "CopyRefusal";
  constructor(readonly issue: string) {
    super(issue);
  }
}

// Beyond this depth the fast copy hands the whole value over to structuredClone (cycles never get this deep: they are found on the path).
const MAX_FAST_DEPTH = MAX_VALUE_DEPTH;

/** One object on the path from the root to the value being copied, with its copy. */
export interface PathLink {
  readonly original: object;
  readonly copy: object;
  readonly parent: PathLink | undefined;
}

/**
 * Longer arrays are copied by structuredClone: it copies a real array natively, and refuses a
 * proxy at once, where the fast copy would believe a proxy's `length` (2^32 - 1, say) and try
 * to allocate that many items.
 */
export const MAX_FAST_ARRAY_LENGTH = 65_536;

/**
 * The most values one fast copy reads (each object and array it enters, and each of their
 * properties and items it copies); past it, the whole value goes to structuredClone. The fast copy
 * copies an object each time it meets it (it knows only the path it is on, which finds cycles),
 * so arguments whose objects share objects (`x = [x, x]`, forty times over: 81 objects) would grow
 * exponentially in the copy, and a proxy that makes its items as they are read would be read for
 * ever; structuredClone copies each object once, keeps the sharing, and refuses a proxy.
 */
export const MAX_FAST_VALUES = 1 << 18;

/**
 * The values the fast copy under way may still read (see {@link MAX_FAST_VALUES}): set at the
 * start of each copy, and given back at its end, so that a copy made inside another (a getter
 * that dispatches) counts on its own and the outer one goes on from where it was. A field of an
 * object rather than a variable of the module, so that a fused copy-and-check's generated code
 * sets it too (it is one of `FUSED_HELPERS`), and a cheaper one to count down.
 */
export const COPY_COUNT = { valuesLeft: MAX_FAST_VALUES };

/** Thrown inside the fast copy when data nests deeper than it goes, or holds more values than it reads: the whole value goes to structuredClone. */
class TooDeepForFastCopy extends Error {}

/** What a fused copy-and-check throws when the values it may read run out: the whole value goes to structuredClone. */
export function valuesRunOut(): Error {
  return new TooDeepForFastCopy();
}

/** Thrown inside the fast copy at a sparse-array hole; each level on the way out adds its segment. */
export class HoleFound extends Error {
  readonly segments: string[] = [];
}

/** The hole at `index` of the array being copied, to throw. */
export function holeAt(index: number): HoleFound {
  const found = new HoleFound();
  found.segments.push(String(index));
  return found;
}

/**
 * Copies `value` (already known to be a plain object) with structured-clone
 * semantics. A `__proto__` key is copied as an own data property, never as a
 * prototype. Sparse arrays are refused, so no handler ever receives a hole.
 * Each getter runs once.
 * @throws CopyRefusal
 */
export function copyArguments(value: object): Record<string, unknown> {
  const outer = COPY_COUNT.valuesLeft;
  COPY_COUNT.valuesLeft = MAX_FAST_VALUES;
  try {
    // The caller has checked that the root is a plain object.
    return copyPlainObject(value, 0, undefined);
  } catch (error) {
    return recoverFastCopy(error, value);
  } finally {
    COPY_COUNT.valuesLeft = outer;
  }
}

/**
 * What a fast copy of the root (this file's, or a fused copy-and-check built on its parts) that
 * threw `error` comes to: the whole value copied by `structuredClone` when the data nests deeper
 * than the fast copy goes; otherwise a refusal (a hole, with its pointer; a getter or a trap that threw).
 * @throws CopyRefusal
 */
export function recoverFastCopy(error: unknown, value: object): Record<string, unknown> {
  if (error instanceof CopyRefusal) throw error;
  if (error instanceof HoleFound) throw holeRefusal(error.segments.reverse());
  if (error instanceof TooDeepForFastCopy) return copyWithStructuredClone(value);
  // A getter or a proxy trap threw: structuredClone would have met the same.
  throw new CopyRefusal(ROOT_ISSUES.notCloneable);
}

/**
 * What the fast copy does first at every object or array: the ancestor's copy when the value is its
 * own ancestor (a cycle), else `undefined`.
 * @throws TooDeepForFastCopy (caught by {@link recoverFastCopy}) past the fast copy's depth, or its {@link MAX_FAST_VALUES}
 */
export function enterObject(value: object, depth: number, parent: PathLink | undefined): object | undefined {
  // A cycle: the value is its own ancestor. (Shallow data, the usual case, compares once or twice.)
  for (let link = parent; link !== undefined; link = link.parent) if (link.original === value) return link.copy;
  if (depth === MAX_FAST_DEPTH || --COPY_COUNT.valuesLeft < 0) throw new TooDeepForFastCopy();
  return undefined;
}

/**
 * A symbol no object has, read from each object before its prototype, as the fused copy-and-check
 * reads one (to learn the object's layout): both paths make the same reads, and so refuse the same
 * proxies (one whose `get` trap throws for a key it does not know).
 */
const PLAIN_PROBE = Symbol("plain-probe");

/**
 * Whether the arguments `value` are a plain object (`Object.prototype` or `null` as prototype), read
 * as the fused copy-and-check reads its root: a probe, then the prototype. Never throws.
 */
export function isPlainArguments(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    void (value as Record<symbol, unknown>)[PLAIN_PROBE];
  } catch {
    return false;
  }
  return isPlainObject(value);
}

/** Whether `value` has the prototype of plain data (`Object.prototype` or `null`); the fast copy copies it key by key. */
function hasPlainPrototype(value: object): boolean {
  void (value as Record<symbol, unknown>)[PLAIN_PROBE];
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function copyPlainData(value: object, depth: number, parent: PathLink | undefined): unknown {
  const ancestor = enterObject(value, depth, parent);
  return ancestor !== undefined ? ancestor : copyEntered(value, depth, parent);
}

/** The copy of an object or array once {@link enterObject} has let it in (no cycle, not too deep). */
export function copyEntered(value: object, depth: number, parent: PathLink | undefined): unknown {
  if (Array.isArray(value)) {
    const length = value.length;
    if (!(length <= MAX_FAST_ARRAY_LENGTH)) return cloneInPlace(value);
    if ((COPY_COUNT.valuesLeft -= length) < 0) throw new TooDeepForFastCopy();
    const copy: unknown[] = [];
    let link: PathLink | undefined;
    for (let index = 0; index < length; index++) {
      if (!(index in value)) throw holeAt(index);
      const item: unknown = value[index];
      copy.push(typeof item === "object" && item !== null ? copyNested(item, depth + 1, index, (link ??= { original: value, copy, parent })) : copyPrimitive(item));
    }
    return copy;
  }
  if (!hasPlainPrototype(value)) return cloneInPlace(value);
  return copyPlainObject(value, depth, parent);
}

/** A primitive as is; a function or a symbol is refused. */
export function copyPrimitive(value: unknown): unknown {
  if (typeof value === "function" || typeof value === "symbol") throw new CopyRefusal(ROOT_ISSUES.notCloneable);
  return value;
}

/** An object or array item, naming its segment if a hole is found below it. */
export function copyNested(value: object, depth: number, segment: string | number, parent: PathLink): unknown {
  try {
    return copyPlainData(value, depth, parent);
  } catch (error) {
    if (error instanceof HoleFound) error.segments.push(String(segment));
    throw error;
  }
}

function copyPlainObject(value: object, depth: number, parent: PathLink | undefined): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(value);
  if ((COPY_COUNT.valuesLeft -= keys.length) < 0) throw new TooDeepForFastCopy();
  let link: PathLink | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const property = (value as Record<string, unknown>)[key];
    // The path link is made only for an object that has objects inside.
    const item = typeof property === "object" && property !== null ? copyNested(property, depth + 1, key, (link ??= { original: value, copy, parent })) : copyPrimitive(property);
    if (key === "__proto__") defineOwn(copy, key, item);
    else copy[key] = item;
  }
  return copy;
}

/** A value that is not plain data, copied where it stands by structuredClone (which reads it once). */
export function cloneInPlace(value: object): unknown {
  let copy: object;
  try {
    copy = structuredClone(value);
  } catch (error) {
    throw new CopyRefusal(cloneIssue(error));
  }
  const hole = findHole(copy);
  if (hole !== undefined) {
    const found = new HoleFound();
    found.segments.push(...hole.reverse());
    throw found;
  }
  // Its values count against the copy's (a clone met again is cloned again, at full size).
  if ((COPY_COUNT.valuesLeft -= refuseOverShared(copy)) < 0) throw new TooDeepForFastCopy();
  return copy;
}

function copyWithStructuredClone(value: object): Record<string, unknown> {
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(value) as Record<string, unknown>;
  } catch (error) {
    throw new CopyRefusal(cloneIssue(error));
  }
  const hole = findHole(copy);
  if (hole !== undefined) throw holeRefusal(hole);
  refuseOverShared(copy);
  return copy;
}

/**
 * The most values sharing may add to a copy made by structuredClone, counting a shared object each
 * time it appears: structuredClone keeps shared objects shared (81 objects can appear 2^41
 * times), and the check, which walks the value as a tree, would take for ever on them. 2^24 is
 * more than a JSON text within the default `maxArgumentBytes` (16 MiB) could hold. Values that
 * share nothing are not bounded here, whatever their size.
 */
export const MAX_SHARED_VALUES = 1 << 24;

/**
 * How many values `copy` holds counting an object each time it appears ({@link measureValues}).
 * @throws CopyRefusal when that is more than {@link MAX_SHARED_VALUES} beyond its distinct values
 */
function refuseOverShared(copy: object): number {
  const { expanded, distinct } = measureValues(copy);
  if (expanded - distinct > MAX_SHARED_VALUES) throw new CopyRefusal(ROOT_ISSUES.tooManyValues);
  return expanded;
}

/** One object on the walk of {@link measureValues}: its values, the next to count, and its size so far. */
interface SizeFrame {
  readonly node: object;
  readonly values: readonly unknown[];
  next: number;
  size: number;
}

/** Marks an object on the walk's path: met again below itself, it closes a cycle. */
const ON_PATH = -1;

/** The most `measureValues` counts: beyond it, every count is the same. */
const MAX_COUNTED = 2 ** 52;

/**
 * How many values `root` holds: `distinct`, each object and value once; `expanded`, counting an
 * object (and what it holds) each time it appears, as a walk of the value as a tree would count
 * them (the way back of a cycle as one value, as the copy keeps it). Found in one pass over the
 * distinct objects (a shared object's size is counted once and added where it appears), without
 * recursion. A typed array or buffer counts one value per 8 bytes; a `Map` or `Set`, its entries.
 */
export function measureValues(root: object): { expanded: number; distinct: number } {
  const sizes = new Map<object, number>();
  const stack: SizeFrame[] = [];
  let distinct = 0;
  const enter = (node: object): void => {
    sizes.set(node, ON_PATH);
    const own = 1 + (ArrayBuffer.isView(node) || node instanceof ArrayBuffer ? Math.ceil(node.byteLength / 8) : 0);
    distinct += own;
    stack.push({ node, values: valuesOf(node), next: 0, size: own });
  };
  enter(root);
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.values.length) {
      const value = frame.values[frame.next++];
      if (typeof value !== "object" || value === null) {
        frame.size++;
        distinct++;
      } else {
        const known = sizes.get(value);
        if (known === undefined) enter(value);
        else frame.size = Math.min(frame.size + (known === ON_PATH ? 1 : known), MAX_COUNTED);
      }
      continue;
    }
    stack.pop();
    sizes.set(frame.node, frame.size);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return { expanded: frame.size, distinct };
    parent.size = Math.min(parent.size + frame.size, MAX_COUNTED);
  }
}

/** The values a walk of `node` goes through: an array's items, a plain object's, a Map's keys and values, a Set's members. */
function valuesOf(node: object): readonly unknown[] {
  if (Array.isArray(node)) return node;
  if (hasPlainPrototype(node)) return Object.values(node);
  if (node instanceof Map) return [...node.keys(), ...node.values()];
  if (node instanceof Set) return [...node];
  return [];
}

/**
 * Why `structuredClone` refused a value. It says only by the kind of what it throws: a
 * `DataCloneError` for what it cannot clone, a `RangeError` when its own recursion runs out of
 * stack (nothing else tells a native stack overflow apart).
 */
function cloneIssue(error: unknown): string {
  return error instanceof RangeError ? ROOT_ISSUES.tooDeep : ROOT_ISSUES.notCloneable;
}

function holeRefusal(segments: readonly string[]): CopyRefusal {
  return new CopyRefusal(`${segments.map((segment) => `/${escapePointerSegment(segment)}`).join("")}: arrays must not have holes`);
}

/**
 * The segments of the first sparse-array hole in `root`, if any (cycles are walked once). Inside a
 * Map or a Set, which JSON Pointer cannot address, the segments stop at the Map or Set.
 */
function findHole(root: unknown): string[] | undefined {
  const seen = new WeakSet<object>();
  // Each value with its segments, and whether its own keys and indexes can be added to them.
  const pending: Array<[unknown, string[], boolean]> = [[root, [], true]];
  while (pending.length > 0) {
    const [value, segments, addressable] = pending.pop()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const below = (segment: string): string[] => (addressable ? [...segments, segment] : segments);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (!(index in value)) return below(String(index));
        pending.push([value[index], below(String(index)), addressable]);
      }
    } else if (value instanceof Map) {
      for (const [key, item] of value) pending.push([key, segments, false], [item, segments, false]);
    } else if (value instanceof Set) {
      for (const item of value) pending.push([item, segments, false]);
    } else {
      for (const key of Object.keys(value)) pending.push([(value as Record<string, unknown>)[key], below(key), addressable]);
    }
  }
  return undefined;
}
