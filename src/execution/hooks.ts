import { ToolHookError } from "../errors.js";
import type { CallContext } from "../policy/policy.js";
import type { ReuseKind } from "../types.js";

/** A call as hooks see it: after its check, with its checked private arguments. */
export interface HookCall<TArgs = unknown> {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: TArgs;
}

/** The result an `after` hook sees: the handler's value (or the reused one). */
export interface HookResult {
  readonly value: unknown;
  /** Set when no handler ran for this call: see `ToolSuccess.reused`. */
  readonly reused?: ReuseKind;
}

/** What a `before` hook may answer: nothing (go on), a denial (its reason reaches the model) or new arguments (checked again). */
export type BeforeDecision = void | undefined | { deny: string } | { arguments: unknown };

/** What an `after` hook may answer: nothing (keep the value) or a new value. */
export type AfterDecision = void | undefined | { value: unknown };

/**
 * Code the registry runs around every call, in the order hooks were added (`registry.use`):
 * - `before(call, context)` after the check, before approval and the handler;
 * - `after(call, result, context)` after the handler (and the output check), before the result is
 *   cut to `maxResultBytes`.
 * A hook that throws or rejects fails the call with a `ToolHookError`; it never crashes anything.
 */
export interface ToolHooks {
  before?(call: HookCall, context: CallContext): BeforeDecision | PromiseLike<BeforeDecision>;
  after?(call: HookCall, result: HookResult, context: CallContext): AfterDecision | PromiseLike<AfterDecision>;
}

/** What the `before` hooks decided: the arguments to go on with, or a denial. */
export type BeforeOutcome = { readonly denied: false; readonly arguments: unknown; readonly changed: boolean } | { readonly denied: true; readonly reason: string };

/**
 * Runs each `before` hook in order; each sees the arguments the previous one left. Stops at the
 * first denial. `recheck` checks arguments a hook gave (throwing `ToolHookError` with issues).
 * @throws ToolHookError when a hook throws, rejects, or answers something else
 */
export async function runBefore(hooks: readonly ToolHooks[], call: HookCall, context: CallContext, recheck: (value: unknown) => unknown): Promise<BeforeOutcome> {
  let args = call.arguments;
  let changed = false;
  for (const hook of hooks) {
    if (hook.before === undefined) continue;
    const decision = await guarded(call.toolName, () => hook.before!({ ...call, arguments: args }, context));
    if (decision === undefined || decision === null) continue;
    const answer = readAnswer(call.toolName, false, () => {
      if (typeof decision !== "object") return undefined;
      // Each field read once: a getter may answer differently the second time.
      const deny = "deny" in decision ? decision.deny : undefined;
      if (typeof deny === "string") return { deny };
      return "arguments" in decision ? { arguments: decision.arguments } : undefined;
    });
    if (answer === undefined) throw new ToolHookError(call.toolName, { cause: new TypeError("a before hook must return nothing, { deny: reason } or { arguments }") });
    if ("deny" in answer) return { denied: true, reason: answer.deny };
    args = recheck(answer.arguments);
    changed = true;
  }
  return { denied: false, arguments: args, changed };
}

/**
 * Runs each `after` hook in order; each sees the value the previous one left.
 * @throws ToolHookError when a hook throws, rejects, or answers something else
 */
export async function runAfter(hooks: readonly ToolHooks[], call: HookCall, result: HookResult, context: CallContext): Promise<unknown> {
  let value = result.value;
  for (const hook of hooks) {
    if (hook.after === undefined) continue;
    const seen: HookResult = result.reused === undefined ? { value } : { value, reused: result.reused };
    const decision = await guarded(call.toolName, () => hook.after!(call, seen, context), true);
    if (decision === undefined || decision === null) continue;
    const answer = readAnswer(call.toolName, true, () => (typeof decision === "object" && "value" in decision ? { value: decision.value } : undefined));
    if (answer === undefined) throw new ToolHookError(call.toolName, { cause: new TypeError("an after hook must return nothing or { value }"), ran: true });
    value = answer.value;
  }
  return value;
}

/**
 * A hook's answer, what it throws or rejects with becoming a `ToolHookError`.
 * @param ran whether the tool has run (an `after` hook)
 */
async function guarded<T>(toolName: string, run: () => T | PromiseLike<T>, ran = false): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new ToolHookError(toolName, { cause: error, ran });
  }
}

/**
 * What a hook's answer holds, read: a getter or a proxy trap that throws as it is read fails the
 * call as the hook's own error does.
 * @param ran whether the tool has run (an `after` hook)
 */
function readAnswer<T>(toolName: string, ran: boolean, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ToolHookError(toolName, { cause: error, ran });
  }
}

/**
 * Checks hooks as `registry.use` receives them.
 * @throws TypeError for anything but an object with `before` and/or `after` functions
 */
export function checkHooks(hooks: unknown): ToolHooks {
  const candidate = hooks as ToolHooks | null;
  const valid =
    typeof candidate === "object" &&
    candidate !== null &&
    (candidate.before !== undefined || candidate.after !== undefined) &&
    (candidate.before === undefined || typeof candidate.before === "function") &&
    (candidate.after === undefined || typeof candidate.after === "function");
  if (!valid) throw new TypeError("hooks must be an object with a before and/or an after function");
  return candidate;
}
