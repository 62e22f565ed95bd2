import { type Job, Worker, type WorkerOptions } from "bullmq";
import { LRUCache } from "lru-cache";
import type { Redis } from "ioredis";
import { ToolRateLimitedError } from "../errors.js";
import type { ToolCallEnvelope } from "../execution/envelope.js";
import type { JsonValue } from "../execution/ledger.js";
import { checkRegistry, describeOption, everyOption, positiveInteger, refuseUnknownOptions } from "../options.js";
import type { ToolRegistry } from "../registry/registry.js";
import { connect, type RedisConnection, withinTime } from "./connection.js";
import { limiterOf } from "./limiter.js";
import { cancelChannel, checkPrefix, checkQueueName } from "./names.js";
import { resultToWire } from "./results.js";

/** Options of {@link createToolWorker}. */
export interface ToolWorkerOptions {
  /** Where Redis is: a `redis://` URL, ioredis options, or an ioredis client (duplicated, never closed here). */
  connection: RedisConnection;
  /** The queue's name, as {@link createToolQueue} was given it. */
  queueName: string;
  /** BullMQ's key prefix, the same on both sides. @default "bull" */
  prefix?: string | undefined;
  /**
   * How many calls this worker runs at once.
   * @default 1
   */
  concurrency?: number | undefined;
  /**
   * BullMQ `Worker` options, passed through (`lockDuration`, `stalledInterval`, `maxStalledCount`,
   * `limiter`…). A `limiter` here replaces the one taken from the tools' `rateLimit`.
   */
  workerOptions?: Omit<WorkerOptions, "connection" | "concurrency" | "prefix" | "autorun"> | undefined;
}

/** Every option of {@link createToolWorker}: it refuses any other (a misspelt one). */
const WORKER_OPTIONS = everyOption<ToolWorkerOptions>()(["connection", "queueName", "prefix", "concurrency", "workerOptions"]);

/** What {@link createToolWorker} returns. */
export interface ToolWorker {
  /** The BullMQ worker, for its events and figures. */
  readonly worker: Worker;
  /**
   * Stops taking jobs, lets the running ones finish, and closes the connections. When Redis is
   * away for more than 2 seconds (not connected, or connected and answering nothing), it stops
   * waiting for it: the connections are dropped, and jobs
   * still running stall (they run again elsewhere when their tool is safe to repeat).
   */
  close(): Promise<void>;
}

/**
 * Runs the calls of a queue made by {@link createToolQueue} with `registry.execute`: each envelope
 * is checked again, its deadline honoured, its trace continued, and its result (or typed failure)
 * sent back as the local `dispatchAll` would give it. A job whose worker died (stalled) runs again
 * elsewhere only when its tool is declared safe to repeat; a `once` tool asks its ledger (give the
 * registry a {@link RedisLedger} so that all workers share it). A caller's abort reaches the
 * handler's signal. In a worker of one tool with a `rateLimit` without `key`, that limit becomes
 * BullMQ's `limiter`, held across all workers of the queue; other limits stay per tool and per process.
 * @throws TypeError for a registry that is not one, or an option of the wrong kind
 */
export function createToolWorker(registry: ToolRegistry, options: ToolWorkerOptions): ToolWorker {
  checkRegistry(registry);
  const queueName = checkQueueName(options?.queueName);
  refuseUnknownOptions(options, WORKER_OPTIONS);
  const prefix = checkPrefix(options.prefix);
  const concurrency = positiveInteger("concurrency", options.concurrency ?? 1);
  const workerOptions = options.workerOptions ?? {};
  if (typeof workerOptions !== "object" || workerOptions === null) throw new TypeError(`workerOptions must be an object, got ${describeOption(workerOptions)}`);
  // BullMQ's blocking commands must wait for Redis as long as it takes.
  const client = connect("connection", options.connection, { maxRetriesPerRequest: null });
  const limiter = limiterOf(registry);
  // Holds the worker once made: a call refused by the limit the queue holds for its tool waits for it instead.
  let made: Worker<ToolCallEnvelope, JsonValue> | undefined;
  const early = new EarlyCancels();
  const processor = (job: Job<ToolCallEnvelope>, _token?: string, signal?: AbortSignal): Promise<JsonValue> =>
    run(registry, job, early.take(job) ?? signal, limiter === undefined ? undefined : made);
  const worker = new Worker<ToolCallEnvelope, JsonValue>(queueName, processor, {
    ...(limiter === undefined ? {} : { limiter }),
    ...workerOptions,
    connection: client,
    prefix,
    concurrency,
  });
  made = worker;
  worker.on("error", () => undefined);
  const cancellations = listenForCancellations(client, cancelChannel(prefix, queueName), worker, early);
  return {
    worker,
    async close(): Promise<void> {
      // BullMQ's close waits for Redis for ever while it is away. A worker whose Redis is away (or
      // goes away while it closes) for longer than a short break cannot write a running job's
      // outcome anyway: it stops waiting, and its connections are dropped (the job stalls, and
      // runs again elsewhere if it may).
      const away = whenAway(client, AWAY_AFTER_MS);
      const wentAway = await Promise.race([worker.close().then(() => false), away.promise.then(() => true)]);
      away.stop();
      // A Redis that took the connection and stopped answering would hold `quit` for ever: past the grace, the socket is dropped.
      const quit = (connection: Redis): Promise<unknown> => withinTime(connection.quit(), AWAY_AFTER_MS).catch(() => connection.disconnect());
      await Promise.all([cancellations, client].map((connection) => (connection.status === "ready" && !wentAway ? quit(connection) : connection.disconnect())));
    },
  };
}

/**
 * One job: its envelope run by the registry. Its attempt is more than 1 when an earlier run of it
 * may have started: its worker stalled (died), or an earlier attempt failed.
 * @param limited the worker, when its one tool's rate limit is the queue's: a call the limit
 * refuses goes back to wait, and the queue pauses until the limit lets calls through again
 */
async function run(registry: ToolRegistry, job: Job<ToolCallEnvelope>, signal: AbortSignal | undefined, limited: Worker | undefined): Promise<JsonValue> {
  const envelope = job.data;
  const attempt = Math.max(typeof envelope?.attempt === "number" ? envelope.attempt : 1, 1 + (job.stalledCounter ?? 0) + (job.attemptsMade ?? 0));
  // The job's id and creation time name this delivery: the same when BullMQ gives a stalled job to another worker.
  const delivery = `${String(job.id)}@${job.timestamp}`;
  const result = await registry.execute({ ...envelope, attempt }, signal === undefined ? { delivery } : { signal, delivery });
  if (limited !== undefined && result.status === "error" && result.error instanceof ToolRateLimitedError) {
    await limited.rateLimit(Math.max(1, Math.ceil(result.error.retryAfterMs)));
    throw Worker.RateLimitError();
  }
  return resultToWire(result);
}

/** How long a worker's Redis must stay away before its `close` stops waiting for it: a short break is not "away". */
const AWAY_AFTER_MS = 2_000;

/**
 * Resolves once `client` has not been connected to Redis for `graceMs` on end (counted from now
 * when it is not connected now, else from when its connection closes; a reconnection starts the
 * count again), or once a `PING` on its connection went unanswered for `graceMs` (a Redis that
 * holds the connection and answers nothing), until stopped.
 */
function whenAway(client: Redis, graceMs: number): { promise: Promise<void>; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let away!: () => void;
  const promise = new Promise<void>((resolve) => {
    away = resolve;
  });
  const lost = (): void => {
    timer ??= setTimeout(away, graceMs);
  };
  const back = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };
  client.on("close", lost);
  client.on("ready", back);
  if (client.status !== "ready") lost();
  // When the PING still waiting for its answer was sent; one at a time, every quarter of the grace.
  let askedAt: number | undefined;
  const asking = setInterval(() => {
    if (askedAt !== undefined) {
      if (Date.now() - askedAt >= graceMs) away();
      return;
    }
    if (client.status !== "ready") return;
    askedAt = Date.now();
    const answered = (): void => {
      askedAt = undefined;
    };
    client.ping().then(answered, answered);
  }, graceMs / 4);
  return {
    promise,
    stop: () => {
      clearInterval(asking);
      back();
      client.off("close", lost);
      client.off("ready", back);
    },
  };
}

/**
 * Cancels that came for a job this worker was not running: it may be about to (BullMQ took it from
 * the queue, and has not yet called the processor), and the cancel, a message sent once, would be
 * lost. Kept {@link EARLY_CANCEL_MS}, at most {@link MAX_EARLY_CANCELS} (the oldest go first).
 * Exported for this package's tests; the package's `bullmq` subpath does not export it.
 */
export class EarlyCancels {
  // Timed by the wall clock, as the cancels' `at` is.
  readonly #cancels = new LRUCache<string, { readonly reason: string; readonly at: number }>({ max: MAX_EARLY_CANCELS, ttl: EARLY_CANCEL_MS, perf: Date });

  /** @param at when the caller gave up, by its clock (the clock that made its job, when one process did both) */
  add(jobId: string, reason: string, at: number): void {
    this.#cancels.set(jobId, { reason, at });
  }

  /**
   * An aborted signal for a job cancelled before it started here, once: a job made before its
   * caller gave up (a later job of the same id, the call dispatched again, runs).
   */
  take(job: Job): AbortSignal | undefined {
    const jobId = String(job.id);
    const cancel = this.#cancels.get(jobId);
    if (cancel === undefined) return undefined;
    this.#cancels.delete(jobId);
    if (job.timestamp > cancel.at) return undefined;
    return AbortSignal.abort(new Error(cancel.reason));
  }
}

/**
 * How long a cancel for a job not running here is kept for it: the moment between BullMQ taking a
 * job and starting it is short, and a cancel kept longer could meet the same call dispatched again
 * from a process whose clock runs behind.
 */
const EARLY_CANCEL_MS = 2_000;
/** The most such cancels kept. */
const MAX_EARLY_CANCELS = 10_000;

/** A subscriber that cancels a job on this worker when its caller gave up on it (see {@link EarlyCancels}). */
function listenForCancellations(client: Redis, channel: string, worker: Worker, early: EarlyCancels): Redis {
  const subscriber = client.duplicate();
  subscriber.on("error", () => undefined);
  subscriber.on("message", (_channel: string, message: string) => {
    try {
      const { jobId, reason, at } = JSON.parse(message) as { jobId: unknown; reason: unknown; at: unknown };
      if (typeof jobId !== "string") return;
      const why = typeof reason === "string" ? reason : "cancelled";
      // A cancel that says not when its caller gave up (from an older queue) cannot be told from a later job's: it is kept for none.
      if (!worker.cancelJob(jobId, why) && typeof at === "number") early.add(jobId, why, at);
    } catch {
      // Not a message of ours.
    }
  });
  void subscriber.subscribe(channel).catch(() => undefined);
  return subscriber;
}
