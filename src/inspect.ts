/**
 * The key of the method Node's `util.inspect` (and so `console.log`) calls to show an object, by
 * its registered name: no import of `node:util`, so the module still loads in a browser.
 */
export const INSPECT: unique symbol = Symbol.for("nodejs.util.inspect.custom") as typeof INSPECT;
