import type { TSchema } from "typebox";
import { describeOption, milliseconds, oneOf, positiveInteger } from "../options.js";

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
  effects?: ToolEffects;
  /** For a `read-only` tool: how long a result is remembered and given again for identical calls, in milliseconds. */
  cacheTtlMs?: number;
  /**
   * For a `once` tool: how long its ledger remembers a call (its result, or that it started), in
   * milliseconds; the same arguments run again only after that.
   * @default 86400000 (24 hours)
   */
  onceTtlMs?: number;
  /**
   * Whether a call needs a person's approval before it runs: `true` for every call, or a function
   * of the checked arguments (a function that throws or rejects means yes: approval fails
   * closed). Needs the registry's `approvalSecret`.
   */
  needsApproval?: boolean | ApprovalPredicate<TArgs>;
  /**
   * The largest result that reaches the model, in UTF-8 bytes of its text (base64 bytes for
   * images and audio); a larger one is cut, with a notice, and marked `truncated`. Overrides the
   * registry's `maxResultBytes`; `Infinity` lifts it.
   */
  maxResultBytes?: number;
}

/** A tool's checked execution options: `undefined` on a tool that has none, whose calls take the plain path. */
export interface ToolPolicy {
  readonly effects: ToolEffects | undefined;
  readonly cacheTtlMs: number | undefined;
  readonly onceTtlMs: number;
  readonly needsApproval: boolean | ApprovalPredicate | undefined;
  readonly maxResultBytes: number | undefined;
  /** The snapshot of the tool's `outputSchema`, checked against every result. */
  readonly outputSchema: TSchema | undefined;
}

export const DEFAULT_ONCE_TTL_MS = 86_400_000;

/**
 * The tool's policy from its `register` options, or `undefined` when it has none.
 * @throws TypeError naming an option of the wrong kind, or one that does not fit the tool's `effects`
 */
export function toolPolicy(options: ExecutionOptions, outputSchema: TSchema | undefined): ToolPolicy | undefined {
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
  if (effects === undefined && approval === undefined && maxResultBytes === undefined && outputSchema === undefined) return undefined;
  return { effects, cacheTtlMs, onceTtlMs: onceTtlMs ?? DEFAULT_ONCE_TTL_MS, needsApproval: approval, maxResultBytes, outputSchema };
}
