import { defineOwnGetter, hiddenLink } from "../objects.js";
import type { ArgumentReader } from "./argument-reader.js";

/**
 * Gives `target` (a push's state, a `tool-call-delta` event) its own enumerable `value` getter,
 * which reads the reader's one partial value, built when read: a spread, `Object.keys`,
 * `JSON.stringify` and deep equality see it, and a stream whose value nobody reads never builds it.
 */
export function definePartialValue(target: object, reader: ArgumentReader): void {
  READER_LINK.link(target, reader);
  defineOwnGetter(target, "value", readPartialValue);
}

/**
 * Gives a push's state, after its `value` getter ({@link definePartialValue}), its own enumerable
 * `done` getter: whether the stream has ended, read when asked for, so that a state kept from
 * before `end()` says so after it.
 */
export function defineStreamEnded(target: object): void {
  defineOwnGetter(target, "done", readStreamEnded);
}

/** The `done` getter of every push's state: one function, which finds the state's reader. */
function readStreamEnded(this: unknown): boolean {
  const reader = READER_LINK.find(this);
  if (reader === undefined) throw new TypeError("done was read on an object that is not a stream's state (through a Proxy, read it from the object itself)");
  return reader.ended;
}

/**
 * The link from an object to the reader of its `value`, found from an object that inherits from it;
 * a value read through a `Proxy` of it is refused with a TypeError.
 */
const READER_LINK = hiddenLink<ArgumentReader>();

/** The `value` getter of every linked object: one function, which finds the object's reader. */
function readPartialValue(this: unknown): unknown {
  const reader = READER_LINK.find(this);
  if (reader === undefined) throw new TypeError("value was read on an object that is not a stream's state or event (through a Proxy, read it from the object itself)");
  return reader.value;
}
