import type { TSchema } from "typebox";
import { describeOption, everyOption, milliseconds, oneOf, positiveInteger, refuseUnknownOptions } from "../options.js";
import { CircuitBreaker, type CircuitBreakerOptions } from "./circuit-breaker.js";
import type { Claim } from "./locks.js";
import { type RateLimit, SlidingWindowLimiter } from "./rate-limit.js";
import type { RetryOptions, RetryPlan } from "./retry.js";

/**
 * What running a tool does to the world, as its `register` options declare it:
 * - `"read-only"`: nothing; identical calls at the same time share one run, and results may be
 *   memoized (`cacheTtlMs`);
 * - `"idempotent"`: repeating it is harmless; identical calls at the same time share one run;
 * - `"once"`: it must not run twice for the same arguments; a repeat gets the first run's stored
 *   result, marked as replayed, for as long as the ledger keeps it (`onceTtlMs`).
 *
 * Undeclared means unknown: every call runs, nothing is shared or remembered.
 */
export type ToolEffects = "read-only" | "idempotent" | "once";

/** What a policy callback learns of the call it decides on. */
export interface CallContext {
  /** The id of the call. */
  toolCallId: string;
  /** The tool's registry name. */
  toolName: string;
  /** What the caller passed as `data` to `dispatch` or `dispatchAll`, else `undefined`. */
  data?: unknown;
}

/** Decides, from the checked arguments, whether one call needs a person's approval. */
export type ApprovalPredicate<TArgs = unknown> = (args: TArgs, context: CallContext) => boolean | PromiseLike<boolean>;

/** The execution options of `register`, each off unless given. */
export interface ExecutionOptions<TArgs = unknown> {
  /** What running the tool does to the world; see {@link ToolEffects}. Unknown when unset. */
  effects?: ToolEffects | undefined;
  /** For a `read-only` tool: how long a result is remembered and given again for identical calls, in milliseconds. */
  cacheTtlMs?: number | undefined;
  /**
   * For a `once` tool: how long its ledger remembers a call (its result, or that it started), in
   * milliseconds; the same arguments run again only after that.
   * @default 86400000 (24 hours)
   */
  onceTtlMs?: number | undefined;
  /**
   * Whether a call needs a person's approval before it runs: `true` for every call, or a function
   * of the checked arguments (a function that throws or rejects means yes: approval fails
   * closed). Needs the registry's `approvalSecret`.
   */
  needsApproval?: boolean | ApprovalPredicate<TArgs> | undefined;
  /**
   * The largest result that reaches the model, in UTF-8 bytes of its text (base64 bytes for
   * images and audio), its notice included; a larger one is cut, with a notice, and marked `truncated`. Overrides the
   * registry's `maxResultBytes`; `Infinity` lifts it.
   */
  maxResultBytes?: number | undefined;
  /** How many runs of this tool may overlap, across every dispatch of the registry; later calls wait their turn, in order. */
  concurrency?: number | undefined;
  /**
   * Resource keys this tool holds alone while it runs (a write lock: `"fs:write"`): calls holding
   * one of them exclusively never overlap, and within one `dispatchAll` they run in the order the
   * model emitted them. A call waits for its turn (bounded by its `timeoutMs`, or its caller's signal).
   */
  exclusive?: string | readonly string[] | undefined;
  /** Resource keys this tool holds beside other readers (a read lock: `"fs"`): never while a call holds one of them exclusively. */
  shared?: string | readonly string[] | undefined;
  /** At most `limit` calls in any `intervalMs` (per `key(context)`, if given); more are refused with `ToolRateLimitedError`. */
  rateLimit?: RateLimit<CallContext> | undefined;
  /** After `failureThreshold` execution failures in a row, calls are refused with `ToolUnavailableError` until a trial after `resetAfterMs` succeeds. */
  circuitBreaker?: CircuitBreakerOptions | undefined;
  /**
   * Retries after an execution failure or a timeout, with jittered exponential backoff; never
   * after a refusal (invalid arguments, a policy) or the caller's abort. Only for tools whose
   * `effects` are `"read-only"` or `"idempotent"`.
   */
  retry?: RetryOptions | undefined;
}

/** Every option of {@link ExecutionOptions}: with `timeoutMs`, what `register` takes. */
export const EXECUTION_OPTIONS = everyOption<ExecutionOptions>()([
  "effects",
  "cacheTtlMs",
  "onceTtlMs",
  "needsApproval",
  "maxResultBytes",
  "concurrency",
  "exclusive",
  "shared",
  "rateLimit",
  "circuitBreaker",
  "retry",
]);

/** A tool's checked execution options: `undefined` on a tool that has none, whose calls take the plain path. */
export interface ToolPolicy {
  readonly effects: ToolEffects | undefined;
  readonly cacheTtlMs: number | undefined;
  readonly onceTtlMs: number;
  readonly needsApproval: boolean | ApprovalPredicate | undefined;
  readonly maxResultBytes: number | undefined;
  /** The snapshot of the tool's `outputSchema`, checked against every result. */
  readonly outputSchema: TSchema | undefined;
  /** What the tool holds while it runs (its concurrency slot, its resource keys); empty for nothing. */
  readonly claims: readonly Claim[];
  readonly rateLimit: { readonly limiter: SlidingWindowLimiter; readonly key: ((context: CallContext) => string) | undefined } | undefined;
  readonly breaker: CircuitBreaker | undefined;
  readonly retry: RetryPlan | undefined;
}

export const DEFAULT_ONCE_TTL_MS = 86_400_000;

/**
 * The tool's policy from its `register` options, or `undefined` when it has none.
 * @throws TypeError naming an option of the wrong kind, or one that does not fit the tool's `effects`
 */
export function toolPolicy(toolName: string, options: ExecutionOptions, outputSchema: TSchema | undefined): ToolPolicy | undefined {
  const effects = options.effects === undefined ? undefined : oneOf("effects", options.effects, ["read-only", "idempotent", "once"]);
  const cacheTtlMs = milliseconds("cacheTtlMs", options.cacheTtlMs);
  if (cacheTtlMs !== undefined && effects !== "read-only") throw new TypeError(`cacheTtlMs needs effects "read-only" (results of other tools are never reused from a cache), got effects ${describeOption(effects)}`);
  const onceTtlMs = milliseconds("onceTtlMs", options.onceTtlMs);
  if (onceTtlMs !== undefined && effects !== "once") throw new TypeError(`onceTtlMs needs effects "once", got effects ${describeOption(effects)}`);
  const needsApproval = options.needsApproval;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new TypeError(`needsApproval must be a boolean or a function, got ${describeOption(needsApproval)}`);
  }
  const maxResultBytes = options.maxResultBytes === undefined ? undefined : positiveInteger("maxResultBytes", options.maxResultBytes, true);
  const approval = needsApproval === false ? undefined : needsApproval;
  const claims = claimsOf(toolName, options);
  const rateLimit = rateLimitOf(options.rateLimit);
  const breaker = options.circuitBreaker === undefined ? undefined : new CircuitBreaker(breakerOptions(options.circuitBreaker));
  const retry = retryOf(options.retry, effects);
  if (effects === undefined && approval === undefined && maxResultBytes === undefined && outputSchema === undefined && claims.length === 0 && rateLimit === undefined && breaker === undefined && retry === undefined) {
    return undefined;
  }
  return { effects, cacheTtlMs, onceTtlMs: onceTtlMs ?? DEFAULT_ONCE_TTL_MS, needsApproval: approval, maxResultBytes, outputSchema, claims, rateLimit, breaker, retry };
}

/** The tool's concurrency slot and resource keys, as lock claims. A key both exclusive and shared is held exclusively. */
function claimsOf(toolName: string, options: ExecutionOptions): Claim[] {
  const claims: Claim[] = [];
  if (options.concurrency !== undefined) {
    const limit = positiveInteger("concurrency", options.concurrency, true);
    // A key no resource name can take: resource keys are the user's, this one is the tool's own.
    if (limit !== Infinity) claims.push({ key: `\u0000concurrency:${toolName}`, mode: "slot", limit });
  }
  const exclusive = resourceKeys("exclusive", options.exclusive);
  for (const key of exclusive) claims.push({ key, mode: "exclusive" });
  for (const key of resourceKeys("shared", options.shared)) if (!exclusive.includes(key)) claims.push({ key, mode: "shared" });
  return claims;
}

function resourceKeys(option: string, value: unknown): string[] {
  if (value === undefined) return [];
  const keys = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
  if (keys === undefined || !keys.every((key): key is string => typeof key === "string" && key.length > 0)) {
    throw new TypeError(`${option} must be a resource key (a non-empty string) or an array of them, got ${describeOption(value)}`);
  }
  return [...new Set(keys)];
}

/** The fields of `rateLimit`, `circuitBreaker` and `retry`: a misspelt one (`minDelay`) would leave its default in force without a word. */
const RATE_LIMIT_OPTIONS = everyOption<RateLimit<CallContext>>()(["limit", "intervalMs", "key"]);
const CIRCUIT_BREAKER_OPTIONS = everyOption<CircuitBreakerOptions>()(["failureThreshold", "resetAfterMs"]);
const RETRY_OPTIONS = everyOption<RetryOptions>()(["retries", "minDelayMs", "maxDelayMs"]);

function rateLimitOf(value: RateLimit<CallContext> | undefined): ToolPolicy["rateLimit"] {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) throw new TypeError(`rateLimit must be { limit, intervalMs, key? }, got ${describeOption(value)}`);
  refuseUnknownOptions(value, RATE_LIMIT_OPTIONS, "rateLimit");
  const limit = positiveInteger("rateLimit.limit", value.limit);
  const intervalMs = milliseconds("rateLimit.intervalMs", value.intervalMs);
  if (intervalMs === undefined || intervalMs === Infinity) throw new TypeError(`rateLimit.intervalMs must be a finite number of milliseconds, got ${describeOption(value.intervalMs)}`);
  if (value.key !== undefined && typeof value.key !== "function") throw new TypeError(`rateLimit.key must be a function, got ${describeOption(value.key)}`);
  return { limiter: new SlidingWindowLimiter(limit, intervalMs), key: value.key };
}

function breakerOptions(value: CircuitBreakerOptions): CircuitBreakerOptions {
  if (typeof value !== "object" || value === null) throw new TypeError(`circuitBreaker must be { failureThreshold, resetAfterMs }, got ${describeOption(value)}`);
  refuseUnknownOptions(value, CIRCUIT_BREAKER_OPTIONS, "circuitBreaker");
  const failureThreshold = positiveInteger("circuitBreaker.failureThreshold", value.failureThreshold);
  const resetAfterMs = milliseconds("circuitBreaker.resetAfterMs", value.resetAfterMs);
  if (resetAfterMs === undefined || resetAfterMs === Infinity) throw new TypeError(`circuitBreaker.resetAfterMs must be a finite number of milliseconds, got ${describeOption(value.resetAfterMs)}`);
  return { failureThreshold, resetAfterMs };
}

function retryOf(value: RetryOptions | undefined, effects: ToolEffects | undefined): RetryPlan | undefined {
  if (value === undefined) return undefined;
  if (effects !== "read-only" && effects !== "idempotent") {
    throw new TypeError(`retry needs effects "read-only" or "idempotent": a tool that is not safe to repeat is never retried, got effects ${describeOption(effects)}`);
  }
  if (typeof value !== "object" || value === null) throw new TypeError(`retry must be { retries, minDelayMs?, maxDelayMs? }, got ${describeOption(value)}`);
  refuseUnknownOptions(value, RETRY_OPTIONS, "retry");
  const retries = value.retries === 0 ? 0 : positiveInteger("retry.retries", value.retries);
  const minDelayMs = value.minDelayMs === undefined ? 100 : nonNegative("retry.minDelayMs", value.minDelayMs);
  const maxDelayMs = value.maxDelayMs === undefined ? Math.max(5_000, minDelayMs) : nonNegative("retry.maxDelayMs", value.maxDelayMs);
  if (maxDelayMs < minDelayMs) throw new TypeError(`retry.maxDelayMs must be at least retry.minDelayMs (${minDelayMs}), got ${maxDelayMs}`);
  return { retries, minDelayMs, maxDelayMs };
}

function nonNegative(option: string, value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 2_147_483_647) return value;
  throw new TypeError(`${option} must be a number of milliseconds from 0 to 2147483647, got ${describeOption(value)}`);
}
