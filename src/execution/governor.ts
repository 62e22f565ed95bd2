import { ToolAbortedError, ToolApprovalError, ToolArgumentsValidationError, ToolExecutionError, ToolHookError, ToolRateLimitedError, ToolTimeoutError, ToolUnavailableError } from "../errors.js";
import type { AbortFanOut } from "../dispatch/abort-fan-out.js";
import type { PreparedCall, RegisteredTool } from "../dispatch/prepare.js";
import { type ExecutionTracker, type LateWatcher, runCall } from "../dispatch/run.js";
import type { Ticket } from "../policy/locks.js";
import type { ApprovalPredicate, CallContext, ToolPolicy } from "../policy/policy.js";
import { retryDelay, wait } from "../policy/retry.js";
import { checkOutput } from "../results/output.js";
import { fitResult } from "../results/truncate.js";
import { hookDeniedMessage } from "../text/denied.js";
import type { ReuseKind } from "../types.js";
import type { CompiledValidator } from "../validation/cache.js";
import type { ApprovalClaims, ApprovalRequest, ApprovalSigner } from "./approvals.js";
import type { CallLedger, Execution, SharedResult } from "./effects.js";
import type { Delivery } from "./envelope.js";
import { callFingerprint } from "./fingerprint.js";
import { readsAsJson } from "../results/json-data.js";
import { type HookCall, runAfter, runBefore, type ToolHooks } from "./hooks.js";
import type { ResourceLocks } from "../policy/locks.js";

/**
 * How long a used token's nonce is kept past the token's expiry: a registry sharing the ledger whose
 * clock runs behind this one's by less than that still finds it used while it thinks the token good.
 */
const CLOCK_SKEW_MARGIN_MS = 5 * 60_000;

/** The issue of arguments a person could not be shown as they would run. */
const NOT_APPROVABLE = "/: arguments must be JSON data (no Map, Set, Date, NaN or undefined item) for a person to approve them";

/** What a call whose time ran out before its ledger store answered waited for, as its message says it. */
const WAITED_FOR_LEDGER = "its ledger store did not answer in that time";
/** What a call whose time ran out before its `before` hooks answered waited for. */
const WAITED_FOR_HOOKS = "its before hooks did not answer in that time";
/** What a call whose time ran out before its `needsApproval` rule answered waited for. */
const WAITED_FOR_APPROVAL_RULE = "its needsApproval rule did not answer in that time";

/** The place in line a call holds for its resources: a new one when it gave its place up and must run after all. */
interface Holds {
  current: Hold | undefined;
}

/** One call on the governed path, prepared, with what its caller gave. */
export interface GovernedCall {
  readonly prepared: PreparedCall;
  readonly caller: AbortFanOut | undefined;
  readonly timeoutMs: number | undefined;
  /** The approval token the caller gave for this call, if any. */
  readonly approval: string | undefined;
  /** An envelope's delivery, when its transport named it: see {@link Governor.#useApproval}. */
  readonly delivery: Delivery | undefined;
  readonly data: unknown;
}

/** How a governed call ended; the registry turns it into a result (or a value or a rejection, for `dispatch`). */
export type Outcome =
  | { readonly kind: "ok"; readonly value: unknown; readonly reused: ReuseKind | undefined; readonly truncated: boolean }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "approval"; readonly request: ApprovalRequest }
  | { readonly kind: "denied"; readonly toolName: string; readonly content: string };

/** What the governed path needs of its registry. */
export interface GovernorServices {
  readonly ledger: CallLedger;
  readonly locks: ResourceLocks;
  /** Signs and verifies approval tokens: under the registry's `approvalSecret`, or a random secret of its own. */
  readonly signer: ApprovalSigner;
  readonly tracker: ExecutionTracker;
  /** The registry's hooks, in order (read at each call). */
  hooks(): readonly ToolHooks[];
  /** Arguments a hook gave, as a checked private copy. @throws ToolHookError with the issues when the schema refuses them */
  recheck(tool: RegisteredTool, value: unknown): unknown;
  /** The cached validator of a tool's `outputSchema`. */
  outputValidator(tool: RegisteredTool): CompiledValidator;
  /** The registry's `maxResultBytes`, if set. */
  readonly maxResultBytes: number | undefined;
}

/**
 * The governed path of a call, after the prepare step, in this order: its place in line for the
 * resources it holds (taken at once, so calls keep the order they came in), `before` hooks,
 * approval (the token checked), deduplication through the ledger, then, for a call that really
 * runs: its rate limit, its turn for the resources, its circuit breaker (asked before the wait too,
 * so an open circuit refuses at once), its approval token used up, the handler (retried if the tool
 * allows), the output check, `after` hooks, and the cut to `maxResultBytes`. A call whose tool has
 * none of these options, on a registry that sets none, never comes here.
 */
export class Governor {
  constructor(readonly services: GovernorServices) {}

  /** Runs the call; never rejects: a failure is an outcome. */
  async run(call: GovernedCall): Promise<Outcome> {
    try {
      return await this.#run(call);
    } catch (error) {
      return { kind: "error", error };
    }
  }

  async #run(call: GovernedCall): Promise<Outcome> {
    const policy = call.prepared.tool.policy;
    // Taken before the first await: calls take their places in the order they started.
    const holds: Holds = { current: policy !== undefined && policy.claims.length > 0 ? new Hold(this.services.locks.reserve(policy.claims)) : undefined };
    try {
      return await this.#govern(call, policy, holds);
    } finally {
      holds.current?.finish();
    }
  }

  async #govern(call: GovernedCall, policy: ToolPolicy | undefined, holds: Holds): Promise<Outcome> {
    const { tool, toolCallId } = call.prepared;
    // Its caller's abort was heard before the call was prepared; from the first await on, it is heard here.
    const notAborted = (): void => {
      if (call.caller?.signal.aborted) throw new ToolAbortedError(tool.name, toolCallId, call.caller.signal.reason, false);
    };
    const context: CallContext = call.data === undefined ? { toolCallId, toolName: tool.name } : { toolCallId, toolName: tool.name, data: call.data };
    const hooks = this.services.hooks();
    let prepared = call.prepared;
    // Hooks and the approval rule are the user's code, given no signal: the call waits for them only
    // until its caller aborts or its time runs out, as for its ledger store.
    if (hooks.some((hook) => hook.before !== undefined)) {
      const before = await bounded(runBefore(hooks, hookCall(prepared), context, (value) => this.services.recheck(tool, value)), tool.name, toolCallId, call.caller, call.timeoutMs, false, WAITED_FOR_HOOKS);
      if (before.denied) return { kind: "denied", toolName: tool.name, content: hookDeniedMessage(tool.name, before.reason) };
      // Copied and checked again however the hooks left them: one may have changed the object it was
      // given in place (or keep it, and change it while the handler runs), where only a returned value is checked.
      prepared = { ...prepared, args: this.services.recheck(tool, before.arguments) };
      notAborted();
    }
    const args = prepared.args;
    let fingerprint: Promise<string> | undefined;
    const fingerprintOf = (): Promise<string> => (fingerprint ??= callFingerprint(tool.name, args));
    // A token is checked now, and used up only when the handler is about to run (see #execute).
    let approval: ApprovalClaims | undefined;
    if (call.approval !== undefined) approval = await this.#verifyApproval(call, await fingerprintOf());
    else if (policy?.needsApproval !== undefined && (await bounded(approvalNeeded(policy.needsApproval, args, context), tool.name, toolCallId, call.caller, call.timeoutMs, false, WAITED_FOR_APPROVAL_RULE))) {
      // A person approves what the request shows, its JSON: arguments JSON would change (a Map, NaN) are not shown as they would run.
      if (!readsAsJson(args, true)) throw new ToolArgumentsValidationError(tool.name, [NOT_APPROVABLE]);
      const request = approvalRequest(prepared, await fingerprintOf());
      // No person is asked to approve a call of a turn its caller has given up.
      notAborted();
      return { kind: "approval", request };
    }
    const execution: Execution = {
      run: (watcher, onRun) => this.#execute(prepared, call, context, holds.current, watcher, approval, onRun),
      skip: () => holds.current?.finish(),
      // A place at the end of the line, for a call that gave its place up to join a run that did not finish.
      renew: () => {
        if (holds.current !== undefined) holds.current = new Hold(this.services.locks.reserve(policy!.claims));
      },
      join: (running) => bounded(running, tool.name, toolCallId, call.caller, undefined, true),
      aborted: () => call.caller?.signal.aborted === true,
      wait: (pending) => bounded(pending, tool.name, toolCallId, call.caller, call.timeoutMs, false),
    };
    const effects = policy?.effects;
    const shared: SharedResult =
      effects === undefined
        ? { value: await execution.run(undefined), reused: undefined }
        : await this.services.ledger.share(await fingerprintOf(), { toolName: tool.name, registration: tool, effects, cacheTtlMs: policy!.cacheTtlMs, onceTtlMs: policy!.onceTtlMs }, execution);
    if (policy?.outputSchema !== undefined) checkOutput(tool.name, toolCallId, this.services.outputValidator(tool), shared.value);
    // The handler is done: its time limit no longer applies, and a slow `after` hook (a log, an audit)
    // does not fail a call whose tool completed. Only an abort heard while a hook keeps the call
    // waiting ends it (a value the handler gave after its caller aborted is still the call's).
    const value = hooks.some((hook) => hook.after !== undefined)
      ? await bounded(runAfter(hooks, hookCall(prepared), shared.reused === undefined ? { value: shared.value } : { value: shared.value, reused: shared.reused }, context), tool.name, toolCallId, call.caller?.signal.aborted ? undefined : call.caller, undefined, true)
      : shared.value;
    const maxBytes = policy?.maxResultBytes ?? this.services.maxResultBytes;
    const fitted = maxBytes === undefined || maxBytes === Infinity ? { value, truncated: false } : fitResult(value, maxBytes);
    return { kind: "ok", value: fitted.value, reused: shared.reused, truncated: fitted.truncated };
  }

  /**
   * Runs the handler of a call that must really run: rate limit, its turn for its resources, circuit
   * breaker, its approval token used up, then the handler, retried after an execution failure if the
   * tool allows.
   */
  async #execute(prepared: PreparedCall, call: GovernedCall, context: CallContext, hold: Hold | undefined, watcher: LateWatcher | undefined, approval: ApprovalClaims | undefined, onRun?: () => void): Promise<unknown> {
    const { tool, toolCallId } = prepared;
    const policy = tool.policy;
    // A caller that aborted while the call was fingerprinted, or looked up in its ledger, takes no run.
    if (call.caller?.signal.aborted) throw new ToolAbortedError(tool.name, toolCallId, call.caller.signal.reason, false);
    const rateLimit = policy?.rateLimit;
    // Each run of the handler takes one call of the rate limit (a retry too), when it starts; one
    // taken by a call that then never ran (refused by the circuit breaker, aborted before its
    // handler started) is given back.
    const scope = rateLimit === undefined ? undefined : rateLimitKey(tool.name, rateLimit.key, context);
    /** Takes a run at `at`: 0 when taken (or there is no limit), else how long until one could be. */
    const takeRun = (at = performance.now()): number => (rateLimit === undefined ? 0 : rateLimit.limiter.take(scope!, at));
    const waits = hold !== undefined && !hold.ticket.held;
    // A call that must wait for its turn takes its run when the turn comes: calls that waited
    // through several windows would otherwise start together, past the limit. One over the limit
    // already is refused at once, rather than after a wait for a turn it could not use.
    const arrivedAt = performance.now();
    const refusedNow = waits ? (rateLimit?.limiter.refusal(scope!, arrivedAt) ?? 0) : takeRun(arrivedAt);
    if (refusedNow > 0) throw new ToolRateLimitedError(tool.name, refusedNow);
    let takenAt = waits ? Number.NaN : arrivedAt;
    /** Gives back the run taken at `at`, if one was. */
    const giveBack = (at = takenAt): void => {
      if (!Number.isNaN(at)) rateLimit?.limiter.giveBack(scope!, at);
    };
    const breaker = policy?.breaker;
    try {
      if (waits) {
        // An open circuit refuses at once too.
        const refusedFor = breaker?.refusal() ?? 0;
        if (refusedFor > 0) throw new ToolUnavailableError(tool.name, refusedFor);
        await hold.acquire(tool.name, toolCallId, call.caller, call.timeoutMs);
        const at = performance.now();
        const overFor = takeRun(at);
        if (overFor > 0) throw new ToolRateLimitedError(tool.name, overFor);
        takenAt = at;
      }
      // Asked once the call's turn came: the calls before it may have opened the circuit meanwhile.
      const refusedFor = breaker?.admit(call) ?? 0;
      if (refusedFor > 0) throw new ToolUnavailableError(tool.name, refusedFor);
    } catch (error) {
      giveBack();
      throw error;
    }
    /** The ledger key of the approval this run marked used, if it marked one. */
    let approvalMark: string | undefined;
    if (approval !== undefined) {
      try {
        approvalMark = await this.#useApproval(call, approval);
      } catch (error) {
        breaker?.released(call);
        giveBack();
        throw error;
      }
    }
    const retry = policy?.retry;
    let retryTakenAt = takenAt;
    let lastFailure: unknown;
    for (let attempt = 0; ; attempt++) {
      let abandoned = false;
      hold?.attemptStarted();
      const attemptWatcher: LateWatcher = {
        abandoned: () => {
          abandoned = true;
          watcher?.abandoned();
        },
        settled: (settlement) => {
          hold?.attemptSettled();
          watcher?.settled(settlement);
        },
      };
      try {
        onRun?.();
        const value = await runCall(prepared, call.caller, call.timeoutMs, this.services.tracker, call.data, attemptWatcher);
        hold?.attemptSettled();
        breaker?.succeeded();
        return value;
      } catch (error) {
        lastFailure = error;
        if (!abandoned) hold?.attemptSettled();
        const failed = error instanceof ToolExecutionError && !(error instanceof ToolAbortedError);
        if (failed) breaker?.failed();
        else breaker?.released(call);
        if (error instanceof ToolAbortedError && !error.started) {
          // Aborted between its approval's use and its handler (a few turns of the event loop): it
          // never ran, so it gives its run back, and its first attempt its approval too.
          giveBack(retryTakenAt);
          if (attempt === 0 && approvalMark !== undefined) void this.services.ledger.unmark(approvalMark);
          throw error;
        }
        if (!failed || retry === undefined || attempt >= retry.retries || (breaker !== undefined && breaker.admit(call) > 0)) throw error;
        // A retry never overlaps the attempt it replaces where runs are limited: an attempt given up
        // on (timed out) that still runs is waited for, for one more time limit, else the call fails.
        if (abandoned && hold !== undefined && !(await hold.idle(call.timeoutMs, call.caller, () => new ToolAbortedError(tool.name, toolCallId, call.caller?.signal.reason)))) throw error;
        // A retry is a run: over the rate limit already, the call ends with its last failure. Its
        // run is taken when it starts, after its wait.
        if ((rateLimit?.limiter.refusal(scope!) ?? 0) > 0) {
          breaker?.released(call);
          throw error;
        }
      }
      const signal = call.caller;
      try {
        // An abort already heard fires no listener: the caller may have aborted as the attempt failed.
        if (signal?.signal.aborted) throw new ToolAbortedError(tool.name, toolCallId, signal.signal.reason);
        await wait(retryDelay(attempt + 1, retry.minDelayMs, retry.maxDelayMs), signal === undefined ? undefined : (onAbort) => signal.subscribe(onAbort), () => new ToolAbortedError(tool.name, toolCallId, signal?.signal.reason));
      } catch (error) {
        breaker?.released(call);
        throw error;
      }
      // Asked again after the wait: other calls may have opened the circuit meanwhile, and an open
      // circuit runs nothing; or taken runs the limit allows. The call then ends with its last failure.
      if (breaker !== undefined && breaker.admit(call) > 0) throw lastFailure;
      retryTakenAt = performance.now();
      if (takeRun(retryTakenAt) > 0) {
        breaker?.released(call);
        throw lastFailure;
      }
    }
  }

  /**
   * The claims of the call's token, when this registry signed it, it is unexpired, and it is for
   * this call id, tool and fingerprint. It is used up later, by {@link Governor.#useApproval}.
   * @throws ToolApprovalError with its reason
   */
  async #verifyApproval(call: GovernedCall, fingerprint: string): Promise<ApprovalClaims> {
    const { tool, toolCallId } = call.prepared;
    const claims = await this.services.signer.claims(call.approval, tool.name);
    if (claims.expiresAt <= Date.now()) throw new ToolApprovalError(tool.name, "expired");
    if (claims.toolCallId !== toolCallId || claims.toolName !== tool.name || claims.fingerprint !== fingerprint) {
      throw new ToolApprovalError(tool.name, "mismatch");
    }
    return claims;
  }

  /**
   * Uses up a verified token as its handler is about to run (after the rate limit, the wait for its
   * turn and the circuit breaker, so that a call refused or aborted before it ran leaves the token
   * good): its nonce is marked used in the ledger until the token expires (and
   * {@link CLOCK_SKEW_MARGIN_MS} after, for registries sharing the ledger whose clocks run behind), once.
   * A repeated attempt of an envelope's delivery (its worker died, and the transport delivered it
   * again) may use the token an earlier attempt of that delivery used up, when its tool declares
   * `effects`: repeating a `read-only` or `idempotent` call changes nothing, and a `once` call reaches
   * its handler only when its ledger has no run of it (an envelope of a tool with no declared effects
   * is refused before). The mark records the delivery; any other second use is refused.
   * @returns the ledger key of the mark it made, which a run aborted before its handler started gives
   * back; `undefined` when the mark was an earlier attempt's of the same delivery
   * @throws ToolApprovalError `"used"` when it was used before (by another run), `"expired"` when it expired while the call waited
   * @throws ToolLedgerError when the ledger cannot say whether the token was used
   * @throws ToolAbortedError or ToolTimeoutError (not started) when the ledger has not answered by the caller's abort or the time limit
   */
  async #useApproval(call: GovernedCall, claims: ApprovalClaims): Promise<string | undefined> {
    const { tool, toolCallId } = call.prepared;
    const caller = call.caller;
    const notBegun = (): ToolAbortedError => new ToolAbortedError(tool.name, toolCallId, caller?.signal.reason, false);
    if (caller?.signal.aborted) throw notBegun();
    const now = Date.now();
    if (claims.expiresAt <= now) throw new ToolApprovalError(tool.name, "expired");
    const keepMs = claims.expiresAt - now + CLOCK_SKEW_MARGIN_MS;
    const key = `approval:${claims.nonce}`;
    const delivery = call.delivery;
    const marking = this.services.ledger.markUsed(tool.name, key, keepMs, delivery?.name);
    let firstUse: boolean;
    try {
      firstUse = await bounded(marking, tool.name, toolCallId, caller, call.timeoutMs, false);
    } catch (error) {
      // Given up before the ledger answered: a mark it makes after is given back, since nothing ran.
      marking.then((made) => (made ? this.services.ledger.unmark(key) : undefined), () => undefined);
      throw error;
    }
    if (!firstUse) {
      const redelivered = delivery?.repeated === true && tool.policy?.effects !== undefined;
      if (!redelivered || (await bounded(this.services.ledger.usedBy(tool.name, key), tool.name, toolCallId, caller, call.timeoutMs, false)) !== delivery.name) {
        throw new ToolApprovalError(tool.name, "used");
      }
    }
    if (caller?.signal.aborted) {
      // Aborted while the ledger marked it: the handler does not run, and the token stays good.
      if (firstUse) void this.services.ledger.unmark(key);
      throw notBegun();
    }
    return firstUse ? key : undefined;
  }
}

/**
 * A call's hold on its resources: a place in line from the start, held from its grant while any
 * attempt's handler runs (a timed-out handler that runs on keeps it until it settles), and given
 * back when the call is done and no handler of it still runs.
 */
class Hold {
  #running = 0;
  #finished = false;
  /** Told when no handler of the call runs any more: the retry waiting for its timed-out attempt. */
  #onIdle: (() => void) | undefined;

  constructor(readonly ticket: Ticket) {}

  /**
   * Waits for the call's turn, within its time limit and until its caller aborts.
   * @throws ToolTimeoutError (not started) when the limit runs out first
   * @throws ToolAbortedError when the caller aborts first
   */
  async acquire(toolName: string, toolCallId: string, caller: AbortFanOut | undefined, timeoutMs: number | undefined): Promise<void> {
    if (this.ticket.held) return;
    if (caller?.signal.aborted) throw new ToolAbortedError(toolName, toolCallId, caller.signal.reason, false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        this.ticket.granted.then(resolve, reject);
        if (timeoutMs !== undefined) timer = setTimeout(() => reject(new ToolTimeoutError(toolName, toolCallId, timeoutMs, false)), timeoutMs);
        unsubscribe = caller?.subscribe(() => reject(new ToolAbortedError(toolName, toolCallId, caller.signal.reason, false)));
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe?.();
    }
  }

  attemptStarted(): void {
    this.#running++;
  }

  attemptSettled(): void {
    this.#running--;
    if (this.#running === 0) this.#onIdle?.();
    this.#releaseIfDone();
  }

  /**
   * Resolves to `true` once no handler of the call runs (at once when none does), or to `false`
   * when `timeoutMs` passes first.
   * @throws what `aborted` makes, when the caller aborts first
   */
  idle(timeoutMs: number | undefined, caller: AbortFanOut | undefined, aborted: () => Error): Promise<boolean> {
    if (this.#running === 0) return Promise.resolve(true);
    // An abort already heard fires no listener: waiting would last the whole time limit.
    if (caller?.signal.aborted) return Promise.reject(aborted());
    return new Promise<boolean>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let unsubscribe: (() => void) | undefined;
      const settle = (idle: boolean | Error): void => {
        if (timer !== undefined) clearTimeout(timer);
        unsubscribe?.();
        this.#onIdle = undefined;
        if (idle instanceof Error) reject(idle);
        else resolve(idle);
      };
      this.#onIdle = () => settle(true);
      if (timeoutMs !== undefined) timer = setTimeout(() => settle(false), timeoutMs);
      unsubscribe = caller?.subscribe(() => settle(aborted()));
    });
  }

  /** The call is done (or will not run): the resources go back once no handler of it runs. */
  finish(): void {
    this.#finished = true;
    this.#releaseIfDone();
  }

  #releaseIfDone(): void {
    if (this.#finished && this.#running === 0) this.ticket.release();
  }
}

/**
 * `pending` as a call waits for it: the run of an identical call it joined, or a ledger store call
 * made for it. It ends at the call's own caller's abort ({@link ToolAbortedError}) or after
 * `timeoutMs` ({@link ToolTimeoutError}), even while what it waited for goes on.
 * @param started whether the call's handler (or, for a joined run, an identical call's) may have started
 * @param waitedFor what the call waited for, as a timeout before it started says it
 */
function bounded<T>(pending: Promise<T>, toolName: string, toolCallId: string, caller: AbortFanOut | undefined, timeoutMs: number | undefined, started: boolean, waitedFor = WAITED_FOR_LEDGER): Promise<T> {
  if (caller === undefined && timeoutMs === undefined) return pending;
  // An abort already heard fires no listener.
  if (caller?.signal.aborted) {
    pending.catch(() => undefined);
    return Promise.reject(new ToolAbortedError(toolName, toolCallId, caller.signal.reason, started));
  }
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    const settle = (finish: () => void): void => {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe?.();
      finish();
    };
    pending.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
    if (timeoutMs !== undefined) timer = setTimeout(() => settle(() => reject(new ToolTimeoutError(toolName, toolCallId, timeoutMs, started, waitedFor))), timeoutMs);
    if (caller !== undefined) unsubscribe = caller.subscribe(() => settle(() => reject(new ToolAbortedError(toolName, toolCallId, caller.signal.reason, started))));
  });
}

/** The rate limit's key for one call: the scope `key` gives (the whole registry when unset). */
function rateLimitKey(toolName: string, key: ((context: CallContext) => string) | undefined, context: CallContext): string {
  if (key === undefined) return "";
  let scope: unknown;
  try {
    scope = key(context);
  } catch (error) {
    throw new ToolHookError(toolName, { cause: error });
  }
  if (typeof scope !== "string") throw new ToolHookError(toolName, { cause: new TypeError("rateLimit.key must return a string") });
  return scope;
}

function hookCall(prepared: PreparedCall): HookCall {
  return { toolCallId: prepared.toolCallId, toolName: prepared.tool.name, arguments: prepared.args };
}

/** Whether this call needs approval: `true`, or what the predicate says (a predicate that fails says yes). */
async function approvalNeeded(rule: boolean | ApprovalPredicate, args: unknown, context: CallContext): Promise<boolean> {
  if (typeof rule === "boolean") return rule;
  try {
    // A copy of its own: what the rule changes, now or while the handler runs, the handler never sees unchecked.
    return (await rule(structuredClone(args), context)) !== false;
  } catch {
    return true;
  }
}

/** The request for a person: the checked arguments as plain JSON, and the fingerprint an approval binds. */
function approvalRequest(prepared: PreparedCall, fingerprint: string): ApprovalRequest {
  return {
    toolCallId: prepared.toolCallId,
    toolName: prepared.tool.name,
    arguments: JSON.parse(JSON.stringify(prepared.args)) as unknown,
    fingerprint,
    requestedAt: new Date().toISOString(),
  };
}
