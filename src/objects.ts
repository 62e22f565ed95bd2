/** A non-null object that is not an array. Never throws: a revoked proxy (which `Array.isArray` throws on) is not one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    return !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A plain object: prototype `Object.prototype` or `null`. Never throws: a
 * revoked proxy or a throwing `getPrototypeOf` trap is simply not one.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

const NO_KEYS = {};

/**
 * Whether `Object.prototype` holds an enumerable property, as no runtime's own does: one that
 * polluting code set by assignment (`target[a][b] = value` with `a` read as `"__proto__"`), which
 * every object then seems to have to an `in` test. About 7 ns.
 */
export function objectPrototypePolluted(): boolean {
  for (const _key in NO_KEYS) return true;
  return false;
}

/** Sets `key` as an own data property, so that a `__proto__` key stays a key and never becomes a prototype. */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * `Object.prototype.__defineGetter__` where the runtime has it (every engine with a web
 * compatibility annex: V8, SpiderMonkey, JavaScriptCore): it defines the same accessor as
 * `Object.defineProperty` in about two thirds of the time.
 */
const DEFINE_GETTER = (Object.prototype as { __defineGetter__?: (this: object, key: string, get: () => unknown) => void }).__defineGetter__;

/**
 * Defines `key` on `target` as an own getter, enumerable and configurable as an object literal's
 * getter is, so that a spread, `Object.keys`, `JSON.stringify` and deep equality see it. Pass one
 * function shared by every object (found again from `this`): a getter made per object gives each
 * object a layout of its own, which costs the engine about a microsecond.
 */
export function defineOwnGetter(target: object, key: string, get: () => unknown): void {
  if (DEFINE_GETTER !== undefined) DEFINE_GETTER.call(target, key, get);
  else Object.defineProperty(target, key, { get, enumerable: true, configurable: true });
}

/** A base class whose constructor returns the object it is given, so that a subclass can stamp its private fields on any object. */
class ReturnsItsTarget {
  constructor(target: object) {
    return target;
  }
}

/** A hidden link from objects to values of type `T`: see {@link hiddenLink}. */
export interface HiddenLink<T> {
  /** Links `target` to `value`. */
  link(target: object, value: T): void;
  /** The value `object`, or an object it inherits from (`Object.create`), is linked to; `undefined` for any other value. */
  find(object: unknown): T | undefined;
}

/**
 * A new kind of hidden link: a private field stamped on an object, which no enumeration, spread,
 * JSON or reflection sees, and which costs a plain property store (a non-enumerable property would
 * cost a `defineProperty`, about 150 ns). Each call makes a field of its own, so links of two
 * kinds never find each other's values. A `Proxy` of a linked object has no private fields of its
 * own: nothing is found through one.
 */
export function hiddenLink<T>(): HiddenLink<T> {
  class Link extends ReturnsItsTarget {
    readonly #value: T;

    constructor(target: object, value: T) {
      super(target);
      this.#value = value;
    }

    static find(start: unknown): T | undefined {
      for (let object = start; typeof object === "object" && object !== null; object = Object.getPrototypeOf(object)) {
        if (#value in object) return (object as Link).#value;
      }
      return undefined;
    }
  }
  return {
    link: (target, value) => void new Link(target, value),
    find: (object) => Link.find(object),
  };
}
