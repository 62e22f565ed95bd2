import { Redis } from "ioredis";
import type { JsonValue, LedgerSetOptions, LedgerStore } from "../execution/ledger.js";
import { connect, type RedisConnection, withoutCommand } from "./connection.js";
import { everyOption, milliseconds, refuseUnknownOptions } from "../options.js";
import { isMisspelling } from "../text/suggest.js";

/** Options of a {@link RedisLedger}. */
export interface RedisLedgerOptions {
  /** Where Redis is: a URL, ioredis options, or an ioredis client (duplicated). */
  connection: RedisConnection;
  /**
   * What every key starts with, so that one Redis can hold several registries' ledgers.
   * @default "ttr:ledger:"
   */
  keyPrefix?: string | undefined;
  /**
   * How long a store call waits for Redis's answer, in milliseconds, before it fails (and the
   * registry refuses a `once` call as `ToolLedgerError` `"unavailable"`), also while Redis is not
   * connected or takes the connection and never answers. `Infinity` waits for ever.
   * @default 2000
   */
  commandTimeoutMs?: number | undefined;
}

/**
 * A {@link LedgerStore} in Redis, through ioredis (the client BullMQ uses): `once` results,
 * memoized results and used approval tokens shared by every process that uses the same Redis and
 * prefix, and surviving their restarts. `add` is `SET key value NX PX ttl`, atomic across
 * processes, so a `once` tool never runs twice on two workers.
 */
export class RedisLedger implements LedgerStore {
  readonly #client: Redis;
  readonly #prefix: string;

  /**
   * @param options `{ connection, keyPrefix?, commandTimeoutMs? }`, or the connection alone (a URL,
   * ioredis options or a client), as the queue and the worker take it
   * @throws TypeError for a connection that is none of a URL, options or a client, a prefix that is
   * not a string, or a time limit that is not a positive number of milliseconds
   */
  constructor(options: RedisLedgerOptions | RedisConnection) {
    if (isLedgerOptions(options)) refuseUnknownOptions(options, LEDGER_OPTIONS);
    else options = { connection: options };
    const prefix = options.keyPrefix ?? "ttr:ledger:";
    if (typeof prefix !== "string") throw new TypeError(`keyPrefix must be a string, got ${typeof prefix}`);
    this.#prefix = prefix;
    const commandTimeoutMs = milliseconds("commandTimeoutMs", options.commandTimeoutMs) ?? 2_000;
    // A store call fails rather than waits while Redis is away, or there and silent: the registry
    // then fails closed. Every command here is a quick one, so a bound on each is safe.
    this.#client = connect("connection", options.connection, { maxRetriesPerRequest: 1, ...(commandTimeoutMs === Infinity ? {} : { commandTimeout: commandTimeoutMs }) });
  }

  // Each command's failure is thrown without the command's arguments, which hold a record (a tool's result).

  async get(key: string): Promise<JsonValue | undefined> {
    const text = await this.#client.get(this.#prefix + key).catch(rethrowWithoutCommand);
    return text === null ? undefined : (JSON.parse(text) as JsonValue);
  }

  async set(key: string, value: JsonValue, options: LedgerSetOptions): Promise<void> {
    const ttl = ttlOf(options);
    const setting = ttl === undefined ? this.#client.set(this.#prefix + key, JSON.stringify(value)) : this.#client.set(this.#prefix + key, JSON.stringify(value), "PX", ttl);
    await setting.catch(rethrowWithoutCommand);
  }

  async delete(key: string): Promise<void> {
    await this.#client.del(this.#prefix + key).catch(rethrowWithoutCommand);
  }

  async add(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean> {
    const ttl = ttlOf(options);
    const adding = ttl === undefined ? this.#client.set(this.#prefix + key, JSON.stringify(value), "NX") : this.#client.set(this.#prefix + key, JSON.stringify(value), "PX", ttl, "NX");
    return (await adding.catch(rethrowWithoutCommand)) === "OK";
  }

  /** Closes its connection. */
  async close(): Promise<void> {
    await this.#client.quit().catch(() => this.#client.disconnect());
  }
}

/** Every option of {@link RedisLedger}: it refuses any other (a misspelt one). */
const LEDGER_OPTIONS = everyOption<RedisLedgerOptions>()(["connection", "keyPrefix", "commandTimeoutMs"]);

/**
 * Options with a `connection`, rather than a connection itself: ioredis options have no such key,
 * nor one within two edits of it (`conection`), which is this class's option misspelt, and refused
 * as such rather than taken for ioredis options whose unknown keys ioredis would ignore.
 */
function isLedgerOptions(value: RedisLedgerOptions | RedisConnection): value is RedisLedgerOptions {
  return typeof value === "object" && value !== null && !(value instanceof Redis) && Object.keys(value).some((key) => key === "connection" || isMisspelling(key, "connection"));
}

function rethrowWithoutCommand(error: unknown): never {
  throw withoutCommand(error);
}

/** Whole milliseconds, at least 1; `undefined` for no expiry. */
function ttlOf(options: LedgerSetOptions): number | undefined {
  return options.ttlMs === Infinity ? undefined : Math.max(1, Math.ceil(options.ttlMs));
}
