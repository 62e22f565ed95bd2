import { defineOwnGetter, ReturnsItsTarget } from "../objects.js";
import type { ArgumentReader } from "./argument-reader.js";

/**
 * Gives `target` (a push's state, a `tool-call-delta` event) its own enumerable `value` getter,
 * which reads the reader's one partial value, built when read: a spread, `Object.keys`,
 * `JSON.stringify` and deep equality see it, and a stream whose value nobody reads never builds it.
 */
export function definePartialValue(target: object, reader: ArgumentReader): void {
  ReaderLink.link(target, reader);
  defineOwnGetter(target, "value", readPartialValue);
}

/**
 * The link from an object to the reader of its `value`: a private field stamped on it. It is
 * found from an object that inherits from it (`Object.create`); a `Proxy` of it has no private
 * fields of its own, so a value read through one is refused with a TypeError.
 */
class ReaderLink extends ReturnsItsTarget {
  readonly #reader: ArgumentReader;

  private constructor(target: object, reader: ArgumentReader) {
    super(target);
    this.#reader = reader;
  }

  /** Links `target` to `reader`. */
  static link(target: object, reader: ArgumentReader): void {
    new ReaderLink(target, reader);
  }

  /** The reader `value` or an object it inherits from is linked to, if any. */
  static readerOf(value: unknown): ArgumentReader | undefined {
    for (let object = value; typeof object === "object" && object !== null; object = Object.getPrototypeOf(object)) {
      if (#reader in object) return (object as ReaderLink).#reader;
    }
    return undefined;
  }
}

/** The `value` getter of every linked object: one function, which finds the object's reader. */
function readPartialValue(this: unknown): unknown {
  const reader = ReaderLink.readerOf(this);
  if (reader === undefined) throw new TypeError("value was read on an object that is not a stream's state or event (through a Proxy, read it from the object itself)");
  return reader.value;
}
