import { LRUCache } from "lru-cache";
import { positiveInteger } from "../options.js";

/** A JSON value, as a ledger stores it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Options of one {@link LedgerStore.set} or {@link LedgerStore.add}. */
export interface LedgerSetOptions {
  /** How long the entry lives, in milliseconds; it is gone (or ignored) after that. */
  ttlMs: number;
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
   * which is atomic within one process only, so a store shared by several processes must have it.
   */
  add?(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean>;
}

/** Options of a {@link MemoryLedger}. */
export interface MemoryLedgerOptions {
  /**
   * The most entries kept; the least recently used goes first beyond it.
   * @default 10000
   */
  max?: number;
}

/**
 * The default {@link LedgerStore}: in this process's memory, bounded by an LRU (`lru-cache`) whose
 * entries expire with their time to live. Values are kept as JSON text, so what comes out is a
 * fresh copy of what went in, as from any other store.
 */
export class MemoryLedger implements LedgerStore {
  readonly #entries: LRUCache<string, string>;

  /** @throws TypeError for a `max` that is not a positive integer */
  constructor(options: MemoryLedgerOptions = {}) {
    this.#entries = new LRUCache<string, string>({ max: positiveInteger("max", options.max ?? 10_000) });
  }

  get(key: string): Promise<JsonValue | undefined> {
    const text = this.#entries.get(key);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as JsonValue));
  }

  set(key: string, value: JsonValue, options: LedgerSetOptions): Promise<void> {
    this.#entries.set(key, JSON.stringify(value), { ttl: ttlOf(options) });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }

  add(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean> {
    if (this.#entries.has(key)) return Promise.resolve(false);
    this.#entries.set(key, JSON.stringify(value), { ttl: ttlOf(options) });
    return Promise.resolve(true);
  }

  /** How many entries are held now (expired ones may count until they are next looked at). */
  get size(): number {
    return this.#entries.size;
  }
}

/** lru-cache takes whole milliseconds, and 0 for "no expiry". */
function ttlOf(options: LedgerSetOptions): number {
  const ttl = options.ttlMs;
  return ttl === Infinity ? 0 : Math.max(1, Math.ceil(ttl));
}
