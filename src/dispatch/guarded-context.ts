import { INSPECT } from "../inspect.js";
import type { ToolContext } from "../types.js";

/** What a guarded call's context asks for its signal, which it makes on the first ask. */
export interface SignalSource {
  signal(): AbortSignal;
}

/**
 * What a guarded context stands for: a plain object's own fields, `signal` among them as a
 * placeholder, and the source of the real signal in a private field. Its prototype holds only
 * the inspect method (no `constructor`: a context's `constructor` is `Object`, as a plain
 * object's), and the proxy reports `Object.prototype` as the context's prototype.
 *
 * Until something changes its shape (see {@link ContextTarget.settle}), `signal` is lazy and
 * read-only; after, the target is the plain object it stood for, and the proxy forwards to it.
 */
class ContextTarget {
  readonly #source: SignalSource;
  #settled = false;
  declare toolCallId: string;
  declare toolName: string;
  declare signal: AbortSignal | undefined;
  declare data?: unknown;

  constructor(toolCallId: string, toolName: string, source: SignalSource, data: unknown) {
    this.toolCallId = toolCallId;
    this.toolName = toolName;
    this.signal = undefined;
    if (data !== undefined) this.data = data;
    this.#source = source;
  }

  /** The real signal of the context `target` stands for, made now if it was not yet. */
  static signalOf(target: ContextTarget): AbortSignal {
    return target.#source.signal();
  }

  /** Whether `target` is now the plain object it stood for. */
  static settled(target: ContextTarget): boolean {
    return target.#settled;
  }

  /**
   * Makes `target` the plain object it stands for (its real signal as a data property, its
   * prototype `Object.prototype`), before an operation that changes its shape (freezing,
   * sealing, redefining or deleting `signal`, a new prototype) or that sees it directly (Node's
   * inspect): from then on the proxy forwards every operation, and no invariant of a proxy can
   * be broken by a target that no longer matches what the traps report.
   */
  static settle(target: ContextTarget): void {
    if (target.#settled) return;
    target.signal = target.#source.signal();
    Object.setPrototypeOf(target, Object.prototype);
    target.#settled = true;
  }

  /**
   * Node's `util.inspect` shows a proxy's target, whose `signal` is a placeholder: the context
   * settles first, and is then shown as the plain object it is (a cycle through it as a cycle).
   */
  [INSPECT](this: ToolContext, _depth: number, _options: unknown, _inspect: unknown): ToolContext {
    // `this` is the proxy: settling goes through its `setPrototypeOf` trap.
    Object.setPrototypeOf(this, Object.prototype);
    return this;
  }

  static {
    delete (ContextTarget.prototype as { constructor?: unknown }).constructor;
  }
}

/** The traps of every guarded context: `signal` reads as the real signal, and cannot be assigned until the context settles. */
const CONTEXT_TRAPS: ProxyHandler<ContextTarget> = {
  get: (target, key, receiver) => (key === "signal" && !ContextTarget.settled(target) ? ContextTarget.signalOf(target) : Reflect.get(target, key, receiver)),
  getOwnPropertyDescriptor: (target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (key !== "signal" || descriptor === undefined || ContextTarget.settled(target)) return descriptor;
    return { value: ContextTarget.signalOf(target), writable: false, enumerable: true, configurable: true };
  },
  getPrototypeOf: (target) => (ContextTarget.settled(target) ? Reflect.getPrototypeOf(target) : Object.prototype),
  set: (target, key, value, receiver) => (key !== "signal" || ContextTarget.settled(target)) && Reflect.set(target, key, value, receiver),
  defineProperty: (target, key, descriptor) => {
    if (key === "signal") ContextTarget.settle(target);
    return Reflect.defineProperty(target, key, descriptor);
  },
  deleteProperty: (target, key) => {
    if (key === "signal") ContextTarget.settle(target);
    return Reflect.deleteProperty(target, key);
  },
  setPrototypeOf: (target, prototype) => {
    ContextTarget.settle(target);
    return Reflect.setPrototypeOf(target, prototype);
  },
  preventExtensions: (target) => {
    ContextTarget.settle(target);
    return Reflect.preventExtensions(target);
  },
};

/**
 * The context of a call guarded by a time limit or a caller's signal shared by many calls: to
 * its handler, a plain object (prototype `Object.prototype`) with own enumerable `toolCallId`,
 * `toolName`, `signal` and, when given, `data`, so that a spread, `Object.keys`, inheritance,
 * freezing and a `Proxy` of it see the signal. The signal is made on the first read (an
 * `AbortController` costs microseconds, and most handlers never read it). It is a `Proxy`: an
 * own getter would make it lazy as well, but defining one costs about 80 ns a call, five times
 * the proxy. Assigning `signal` throws, as assigning a getter without setter would. Unlike a
 * plain object, it cannot be given to `structuredClone` (no proxy can): clone a spread of it.
 */
export function guardedContext(toolCallId: string, toolName: string, source: SignalSource, data: unknown): ToolContext {
  return new Proxy(new ContextTarget(toolCallId, toolName, source, data), CONTEXT_TRAPS) as unknown as ToolContext;
}
