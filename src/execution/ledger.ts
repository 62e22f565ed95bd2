import { LRUCache } from "lru-cache";
import { positiveInteger } from "../options.js";

/** A JSON value, as a ledger stores it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Options of one {@link LedgerStore.set} or {@link LedgerStore.add}. */
export interface LedgerSetOptions {
  /** How long the entry lives, in milliseconds; it is gone (or ignored) after that. */
  ttlMs: number;
  /**
   * `true` for a memoized result of a `read-only` tool, which the store may drop at any time (a
   * miss only costs a run). Every other entry (a `once` call's claim or result, a used approval)
   * must be kept until it expires: a store that drops one would let a call run twice.
   */
  evictable?: boolean | undefined;
}

/**
 * Where a registry remembers what must outlive one call: the outcome of each `once` call, the
 * memoized results of `read-only` tools, and the approval tokens already used. Keys are short
 * strings; values are JSON. Every method may reject: a rejection never makes a `once` tool run
 * twice (the call fails closed with a `ToolLedgerError`).
 *
 * The default, {@link MemoryLedger}, lives as long as its process. Give a registry a persistent
 * store (Redis, a database, a file) for `once` and approvals to survive a restart, and a shared
 * one for them to hold across processes.
 */
export interface LedgerStore {
  /** The value under `key`, or `undefined` (or `null`) when there is none (or it expired). */
  get(key: string): Promise<JsonValue | undefined>;
  /** Stores `value` under `key`, replacing any value, for `ttlMs`. */
  set(key: string, value: JsonValue, options: LedgerSetOptions): Promise<void>;
  /** Removes `key`'s value, if any. */
  delete(key: string): Promise<void>;
  /**
   * Stores `value` under `key` only if `key` holds nothing, atomically, and resolves to whether it
   * did (Redis: `SET key value NX PX ttl`). Optional: without it the registry reads then writes,
   * which is atomic within one registry only, so a store shared by several registries (in one
   * process or several) must have it.
   */
  add?(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean>;
}

/** Options of a {@link MemoryLedger}. */
export interface MemoryLedgerOptions {
  /**
   * The most memoized results kept (the least recently used goes first beyond it), and, apart, the
   * most entries that must be kept until they expire (`once` records, used approvals): beyond it a
   * new one is refused, so the `once` call or the approval fails closed with a `ToolLedgerError`
   * until some expire.
   * @default 10000
   */
  max?: number | undefined;
}

/**
 * The default {@link LedgerStore}: in this process's memory, bounded, with entries that expire with
 * their time to live (`lru-cache`). Memoized results (`evictable`) are dropped least recently used
 * first; what must be kept until it expires (a `once` call's record, a used approval) is never
 * dropped for room: when `max` of them are held, a new one is refused (the call fails closed).
 * Values are kept as JSON text, so what comes out is a fresh copy of what went in, as from any
 * other store.
 */
export class MemoryLedger implements LedgerStore {
  readonly #max: number;
  /** Memoized results: dropped least recently used first. */
  readonly #evictable: LRUCache<string, string>;
  /** Entries kept until they expire; never dropped for room (`#kept.max` is above `#max`, which {@link MemoryLedger.#keep} enforces). */
  readonly #kept: LRUCache<string, string>;

  /** @throws TypeError for a `max` that is not a positive integer */
  constructor(options: MemoryLedgerOptions = {}) {
    this.#max = positiveInteger("max", options.max ?? 10_000);
    this.#evictable = new LRUCache<string, string>({ max: this.#max });
    this.#kept = new LRUCache<string, string>({ max: this.#max + 1 });
  }

  get(key: string): Promise<JsonValue | undefined> {
    const text = this.#kept.get(key) ?? this.#evictable.get(key);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as JsonValue));
  }

  set(key: string, value: JsonValue, options: LedgerSetOptions): Promise<void> {
    const text = JSON.stringify(value);
    if (options.evictable === true) {
      this.#kept.delete(key);
      this.#evictable.set(key, text, { ttl: ttlOf(options) });
      return Promise.resolve();
    }
    this.#evictable.delete(key);
    return this.#keep(key, text, options);
  }

  delete(key: string): Promise<void> {
    this.#kept.delete(key);
    this.#evictable.delete(key);
    return Promise.resolve();
  }

  add(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean> {
    if (this.#kept.has(key) || this.#evictable.has(key)) return Promise.resolve(false);
    return this.set(key, value, options).then(() => true);
  }

  /** How many entries are held now (expired ones may count until they are next looked at). */
  get size(): number {
    return this.#kept.size + this.#evictable.size;
  }

  /**
   * Keeps an entry until it expires.
   * @throws Error (as a rejection) when `max` such entries are held, none expired: nothing is dropped for room
   */
  #keep(key: string, text: string, options: LedgerSetOptions): Promise<void> {
    if (!this.#kept.has(key) && this.#kept.size >= this.#max) {
      this.#kept.purgeStale();
      if (this.#kept.size >= this.#max) {
        return Promise.reject(new Error(`MemoryLedger is full: it holds ${this.#max} entries that must be kept until they expire (once records, used approvals), and drops none for room`));
      }
    }
    this.#kept.set(key, text, { ttl: ttlOf(options) });
    return Promise.resolve();
  }
}

/** lru-cache takes whole milliseconds, and 0 for "no expiry". */
function ttlOf(options: LedgerSetOptions): number {
  const ttl = options.ttlMs;
  return ttl === Infinity ? 0 : Math.max(1, Math.ceil(ttl));
}
