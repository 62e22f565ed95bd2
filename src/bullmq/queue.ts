import { type Job, type JobsOptions, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { AbortFanOut } from "../dispatch/abort-fan-out.js";
import { ToolAbortedError, ToolTimeoutError } from "../errors.js";
import type { ToolCallEnvelope } from "../execution/envelope.js";
import { hex, sha256 } from "../execution/web-crypto.js";
import type { JsonValue } from "../execution/ledger.js";
import { allowTest } from "../dispatch/allow.js";
import { readCall } from "../dispatch/call-fields.js";
import { DISPATCH_ALL_OPTIONS, refuseUnknownDispatchOptions } from "../dispatch/dispatch-options.js";
import { approvalLookup, checkRegistry, everyOption, milliseconds, optionalSignal, optionalToken, refuseUnknownOptions } from "../options.js";
import { checkCalls, concurrencyOf, settleAll } from "../dispatch/settle-all.js";
import type { ToolRegistry } from "../registry/registry.js";
import { isRecord } from "../objects.js";
import { resultValue } from "../results/value.js";
import { modelNamesOf } from "../text/model-names.js";
import { failureContent, toFailure } from "../text/results.js";
import type { DispatchAllOptions, DispatchOptions, ToolCallContent, ToolResult } from "../types.js";
import { connect, describeConnection, isRedisReply, type RedisConnection, whenReady, withinTime, withoutCommand } from "./connection.js";
import { ToolJobFailedError, ToolQueueConnectionError } from "./errors.js";
import { resultFromWire } from "./results.js";
import { cancelChannel, checkPrefix, checkQueueName, replaceClaimKey } from "./names.js";

/** What a call whose time ran out before the queue was reached waited for, as its message says it. */
const WAITED_FOR_QUEUE = "the tool queue could not be reached in that time";

/** Options of {@link createToolQueue}. */
export interface ToolQueueOptions {
  /** Where Redis is: a `redis://` URL, ioredis options, or an ioredis client (duplicated, never closed here). */
  connection: RedisConnection;
  /** The BullMQ queue's name; the workers of {@link createToolWorker} must use the same. */
  queueName: string;
  /** BullMQ's key prefix, the same on both sides. @default "bull" */
  prefix?: string | undefined;
  /**
   * How long a call waits for Redis when it is not connected, in milliseconds, before it fails
   * with a `ToolQueueConnectionError` (at once on a refused connection).
   * @default 2000
   */
  connectTimeoutMs?: number | undefined;
  /**
   * BullMQ job options for every call (`removeOnComplete`, `priority`…); the job id is the call's
   * and `attempts` stays 1: a call runs again only when its worker dies, and then only if its tool
   * is safe to repeat.
   * @default { removeOnComplete: { age: 3600, count: 10000 }, removeOnFail: { age: 86400 } }
   */
  jobOptions?: Omit<JobsOptions, "jobId" | "attempts" | "backoff" | "repeat"> | undefined;
}

/** What {@link createToolQueue} returns: the registry's dispatch verbs, over the queue. */
export interface ToolQueue {
  /**
   * Checks the call here, enqueues it, and resolves to the handler's value as its worker ran it,
   * or rejects with the error the local `registry.dispatch` would (its class, fields and text).
   * @throws ToolQueueConnectionError when Redis cannot be reached (the call was not enqueued)
   */
  dispatch(call: ToolCallContent, options?: DispatchOptions): Promise<unknown>;
  /**
   * Runs many calls through the queue, at most `concurrency` in flight (one at a time, in order,
   * with `order: "sequential"`); one {@link ToolResult} per call, never a rejection. `allow` refuses
   * other tools here: they are never enqueued.
   */
  dispatchAll(calls: readonly ToolCallContent[], options?: DispatchAllOptions): Promise<ToolResult[]>;
  /** Stops waiting for results and closes the connections; calls still waiting are aborted. */
  close(): Promise<void>;
}

/** Every option of {@link createToolQueue}: it refuses any other (a misspelt one). */
const QUEUE_OPTIONS = everyOption<ToolQueueOptions>()(["connection", "queueName", "prefix", "connectTimeoutMs", "jobOptions"]);

const DEFAULT_JOB_OPTIONS = { removeOnComplete: { age: 3600, count: 10_000 }, removeOnFail: { age: 86_400 } } satisfies JobsOptions;

/**
 * The registry's `dispatch` and `dispatchAll`, with the handlers run by workers elsewhere
 * ({@link createToolWorker}) through a BullMQ queue on Redis. Each call is checked here (a refusal
 * reaches the model at once, with no network hop), enqueued as an envelope whose job id derives
 * from the call's id and fingerprint (so a repeated enqueue of the same call while it is in flight
 * is one job; once its job finished, the call runs again, as locally), and its
 * result awaited through BullMQ's `QueueEvents`. The tool's time limit and the caller's signal
 * apply here and on the worker.
 * @throws TypeError for a registry that is not one, or an option of the wrong kind
 */
export function createToolQueue(registry: ToolRegistry, options: ToolQueueOptions): ToolQueue {
  checkRegistry(registry);
  const queueName = checkQueueName(options?.queueName);
  refuseUnknownOptions(options, QUEUE_OPTIONS);
  const prefix = checkPrefix(options.prefix);
  const connectTimeoutMs = milliseconds("connectTimeoutMs", options.connectTimeoutMs) ?? 2_000;
  const jobOptions = { ...DEFAULT_JOB_OPTIONS, ...options.jobOptions };
  // Commands fail rather than wait while Redis is away; the queue's own client and a blocking one for events.
  const client = connect("connection", options.connection, { maxRetriesPerRequest: 1, retryStrategy: (times) => Math.min(times * 100, 1_000) });
  const eventsClient = client.duplicate({ maxRetriesPerRequest: null });
  eventsClient.on("error", () => undefined);
  const queue = new QueueClient(registry, client, eventsClient, queueName, prefix, connectTimeoutMs, jobOptions);
  // The three verbs and nothing else: the Redis clients and settings stay inside.
  const verbs: ToolQueue = Object.freeze({ dispatch: queue.dispatch.bind(queue), dispatchAll: queue.dispatchAll.bind(queue), close: queue.close.bind(queue) });
  queueClients.set(verbs, queue);
  return verbs;
}

const queueClients = new WeakMap<ToolQueue, QueueClient>();

/**
 * The Redis clients behind a queue {@link createToolQueue} made: for this package's tests, which
 * break them on purpose. The package's `bullmq` subpath does not export it.
 */
export function redisClientsOf(queue: ToolQueue): { readonly client: Redis; readonly eventsClient: Redis } | undefined {
  return queueClients.get(queue);
}

/** The queue's side of the calls: enqueues envelopes, and settles each call when its job does. */
class QueueClient implements ToolQueue {
  readonly #queue: Queue;
  readonly #waiters = new Map<string, Set<(settled: JobSettlement) => void>>();
  #events: Promise<QueueEvents> | undefined;
  #closed = false;
  /** While calls wait: the check that Redis still answers (`#checkReachable`). */
  #reachability: ReturnType<typeof setInterval> | undefined;
  /** When Redis last answered that check (or the check began). */
  #reachedAt = 0;
  /**
   * The jobs waited for that are in Redis, by id: since when, and when `#checkJobs` last looked
   * at them, in the order it looks at them next.
   */
  readonly #lookedAt = new Map<string, { readonly since: number; readonly at: number; readonly missing: boolean }>();
  /** When `#checkJobs` last ran. */
  #jobsCheckedAt = 0;

  constructor(
    readonly registry: ToolRegistry,
    readonly client: Redis,
    readonly eventsClient: Redis,
    readonly queueName: string,
    readonly prefix: string,
    readonly connectTimeoutMs: number,
    readonly jobOptions: JobsOptions,
  ) {
    this.#queue = new Queue(queueName, { connection: client, prefix });
    this.#queue.on("error", () => undefined);
  }

  async dispatch(call: ToolCallContent, options: DispatchOptions = {}): Promise<unknown> {
    refuseUnknownDispatchOptions(options ?? {});
    const signal = optionalSignal("signal", options?.signal);
    const approval = optionalToken("approval", options?.approval);
    return resultValue(await this.#settle(call, signal === undefined ? undefined : new AbortFanOut(signal), approval, allowTest(options?.allow)));
  }

  async dispatchAll(calls: readonly ToolCallContent[], options: DispatchAllOptions = {}): Promise<ToolResult[]> {
    checkCalls(calls);
    options ??= {};
    refuseUnknownOptions(options, DISPATCH_ALL_OPTIONS);
    const concurrency = concurrencyOf(options);
    const signal = optionalSignal("signal", options.signal);
    const allowed = allowTest(options.allow);
    const caller = signal === undefined ? undefined : new AbortFanOut(signal);
    const approvalOf = approvalLookup(options.approvals);
    // Each call's approval by its id as the registry reads it (a numbered id as its digits; a getter once, never throwing).
    return settleAll(calls, concurrency, (call) => this.#settle(call, caller, approvalOf?.(readCall(call).id), allowed));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#reachability);
    for (const [jobId, waiters] of this.#waiters) for (const waiter of waiters) waiter({ kind: "closed", jobId });
    this.#waiters.clear();
    this.#lookedAt.clear();
    const events = this.#events;
    // BullMQ's own close can wait for ever on a connection ioredis is still reconnecting: bounded too.
    await withinTime(Promise.allSettled([events?.then((queueEvents) => queueEvents.close()), this.#queue.close()]), this.connectTimeoutMs).catch(() => undefined);
    // A server that takes the connection but never answers would hold `quit` for ever: past the connect timeout, the socket is dropped.
    for (const connection of [this.client, this.eventsClient]) await withinTime(connection.quit(), this.connectTimeoutMs).catch(() => connection.disconnect());
  }

  /** One call to its result: checked, enqueued, awaited; never a rejection. */
  async #settle(call: ToolCallContent, caller: AbortFanOut | undefined, approval: string | undefined, allowed: ((toolName: string) => boolean) | undefined): Promise<ToolResult> {
    let envelope: ToolCallEnvelope;
    try {
      envelope = await this.registry.envelope(call, { ...(approval === undefined ? {} : { approval }), ...(allowed === undefined ? {} : { allow: allowed }) });
    } catch (error) {
      const fields = readCall(call);
      return toFailure(fields.id, fields.shownName, error, modelNamesOf(call));
    }
    const { toolCallId, toolName } = envelope;
    try {
      const settled = await this.#run(envelope, caller);
      const result = resultFromWire(settled, toolCallId, toolName);
      if (result === undefined) return toFailure(toolCallId, toolName, new ToolJobFailedError(toolName, toolCallId, "its job completed with a value that is not this call's result"), modelNamesOf(call));
      // The worker wrote the text without the caller's name map; a call read through one is answered in the model's names.
      const names = modelNamesOf(call);
      return result.status === "error" && names !== undefined ? { ...result, content: failureContent(result.error, names) } : result;
    } catch (error) {
      return toFailure(toolCallId, toolName, error, modelNamesOf(call));
    }
  }

  /** Enqueues the envelope and waits for its job's result, its deadline, or the caller's abort. */
  async #run(envelope: ToolCallEnvelope, caller: AbortFanOut | undefined): Promise<JsonValue> {
    const { toolCallId, toolName } = envelope;
    if (caller?.signal.aborted) throw new ToolAbortedError(toolName, toolCallId, caller.signal.reason, false);
    if (this.#closed) throw new ToolAbortedError(toolName, toolCallId, new Error("the tool queue is closed"), false);
    const jobId = await jobIdOf(envelope);
    await this.#connected(envelope, caller);
    // Closed while the call waited for Redis: `close` has aborted the calls it saw waiting; this one is not sent.
    if (this.#closed) throw new ToolAbortedError(toolName, toolCallId, new Error("the tool queue is closed"), false);
    return new Promise<JsonValue>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let unsubscribe: (() => void) | undefined;
      // Whether the job is in Redis, and why the call gave up on it: an abort may come while it is on its way.
      let added = false;
      let gaveUp: string | undefined;
      const finish = (settle: () => void): void => {
        if (timer !== undefined) clearTimeout(timer);
        unsubscribe?.();
        this.#unwait(jobId, onSettled);
        settle();
      };
      const giveUp = (error: Error, reason: string): void => {
        gaveUp = reason;
        finish(() => reject(error));
        // Another call here that joined the job still waits for it: the job is left to run for it.
        if (added && !this.#waiters.has(jobId)) void this.#cancel(jobId, reason);
      };
      const onSettled = (settled: JobSettlement): void => {
        switch (settled.kind) {
          case "completed":
            return finish(() => resolve(settled.result));
          case "failed":
            return finish(() => reject(new ToolJobFailedError(toolName, toolCallId, settled.reason)));
          case "closed":
            return finish(() => reject(new ToolAbortedError(toolName, toolCallId, new Error("the tool queue is closed"))));
          case "lost":
            return finish(() => reject(new ToolJobFailedError(toolName, toolCallId, settled.reason)));
        }
      };
      const unreachable = (error: unknown): void => finish(() => reject(new ToolQueueConnectionError(toolName, describeConnection(this.client), { cause: withoutCommand(error), refused: isRedisReply(error) })));
      this.#wait(jobId, onSettled);
      if (envelope.deadline !== undefined) {
        const timeout = new ToolTimeoutError(toolName, toolCallId, envelope.timeoutMs ?? 0);
        timer = setTimeout(() => giveUp(timeout, "timeout"), Math.max(0, envelope.deadline - Date.now()));
      }
      if (caller !== undefined) {
        // Once the job is on its way to Redis, a worker may have started it.
        const aborted = (started = true): void => giveUp(new ToolAbortedError(toolName, toolCallId, caller.signal.reason, started), "aborted");
        unsubscribe = caller.subscribe(() => aborted());
        // The signal may have aborted while the call waited for Redis: it hears no more abort events, and nothing was sent.
        if (caller.signal.aborted) return aborted(false);
      }
      this.#queue.add(toolName, envelope, { ...this.jobOptions, jobId, attempts: 1 }).then(
        (job) => {
          added = true;
          if (gaveUp !== undefined) {
            if (!this.#waiters.has(jobId)) void this.#cancel(jobId, gaveUp);
            return;
          }
          this.#enqueued(jobId);
          // A finished job that could not be looked at or replaced (Redis failed meanwhile) would
          // leave the call waiting for a job no one enqueues: it fails as the enqueue would have.
          this.#joinFinished(job, envelope, jobId, onSettled).catch(unreachable);
        },
        unreachable,
      );
    });
  }

  /**
   * Waits for Redis and the queue's events, under the call's deadline and its caller's signal:
   * a call that gives up here was never enqueued.
   */
  async #connected(envelope: ToolCallEnvelope, caller: AbortFanOut | undefined): Promise<void> {
    const { toolCallId, toolName } = envelope;
    const ready = (async () => {
      await whenReady(this.client, this.connectTimeoutMs).catch((error: unknown) => {
        throw new ToolQueueConnectionError(toolName, describeConnection(this.client), { cause: withoutCommand(error) });
      });
      await this.#listening(toolName);
    })();
    if (envelope.deadline === undefined && caller === undefined) return ready;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      if (envelope.deadline !== undefined) {
        const timeout = new ToolTimeoutError(toolName, toolCallId, envelope.timeoutMs ?? 0, false, WAITED_FOR_QUEUE);
        timer = setTimeout(() => reject(timeout), Math.max(0, envelope.deadline - Date.now()));
      }
      if (caller !== undefined) unsubscribe = caller.subscribe(() => reject(new ToolAbortedError(toolName, toolCallId, caller.signal.reason, false)));
    });
    // A wait given up on still ends (within connectTimeoutMs), unheard.
    ready.catch(() => undefined);
    try {
      await Promise.race([ready, gaveUp]);
    } finally {
      clearTimeout(timer);
      unsubscribe?.();
    }
  }

  /**
   * Asks that a job no longer run: removed if it waits, cancelled on its worker if it runs (or is
   * about to: `at`, when the call gave up, lets a worker tell this job from a later one of its id).
   */
  async #cancel(jobId: string, reason: string): Promise<void> {
    const message = JSON.stringify({ jobId, reason, at: Date.now() });
    await Promise.allSettled([this.#queue.remove(jobId), this.client.publish(cancelChannel(this.prefix, this.queueName), message)]);
  }

  #wait(jobId: string, waiter: (settled: JobSettlement) => void): void {
    let waiters = this.#waiters.get(jobId);
    if (waiters === undefined) this.#waiters.set(jobId, (waiters = new Set()));
    waiters.add(waiter);
    // Results arrive as the queue's events. A short break loses none (the events resume where they
    // stopped); Redis that answers nothing for longer than `connectTimeoutMs` fails the calls that
    // wait, rather than leave them waiting for ever. Checked only while calls wait.
    if (this.#reachability === undefined && !this.#closed) {
      this.#reachedAt = Date.now();
      this.#reachability = setInterval(() => void this.#checkReachable(), Math.max(25, this.connectTimeoutMs / 2));
    }
  }

  /** A job waited for is in Redis: from now on, `#checkJobs` looks at it when it has waited long. */
  #enqueued(jobId: string): void {
    if (!this.#waiters.has(jobId) || this.#lookedAt.has(jobId)) return;
    const now = Date.now();
    this.#lookedAt.set(jobId, { since: now, at: now, missing: false });
  }

  #unwait(jobId: string, waiter: (settled: JobSettlement) => void): void {
    const waiters = this.#waiters.get(jobId);
    if (waiters?.delete(waiter) && waiters.size === 0) {
      this.#waiters.delete(jobId);
      this.#lookedAt.delete(jobId);
    }
    if (this.#waiters.size === 0) {
      clearInterval(this.#reachability);
      this.#reachability = undefined;
    }
  }

  /** Asks Redis for an answer; once none came for longer than `connectTimeoutMs`, every waiting call fails. */
  async #checkReachable(): Promise<void> {
    try {
      await withinTime(this.client.ping(), this.connectTimeoutMs);
      this.#reachedAt = Date.now();
      if (this.#reachedAt - this.#jobsCheckedAt >= this.#jobCheckMs()) {
        this.#jobsCheckedAt = this.#reachedAt;
        await this.#checkJobs();
      }
    } catch {
      if (this.#closed || Date.now() - this.#reachedAt <= this.connectTimeoutMs) return;
      this.#loseWaiters(`the connection to ${describeConnection(this.client)} was lost while its result was awaited`);
    }
  }

  /** How long a job is waited for before `#checkJobs` looks at it, and how often after. */
  #jobCheckMs(): number {
    return Math.max(1_000, 2.5 * this.connectTimeoutMs);
  }

  /**
   * Looks in Redis at the jobs waited for longest, a few at a time, for outcomes their events did
   * not tell: the queue's events stream is trimmed (about 10,000 entries), so a process that fell
   * behind (a busy or frozen event loop, thousands of calls at once) never reads some; and a job
   * Redis lost (a restart without persistence, a failover) or another caller removed tells nothing.
   * A job that finished since its call waited settles it; a job no longer there at two looks (one
   * finished and removed at once, `removeOnComplete`, may have its event still on the way) fails it
   * as one whose tool may have run. Each job is looked at most once per {@link #jobCheckMs}.
   */
  async #checkJobs(): Promise<void> {
    const now = Date.now();
    const due: string[] = [];
    for (const [jobId, looked] of this.#lookedAt) {
      if (now - looked.at < this.#jobCheckMs()) break;
      due.push(jobId);
      if (due.length === JOBS_CHECKED_AT_ONCE) break;
    }
    for (const jobId of due) {
      // Looked at now: it goes to the end of the line.
      const { since, missing } = this.#lookedAt.get(jobId)!;
      this.#lookedAt.delete(jobId);
      const job = await this.#queue.getJob(jobId).catch(() => null);
      if (!this.#waiters.has(jobId)) continue;
      this.#lookedAt.set(jobId, { since, at: now, missing: job === undefined });
      if (job === null) continue;
      if (job === undefined) {
        if (missing) this.#settled({ kind: "lost", jobId, reason: "its job is no longer in the queue (Redis lost it, or another caller cancelled it)" });
      }
      // A job that finished before this call waited is a former run, which the enqueue replaces (see
      // #joinFinished). The worker's clock is read against this one's, with a second's leeway.
      else if (job.finishedOn !== undefined && job.finishedOn >= since - CLOCK_LEEWAY_MS) this.#settled(settlementOf(job));
    }
  }

  /** Fails every waiting call as one whose tool may have run: its result can no longer be heard. */
  #loseWaiters(reason: string): void {
    for (const jobId of [...this.#waiters.keys()]) this.#settled({ kind: "lost", jobId, reason });
  }

  #settled(settled: JobSettlement): void {
    const waiters = this.#waiters.get(settled.jobId);
    if (waiters !== undefined) for (const waiter of [...waiters]) waiter(settled);
  }

  /**
   * The queue's events, listened to from the server's present moment on (so that no job that
   * completes after its enqueue goes unheard), made on the first call. A failure to set them up is
   * the call's `ToolQueueConnectionError`, and is not kept: the next call tries again.
   */
  #listening(toolName: string): Promise<QueueEvents> {
    this.#events ??= this.#listen().catch((error: unknown) => {
      this.#events = undefined;
      throw error;
    });
    return this.#events.catch((error: unknown) => {
      throw new ToolQueueConnectionError(toolName, describeConnection(this.client), { cause: withoutCommand(error) });
    });
  }

  async #listen(): Promise<QueueEvents> {
    // A Redis that took the connection and stopped answering would hold the call here for ever.
    const [seconds, microseconds] = (await withinTime(this.client.time(), this.connectTimeoutMs)) as [number | string, number | string];
    const now = Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
    const events = new QueueEvents(this.queueName, { connection: this.eventsClient, prefix: this.prefix, lastEventId: `${now - 1}-0`, autorun: false });
    events.on("error", () => undefined);
    events.on("completed", ({ jobId, returnvalue }) => this.#settled(completion(jobId, returnvalue)));
    events.on("failed", ({ jobId, failedReason }) => this.#settled({ kind: "failed", jobId, reason: failedReason }));
    try {
      await withinTime(events.waitUntilReady(), this.connectTimeoutMs);
    } catch (error) {
      void events.close().catch(() => undefined);
      throw error;
    }
    // BullMQ's loop over the events ends for good at an event it cannot read (a completion whose
    // value is not JSON, written by another program): the calls waiting can no longer hear their
    // results, and fail; the next call listens anew.
    events.run().catch(() => {
      if (this.#closed) return;
      this.#events = undefined;
      void events.close().catch(() => undefined);
      this.#loseWaiters("the queue's events could not be read while its result was awaited");
    });
    return events;
  }

  /**
   * After an enqueue that met a job of the same id: a job still waiting or running is joined (its
   * events will tell), and so is one that finished while the enqueue was on its way, when its
   * outcome is final. A job that had finished before, or without a final outcome (a repeat of an
   * aborted or timed-out call, or of one that waited for approval), is replaced: the call runs
   * again, as the local registry runs a call given twice (a `once` tool is kept once by its ledger).
   */
  async #joinFinished(added: Job, envelope: ToolCallEnvelope, jobId: string, onSettled: (settled: JobSettlement) => void): Promise<void> {
    const job = await this.#queue.getJob(jobId);
    if (job?.finishedOn === undefined || job.timestamp === added.timestamp) return;
    const settlement = settlementOf(job);
    // Another conversation may reuse a call id (models number calls from 0): a result kept from
    // before this enqueue is not this call's. The clocks compared are the worker's and this process's.
    if (job.finishedOn >= added.timestamp && isFinal(settlement)) return onSettled(settlement);
    // One repeat replaces it; the others wait for the job it enqueues, as they would for any.
    const claimed = await this.client.set(replaceClaimKey(this.prefix, this.queueName, jobId, job.timestamp), "1", "PX", REPLACE_CLAIM_MS, "NX");
    if (claimed !== "OK") return;
    await this.#queue.remove(jobId);
    await this.#queue.add(envelope.toolName, envelope, { ...this.jobOptions, jobId, attempts: 1 });
  }
}

/** How far a worker's clock may run behind this process's for `#checkJobs` to take a finished job as the call's. */
const CLOCK_LEEWAY_MS = 1_000;

/** The most jobs `#checkJobs` looks at in one go. */
const JOBS_CHECKED_AT_ONCE = 100;

/** How long a repeat's claim to replace a finished job holds. */
const REPLACE_CLAIM_MS = 60_000;

/** A finished job's outcome, as its events would have told it. */
function settlementOf(job: Job): JobSettlement {
  const jobId = String(job.id);
  if (job.failedReason !== undefined && job.failedReason !== null && job.returnvalue === null) return { kind: "failed", jobId, reason: job.failedReason };
  return completion(jobId, job.returnvalue);
}

/** A completed job's settlement; a return value that is not JSON text fails the call (its tool may have run). */
function completion(jobId: string, returnvalue: unknown): JobSettlement {
  if (typeof returnvalue !== "string") return { kind: "completed", jobId, result: returnvalue as JsonValue };
  try {
    return { kind: "completed", jobId, result: JSON.parse(returnvalue) as JsonValue };
  } catch {
    return { kind: "failed", jobId, reason: "its job completed with a value that is not JSON" };
  }
}

// Outcomes that another try may change, none of which completed the tool: the call was aborted,
// timed out, could not reach its queue, waited for approval, was declined or its approval refused.
const PASSING_ERRORS = new Set(["ToolAbortedError", "ToolTimeoutError", "ToolQueueConnectionError", "ToolApprovalRequiredError", "ToolApprovalError", "ToolDeniedError"]);
const PASSING_STATUSES = new Set(["approval-required", "denied"]);

/**
 * Whether a finished job's outcome is the call's for good, for a repeat to be given: a value, or
 * an error other than those of {@link PASSING_ERRORS}. A job the queue failed is final: its tool
 * may have run.
 */
function isFinal(settlement: JobSettlement): boolean {
  if (settlement.kind !== "completed") return true;
  const result = settlement.result;
  if (!isRecord(result) || typeof result.status !== "string") return true;
  if (PASSING_STATUSES.has(result.status)) return false;
  const error = result.status === "error" && isRecord(result.error) ? result.error : undefined;
  return !(typeof error?.name === "string" && PASSING_ERRORS.has(error.name));
}

/** How a call's job ended, as the queue's events tell it. */
type JobSettlement =
  | { readonly kind: "completed"; readonly jobId: string; readonly result: JsonValue }
  | { readonly kind: "failed"; readonly jobId: string; readonly reason: string }
  | { readonly kind: "closed"; readonly jobId: string }
  | { readonly kind: "lost"; readonly jobId: string; readonly reason: string };

/**
 * A job id from the call's id, its fingerprint and its approval token's hash: the same call
 * enqueued twice while it is in flight is one job (a finished one is replaced by a new job of the
 * same id); a reused id with other arguments is another, and so is the call dispatched again with
 * the approval it waited for.
 */
async function jobIdOf(envelope: ToolCallEnvelope): Promise<string> {
  const approval = envelope.approval === undefined ? "" : `\n${hex(await sha256(envelope.approval))}`;
  return hex(await sha256(`${envelope.toolCallId}\n${envelope.fingerprint}${approval}`));
}
