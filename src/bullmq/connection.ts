import { Redis, type RedisOptions } from "ioredis";
import { describeOption } from "../options.js";

/**
 * Where the queue's Redis is: a `redis://` URL, ioredis options, or an ioredis client (which is
 * duplicated, never used or closed itself: a queue and a worker each need connections of their own).
 */
export type RedisConnection = string | RedisOptions | Redis;

/**
 * A new client for `connection`, with `overrides`.
 * @throws TypeError for a connection that is none of a URL, options or a client
 */
export function connect(option: string, connection: RedisConnection, overrides: RedisOptions): Redis {
  let client: Redis;
  if (typeof connection === "string") client = new Redis(connection, overrides);
  else if (connection instanceof Redis) client = connection.duplicate(overrides);
  else if (typeof connection === "object" && connection !== null && !Array.isArray(connection)) client = new Redis({ ...connection, ...overrides });
  else throw new TypeError(`${option} must be a redis:// URL, ioredis options or an ioredis client, got ${describeOption(connection)}`);
  // Errors are reported where a call waits on the client; without a listener ioredis prints each one.
  client.on("error", () => undefined);
  return client;
}

/** The server a client talks to, as `redis://host:port/db`: no user, no password. */
export function describeConnection(client: Redis): string {
  const { host, port, db, path } = client.options;
  return path === undefined || path === null ? `redis://${host ?? "localhost"}:${port ?? 6379}/${db ?? 0}` : `redis+unix://${path}`;
}

// One wait per client while it connects, however many calls wait on it.
const connecting = new WeakMap<Redis, Promise<void>>();

/**
 * Resolves once `client` is ready, at once when it is; rejects at its first connection error, or
 * after `timeoutMs`, with what went wrong, so that a call never hangs on a Redis that is not there.
 */
export function whenReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  let waiting = connecting.get(client);
  if (waiting === undefined) {
    waiting = new Promise<void>((resolve, reject) => {
      const done = (error?: unknown): void => {
        clearTimeout(timer);
        client.off("ready", onReady);
        client.off("error", onError);
        client.off("end", onEnd);
        connecting.delete(client);
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error(String(error)));
      };
      const onReady = (): void => done();
      const onError = (error: unknown): void => done(error);
      const onEnd = (): void => done(new Error("the connection is closed"));
      const timer = setTimeout(() => done(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
      client.on("ready", onReady);
      client.on("error", onError);
      client.on("end", onEnd);
      if (client.status === "end") onEnd();
    });
    connecting.set(client, waiting);
  }
  return waiting;
}

/** `promise`, or a rejection once `timeoutMs` have passed without it settling. */
export function withinTime<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A Redis client's error, fit to be a cause that is logged: ioredis keeps a failed command's
 * arguments on its error (`command.args`), and those hold a call's envelope (its arguments) or a
 * ledger record (a tool's result). The copy keeps the error's name and message, without them.
 */
export function withoutCommand(error: unknown): unknown {
  if (!(error instanceof Error) || !("command" in error)) return error;
  const copy = new Error(error.message);
  copy.name = error.name;
  return copy;
}

/** Whether Redis answered a command with an error (it was reached, and refused: out of memory, read-only…). */
export function isRedisReply(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplyError";
}
