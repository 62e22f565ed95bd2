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
 */
class ContextTarget {
  readonly #source: SignalSource;
  declare toolCallId: string;
  declare toolName: string;
  declare signal: undefined;
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

  /** Node's `util.inspect` shows a proxy's target: it shows the context as its handler sees it. */
  [INSPECT](this: ToolContext): Record<string, unknown> {
    return { ...this };
  }

  static {
    delete (ContextTarget.prototype as { constructor?: unknown }).constructor;
  }
}

/** The traps of every guarded context: `signal` reads as the real signal, and cannot be replaced. */
const CONTEXT_TRAPS: ProxyHandler<ContextTarget> = {
  get: (target, key, receiver) => (key === "signal" ? ContextTarget.signalOf(target) : Reflect.get(target, key, receiver)),
  getOwnPropertyDescriptor: (target, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (key !== "signal" || descriptor === undefined) return descriptor;
    return { value: ContextTarget.signalOf(target), writable: false, enumerable: true, configurable: true };
  },
  getPrototypeOf: () => Object.prototype,
  set: (target, key, value, receiver) => key !== "signal" && Reflect.set(target, key, value, receiver),
  defineProperty: (target, key, descriptor) => key !== "signal" && Reflect.defineProperty(target, key, descriptor),
  deleteProperty: (target, key) => key !== "signal" && Reflect.deleteProperty(target, key),
  setPrototypeOf: () => false,
};

/**
 * The context of a call guarded by a time limit or a caller's signal shared by many calls: to
 * its handler, a plain object (prototype `Object.prototype`) with own enumerable `toolCallId`,
 * `toolName`, `signal` and, when given, `data`, so that a spread, `Object.keys`, inheritance
 * and a `Proxy` of it see the signal. The signal is made on the first read (an
 * `AbortController` costs microseconds, and most handlers never read it). It is a `Proxy`:
 * an own getter would make it lazy as well, but defining one costs about 80 ns a call, five
 * times the proxy. `signal` is read-only, as a getter without setter would be.
 */
export function guardedContext(toolCallId: string, toolName: string, source: SignalSource, data: unknown): ToolContext {
  return new Proxy(new ContextTarget(toolCallId, toolName, source, data), CONTEXT_TRAPS) as unknown as ToolContext;
}
