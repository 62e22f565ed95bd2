import { ToolApprovalError } from "../errors.js";
import type { AbortFanOut } from "../dispatch/abort-fan-out.js";
import type { PreparedCall, RegisteredTool } from "../dispatch/prepare.js";
import { type ExecutionTracker, runCall } from "../dispatch/run.js";
import { checkOutput } from "../results/output.js";
import { fitResult } from "../results/truncate.js";
import type { ReuseKind } from "../types.js";
import type { CompiledValidator } from "../validation/cache.js";
import type { ApprovalRequest, ApprovalSigner } from "./approvals.js";
import type { CallLedger, Execution, SharedResult } from "./effects.js";
import { callFingerprint } from "./fingerprint.js";
import type { ApprovalPredicate, CallContext } from "../dispatch/policy.js";

/** One call on the governed path, prepared, with what its caller gave. */
export interface GovernedCall {
  readonly prepared: PreparedCall;
  readonly caller: AbortFanOut | undefined;
  readonly timeoutMs: number | undefined;
  /** The approval token the caller gave for this call, if any. */
  readonly approval: string | undefined;
  readonly data: unknown;
}

/** How a governed call ended; the registry turns it into a result (or a value or a rejection, for `dispatch`). */
export type Outcome =
  | { readonly kind: "ok"; readonly value: unknown; readonly reused: ReuseKind | undefined; readonly truncated: boolean }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "approval"; readonly request: ApprovalRequest };

/** What the governed path needs of its registry. */
export interface GovernorServices {
  readonly ledger: CallLedger;
  /** Signs and verifies approval tokens; `undefined` when the registry has no `approvalSecret`. */
  readonly signer: ApprovalSigner | undefined;
  readonly tracker: ExecutionTracker;
  /** The cached validator of a tool's `outputSchema`. */
  outputValidator(tool: RegisteredTool): CompiledValidator;
  /** The registry's `maxResultBytes`, if set. */
  readonly maxResultBytes: number | undefined;
}

/**
 * The governed path of a call, after the prepare step: approval, deduplication through the
 * ledger, the run, the output check, and the cut to `maxResultBytes`, in that order. A call whose
 * tool has none of these options and whose registry sets none never comes here.
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
    const { prepared } = call;
    const { tool, toolCallId, args } = prepared;
    const policy = tool.policy;
    let fingerprint: Promise<string> | undefined;
    const fingerprintOf = (): Promise<string> => (fingerprint ??= callFingerprint(tool.name, args));
    if (call.approval !== undefined) await this.#verifyApproval(call, await fingerprintOf());
    else if (policy?.needsApproval !== undefined && (await approvalNeeded(policy.needsApproval, args, { toolCallId, toolName: tool.name, data: call.data }))) {
      return { kind: "approval", request: approvalRequest(prepared, await fingerprintOf()) };
    }
    const execution: Execution = (watcher) => runCall(prepared, call.caller, call.timeoutMs, this.services.tracker, call.data, watcher);
    const effects = policy?.effects;
    const shared: SharedResult =
      effects === undefined
        ? { value: await execution(undefined), reused: undefined }
        : await this.services.ledger.share(await fingerprintOf(), { toolName: tool.name, effects, cacheTtlMs: policy!.cacheTtlMs, onceTtlMs: policy!.onceTtlMs }, execution);
    if (policy?.outputSchema !== undefined) checkOutput(tool.name, toolCallId, this.services.outputValidator(tool), shared.value);
    const maxBytes = policy?.maxResultBytes ?? this.services.maxResultBytes;
    const fitted = maxBytes === undefined || maxBytes === Infinity ? { value: shared.value, truncated: false } : fitResult(shared.value, maxBytes);
    return { kind: "ok", value: fitted.value, reused: shared.reused, truncated: fitted.truncated };
  }

  /**
   * Lets the call run only on a token this registry signed, unexpired, for this call id, tool and
   * fingerprint, and never used before (its nonce is then marked used in the ledger until it expires).
   * @throws ToolApprovalError with its reason
   * @throws ToolLedgerError when the ledger cannot say whether the token was used
   */
  async #verifyApproval(call: GovernedCall, fingerprint: string): Promise<void> {
    const { tool, toolCallId } = call.prepared;
    const signer = this.services.signer;
    if (signer === undefined) throw new ToolApprovalError(tool.name, "tampered");
    const claims = await signer.claims(call.approval, tool.name);
    const now = Date.now();
    if (claims.expiresAt <= now) throw new ToolApprovalError(tool.name, "expired");
    if (claims.toolCallId !== toolCallId || claims.toolName !== tool.name || claims.fingerprint !== fingerprint) {
      throw new ToolApprovalError(tool.name, "mismatch");
    }
    if (!(await this.services.ledger.markUsed(tool.name, `approval:${claims.nonce}`, claims.expiresAt - now))) {
      throw new ToolApprovalError(tool.name, "used");
    }
  }
}

/** Whether this call needs approval: `true`, or what the predicate says (a predicate that fails says yes). */
async function approvalNeeded(rule: boolean | ApprovalPredicate, args: unknown, context: CallContext): Promise<boolean> {
  if (typeof rule === "boolean") return rule;
  try {
    return (await rule(args, context)) !== false;
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
