import { ToolAbortedError, ToolLedgerError } from "../errors.js";
import { isToolContent, toolContent } from "../results/content.js";
import { isJsonData } from "../results/json-data.js";
import type { ReuseKind } from "../types.js";
import type { LateWatcher } from "../dispatch/run.js";
import type { JsonValue, LedgerSetOptions, LedgerStore } from "./ledger.js";

/** What a registry's ledger has done: see `registry.ledgerStats()`. */
export interface LedgerStats {
  /** Handlers run for tools that declare `effects`. */
  runs: number;
  /** Calls that joined an identical call in flight instead of running. */
  inFlight: number;
  /** Calls answered from a `read-only` tool's memoized result. */
  cache: number;
  /** Calls of `once` tools answered by replaying the stored result. */
  ledger: number;
  /** Calls of `once` tools refused because an earlier identical call's outcome is unknown. */
  inDoubt: number;
  /** Ledger store calls that failed (a `once` or approval call fails closed; a cache miss runs). */
  storeErrors: number;
}

/** A result shared by identical calls: the value, and how it came to be when no handler ran. */
export interface SharedResult {
  readonly value: unknown;
  readonly reused: ReuseKind | undefined;
}

/** A call's way to its handler, for the ledger to take or leave. */
export interface Execution {
  /**
   * Runs the handler; `watcher` hears when the call is given up while its handler runs on, and when
   * that handler settles; `onRun` is told each time the handler is about to run (a retry too), and
   * never for a call refused before it (a rate limit, the circuit breaker, its turn given up).
   */
  run(watcher: LateWatcher | undefined, onRun?: () => void): Promise<unknown>;
  /** The call will not run (it joined another, or its result was reused): what it held for running is given back. */
  skip(): void;
  /** The call must run after all (the run it joined was aborted by its own caller): it takes a new place in line. */
  renew(): void;
  /** Waits for the run of an identical call this call joined, until this call's own caller aborts. */
  join<T>(running: Promise<T>): Promise<T>;
  /** Whether this call's own caller has aborted it. */
  aborted(): boolean;
  /**
   * Waits for a ledger store call made for this call, until its caller aborts or its time limit
   * passes: a store that does not answer never holds the call past either.
   * @throws ToolAbortedError or ToolTimeoutError (not started) when one of them comes first
   */
  wait<T>(pending: Promise<T>): Promise<T>;
}

/** How a call's effects are governed: which ledger entries it reads and writes. */
export interface EffectRule {
  readonly toolName: string;
  /** The tool's registration: calls join only a run of the same one (a tool registered again under its name has its own). */
  readonly registration: object;
  readonly effects: "read-only" | "idempotent" | "once";
  readonly cacheTtlMs: number | undefined;
  readonly onceTtlMs: number;
}

/** A `once` call's ledger entry: started (and not known to have finished), or done with its result. */
type OnceRecord = { state: "running"; since: string } | { state: "done"; at: string; result?: JsonValue; unrecorded?: true };

/**
 * Deduplication by call fingerprint: identical calls at the same time share one run; a `read-only`
 * tool's result may be memoized; a `once` call is claimed in the ledger before it runs, its result
 * stored after, and a repeat replays it. Any ledger failure on a `once` call refuses the call
 * (fail closed); a failed cache read or write only costs a run.
 */
export class CallLedger {
  /** The runs in flight, by registration, then by fingerprint. */
  readonly #inFlight = new WeakMap<object, Map<string, InFlightRun>>();
  readonly #adding = new Set<string>();
  readonly stats: LedgerStats = { runs: 0, inFlight: 0, cache: 0, ledger: 0, inDoubt: 0, storeErrors: 0 };

  constructor(readonly store: LedgerStore) {}

  /** Counts a run of a handler, as it starts. */
  readonly #counted = (): void => {
    this.stats.runs++;
  };

  /** The call's result: joined from an identical call in flight, else from the cache or the ledger, else run. */
  share(fingerprint: string, rule: EffectRule, execution: Execution): Promise<SharedResult> {
    let inFlight = this.#inFlight.get(rule.registration);
    if (inFlight === undefined) this.#inFlight.set(rule.registration, (inFlight = new Map()));
    const running = inFlight.get(fingerprint);
    if (running !== undefined) {
      this.stats.inFlight++;
      running.joined = true;
      // Its place in line is given up at once (kept, it could be ahead of the run it waits for). If
      // that run's own caller aborts it, this call (whose caller did not) runs, or joins, anew.
      execution.skip();
      return execution.join(running.result).then(
        (shared): SharedResult => ({ value: running.json === undefined ? shared.value : revive(JSON.parse(running.json) as JsonValue), reused: "in-flight" }),
        (error: unknown) => {
          if (!(error instanceof ToolAbortedError) || execution.aborted()) throw error;
          this.stats.inFlight--;
          execution.renew();
          return this.share(fingerprint, rule, execution);
        },
      );
    }
    const own = this.#produce(fingerprint, rule, execution);
    const run: InFlightRun = { result: own, joined: false, json: undefined };
    inFlight.set(fingerprint, run);
    const done = (): void => {
      if (inFlight.get(fingerprint) === run) inFlight.delete(fingerprint);
    };
    // Taken before the caller that ran it resumes (its own reaction comes after this one), so that
    // what that caller or its `after` hooks change in the value, no joined call sees.
    own.then(
      (shared) => {
        if (run.joined) run.json = joinedJson(shared.value);
      },
      () => undefined,
    );
    own.then(done, done);
    return own;
  }

  async #produce(fingerprint: string, rule: EffectRule, execution: Execution): Promise<SharedResult> {
    if (rule.effects === "once") return this.#once(fingerprint, rule, execution);
    const key = `cache:${fingerprint}`;
    if (rule.cacheTtlMs !== undefined) {
      const cached = await execution.wait(this.#tolerant(() => this.store.get(key)));
      if (isRecord(cached) && "result" in cached) {
        this.stats.cache++;
        execution.skip();
        return { value: revive(cached.result), reused: "cache" };
      }
    }
    const value = await execution.run(undefined, this.#counted);
    const result = recordable(value);
    if (rule.cacheTtlMs !== undefined && result !== NOT_JSON) {
      // The handler ran: its value is the call's, however long the store takes to keep it.
      await execution.wait(this.#tolerant(() => this.store.set(key, { result }, { ttlMs: rule.cacheTtlMs!, evictable: true }))).catch(ignore);
    }
    return { value, reused: undefined };
  }

  async #once(fingerprint: string, rule: EffectRule, execution: Execution): Promise<SharedResult> {
    const key = `once:${fingerprint}`;
    const ttl = { ttlMs: rule.onceTtlMs };
    const claim: OnceRecord = { state: "running", since: new Date().toISOString() };
    const claiming = this.#strict(rule.toolName, () => this.#add(key, claim, ttl));
    let claimed: boolean;
    try {
      claimed = await execution.wait(claiming);
    } catch (error) {
      // Given up before the store answered: a claim it makes after is given back, since nothing ran.
      claiming.then((made) => {
        if (made) void this.#tolerant(() => this.store.delete(key));
      }, ignore);
      throw error;
    }
    if (!claimed) {
      execution.skip();
      return this.#replay(rule.toolName, await execution.wait(this.#strict(rule.toolName, () => this.store.get(key))));
    }
    let abandoned = false;
    const watcher: LateWatcher = {
      abandoned: () => {
        abandoned = true;
      },
      settled: (settlement) => {
        // The outcome is known at last: a result is kept for replay; a failure frees the arguments to run again.
        void this.#tolerant(() => (settlement.fulfilled ? this.store.set(key, doneRecord(settlement.value), ttl) : this.store.delete(key)));
      },
    };
    let value: unknown;
    try {
      value = await execution.run(watcher, this.#counted);
    } catch (error) {
      // Given up while the handler runs on: the claim stays until it settles, and the watcher records the outcome then.
      if (!abandoned) await execution.wait(this.#tolerant(() => this.store.delete(key))).catch(ignore);
      throw error;
    }
    // A failed (or unanswered) write leaves the claim: later identical calls are refused as in doubt, never run again.
    await execution.wait(this.#tolerant(() => this.store.set(key, doneRecord(value), ttl))).catch(ignore);
    return { value, reused: undefined };
  }

  #replay(toolName: string, found: JsonValue | undefined): SharedResult {
    const record = found as OnceRecord | undefined;
    if (isRecord(record) && record.state === "done") {
      if (record.unrecorded === true) throw new ToolLedgerError(toolName, "unrecorded");
      this.stats.ledger++;
      return { value: revive(record.result), reused: "ledger" };
    }
    // Claimed by a run that has not recorded an outcome (or expired between the claim and this read).
    this.stats.inDoubt++;
    throw new ToolLedgerError(toolName, "in-doubt");
  }

  /**
   * Marks `key` as used for `ttlMs`, once: whether this was its first use (an approval token's nonce).
   * @param by what used it (an envelope's delivery), for {@link usedBy}
   * @throws ToolLedgerError `"unavailable"` when the store fails
   */
  markUsed(toolName: string, key: string, ttlMs: number, by?: string): Promise<boolean> {
    const ttl = { ttlMs };
    const used = by === undefined ? { usedAt: new Date().toISOString() } : { usedAt: new Date().toISOString(), by };
    return this.#strict(toolName, () => this.#add(key, used, ttl));
  }

  /**
   * What used `key` (see {@link markUsed}'s `by`), when it said.
   * @throws ToolLedgerError `"unavailable"` when the store fails
   */
  async usedBy(toolName: string, key: string): Promise<string | undefined> {
    const record = await this.#strict(toolName, () => this.store.get(key));
    return isRecord(record) && typeof record.by === "string" ? record.by : undefined;
  }

  /**
   * Gives back a mark {@link markUsed} made for a call that then did not run. Best effort: a mark
   * that could not be deleted leaves the token used, which fails closed.
   */
  async unmark(key: string): Promise<void> {
    await this.#tolerant(() => this.store.delete(key));
  }

  /**
   * The store's atomic `add`, or else a read then a write, made atomic within this registry: a key
   * being added is refused to a second adder until the first is done. The store's own `add` is
   * asked every time: a call that gave up on an `add` that never answered must not hold its key
   * for the next call (which would then be refused as in doubt, with nothing run).
   */
  async #add(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean> {
    if (this.store.add !== undefined) return this.store.add(key, value, options);
    if (this.#adding.has(key)) return false;
    this.#adding.add(key);
    try {
      // A store may say "nothing" with null, as Redis and many clients do: the registry never stores null.
      const existing = await this.store.get(key);
      if (existing !== undefined && existing !== null) return false;
      await this.store.set(key, value, options);
      return true;
    } finally {
      this.#adding.delete(key);
    }
  }

  /** A store call whose failure refuses the call. */
  async #strict<T>(toolName: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      this.stats.storeErrors++;
      throw new ToolLedgerError(toolName, "unavailable", { cause: error });
    }
  }

  /** A store call whose failure is counted and otherwise ignored. */
  async #tolerant<T>(step: () => Promise<T>): Promise<T | undefined> {
    try {
      return await step();
    } catch {
      this.stats.storeErrors++;
      return undefined;
    }
  }
}

/** For a store call whose outcome the call no longer waits for. */
function ignore(): void {}

export const NOT_JSON = Symbol("not JSON");

/** A result as the ledger keeps it: JSON, `{ value }` (`{}` for `undefined`) or a rich result's items; {@link NOT_JSON} when it has none. */
export function recordable(value: unknown): JsonValue | typeof NOT_JSON {
  const text = recordedText(value);
  return text === undefined ? NOT_JSON : (JSON.parse(text) as JsonValue);
}

/** The JSON text of {@link recordable}'s record, or `undefined` when it has none. */
function recordedText(value: unknown): string | undefined {
  try {
    const subject = isToolContent(value) ? { toolContent: value.content, ...("structuredContent" in value ? { structuredContent: value.structuredContent } : {}) } : { value };
    const text = JSON.stringify(subject);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

function doneRecord(value: unknown): OnceRecord {
  const result = recordable(value);
  const at = new Date().toISOString();
  return result === NOT_JSON ? { state: "done", at, unrecorded: true } : { state: "done", at, result };
}

/** A run in flight: its result, whether a call joined it, and the JSON each joined call's copy is read from. */
interface InFlightRun {
  readonly result: Promise<SharedResult>;
  joined: boolean;
  json: string | undefined;
}

/**
 * The JSON text of the value a run gave, as the ledger records it, from which each joined call
 * reads a copy of its own, as a replay from the cache or the ledger is one: what one caller (or its
 * `after` hook) changes in its result, no other caller sees. `undefined` for a value JSON would
 * change (a class instance, a `Date`, a `Map`), which is shared as it is.
 */
function joinedJson(value: unknown): string | undefined {
  return isToolContent(value) || isJsonData(value) ? recordedText(value) : undefined;
}

/** A recorded result as a value again: a fresh copy, a rich result rebuilt. */
export function revive(result: JsonValue | undefined): unknown {
  if (!isRecord(result)) return undefined;
  if (Array.isArray(result.toolContent)) {
    return toolContent(result.toolContent as never, "structuredContent" in result ? { structuredContent: result.structuredContent } : {});
  }
  return result.value;
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
