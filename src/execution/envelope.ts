import { ToolAbortedError, ToolArgumentsValidationError, ToolEnvelopeError, ToolLedgerError, ToolMismatchError, ToolTimeoutError } from "../errors.js";
import { type AllowList, allowTest } from "../dispatch/allow.js";
import type { PreparedCall, RegisteredTool } from "../dispatch/prepare.js";
import { isPlainObject } from "../objects.js";
import { describeOption, everyOption, MAX_TIMER_MS, optionalSignal, optionalToken, refuseUnknownOptions } from "../options.js";
import { readsAsJson } from "../results/json-data.js";
import { canonicalJson } from "../schema/canonical.js";
import { toFailure } from "../text/results.js";
import type { ToolCallContent, ToolResult } from "../types.js";
import { callFingerprint } from "./fingerprint.js";
import type { JsonValue } from "./ledger.js";
import { hex, sha256 } from "./web-crypto.js";

/** What a call delivered after its deadline waited for, as its message says it. */
const WAITED_FOR_DELIVERY = "its deadline had passed when it was delivered";

/**
 * One tool call, checked where the model's answer arrived, packed to run in another process or on
 * another machine: plain JSON, safe to queue, store and send. `registry.envelope(call)` makes it;
 * `registry.execute(envelope)` runs it wherever the same tools are registered.
 */
export interface ToolCallEnvelope {
  /** The envelope's format: 1. */
  readonly v: 1;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The checked private copy of the arguments, as JSON (repaired, when repair is on and made any). */
  readonly arguments: { readonly [key: string]: JsonValue };
  /** The call's fingerprint (`callFingerprint(toolName, arguments)`): the executing side checks the arguments still have it. */
  readonly fingerprint: string;
  /** SHA-256 of the canonical JSON of the tool's parameters schema, as the sender has it: the executing side must have the same. */
  readonly schemaFingerprint: string;
  /** When the call's time runs out, in milliseconds since the Unix epoch; absent when the tool has no time limit. */
  readonly deadline?: number;
  /** The time limit `deadline` was set from, in milliseconds (for the timeout's text). */
  readonly timeoutMs?: number;
  /** Which run of the call this is: 1 for the first; a transport that runs it again (a worker died) counts up. */
  readonly attempt: number;
  /** The W3C trace context of the span active when the envelope was made, when tracing is on. */
  readonly traceparent?: string;
  /** The approval token given for this call, for a tool that needs approval. */
  readonly approval?: string;
}

/** Options of `registry.envelope`. */
export interface EnvelopeOptions {
  /** An approval token from `registry.approve`, for a tool that needs approval: it travels with the call. */
  approval?: string | undefined;
  /** The tools this turn may run, as `dispatch`'s `allow`: a call of another is refused here, and never sent. */
  allow?: AllowList | undefined;
}

/** Options of `registry.execute`. */
export interface ExecuteOptions {
  /** Aborting it aborts the handler's `context.signal`; the result is then a `ToolAbortedError`. */
  signal?: AbortSignal | undefined;
  /** Your own data for this run (the worker's, not the sender's): handlers see it as `context.data`. */
  data?: unknown;
  /**
   * The transport's name for this delivery of the envelope, the same each time it delivers the
   * same message again (`createToolWorker` gives BullMQ's job id and creation time). A repeated
   * attempt (`attempt` above 1) of a tool that declares `effects` may use the approval token that
   * an earlier attempt of the same delivery used up; without it, a used token is refused, whatever
   * `attempt` says (an envelope is not signed: its `attempt` alone proves nothing).
   */
  delivery?: string | undefined;
}

/** Every option of `registry.envelope`: it refuses any other. */
const ENVELOPE_OPTIONS = everyOption<EnvelopeOptions>()(["approval", "allow"]);

/** Every option of `registry.execute`: it refuses any other. */
const EXECUTE_OPTIONS = everyOption<ExecuteOptions>()(["signal", "data", "delivery"]);

/** What making and running envelopes needs of a registry. */
export interface EnvelopeServices {
  /** The registry's prepare step (look-up, allow-list, private copy, check). */
  prepare(call: ToolCallContent, allowed: ((toolName: string) => boolean) | undefined): PreparedCall;
  /** A registered tool by name. */
  tool(name: string): RegisteredTool | undefined;
  /** The tool's time limit, else the registry's; `undefined` for none. */
  timeoutOf(tool: RegisteredTool): number | undefined;
  /** The W3C `traceparent` of the current context, from the registry's observers. */
  traceparent(): string | undefined;
  /**
   * The failure of a call refused before it could be prepared (a malformed or altered envelope, a
   * tool missing here or with another schema, a deadline past), observed as a call is, so that a
   * trace shows it where the envelope was refused.
   */
  refuse(toolCallId: string, toolName: string, error: Error, traceparent: string | undefined): Promise<ToolResult>;
  /**
   * The registry's way for one call to a result, as `dispatchAll` settles each call (observed, governed).
   * @param finish what the result becomes before the observers see it
   */
  settle(call: ToolCallContent, run: EnvelopeRun, finish?: (result: ToolResult) => ToolResult): Promise<ToolResult>;
}

/**
 * A delivery of an envelope that its transport named ({@link ExecuteOptions.delivery}): an approval
 * token's use records its name, and a repeated attempt of it may use that token again.
 */
export interface Delivery {
  readonly name: string;
  /** Whether the transport ran this call before (`attempt` above 1). */
  readonly repeated: boolean;
}

/** How an envelope's call is run: what `execute` was given, and what the envelope carried. */
export interface EnvelopeRun {
  readonly signal: AbortSignal | undefined;
  readonly approval: string | undefined;
  /** The delivery, when `execute` was told its name. */
  readonly delivery: Delivery | undefined;
  readonly data: unknown;
  readonly traceparent: string | undefined;
}

/** The issue of arguments whose JSON, which another process would run, is not what was checked. */
const NOT_SENDABLE = "/: arguments must be JSON data (no Map, Set, Date, NaN, infinite number such as 1e400, or undefined item) to be sent to another process";

/**
 * Checks `call` as `dispatch` would and packs it in an envelope. Arguments that JSON would change
 * (a `Map`, a `Date`, `NaN`) are refused: the envelope carries their JSON.
 * @throws UnknownToolError, ToolNotAllowedError, ToolArgumentsValidationError or ToolDefinitionError (as rejections) as `dispatch` does
 * @throws TypeError (as a rejection) for a bad option, or a tool whose schema has no JSON form to fingerprint
 */
export async function makeEnvelope(services: EnvelopeServices, call: ToolCallContent, options: EnvelopeOptions = {}): Promise<ToolCallEnvelope> {
  refuseUnknownOptions(options ?? {}, ENVELOPE_OPTIONS);
  const approval = optionalToken("approval", options?.approval);
  const prepared = services.prepare(call, allowTest(options?.allow));
  const { tool, toolCallId } = prepared;
  // The other process runs the arguments' JSON: where it differs from what was checked (a `Map`, a
  // `Date`, `NaN`, or `1e400`, which JSON text reads as Infinity), it would run arguments no one
  // checked, under the fingerprint of others.
  if (!readsAsJson(prepared.args, true)) throw new ToolArgumentsValidationError(tool.name, [NOT_SENDABLE]);
  const args = JSON.parse(JSON.stringify(prepared.args)) as { [key: string]: JsonValue };
  const [fingerprint, schemaFingerprint] = await Promise.all([callFingerprint(tool.name, args), schemaFingerprintOf(tool)]);
  const timeoutMs = services.timeoutOf(tool);
  const traceparent = services.traceparent();
  return {
    v: 1,
    toolCallId,
    toolName: tool.name,
    arguments: args,
    fingerprint,
    schemaFingerprint,
    ...(timeoutMs === undefined ? {} : { deadline: Date.now() + timeoutMs, timeoutMs }),
    attempt: 1,
    ...(traceparent === undefined ? {} : { traceparent }),
    ...(approval === undefined ? {} : { approval }),
  };
}

/**
 * Runs an envelope as `dispatchAll` runs a call, after refusing what cannot be trusted: a
 * malformed or tampered envelope, a tool missing here or with another schema, a deadline already
 * past, and a repeated attempt of a tool not declared safe to repeat (its first run may have taken
 * effect). The arguments are checked again: the wire is never trusted.
 * @returns the call's result; never rejects for the call's own failure
 * @throws TypeError (as a rejection) for a bad option
 */
export async function executeEnvelope(services: EnvelopeServices, envelope: ToolCallEnvelope, options: ExecuteOptions = {}): Promise<ToolResult> {
  refuseUnknownOptions(options ?? {}, EXECUTE_OPTIONS);
  const signal = optionalSignal("signal", options?.signal);
  const data = options?.data;
  const delivery = options?.delivery;
  // Checked with the other options, before the envelope is read: a caller's mistake is never an envelope's refusal.
  if (delivery !== undefined && typeof delivery !== "string") throw new TypeError(`delivery must be a string, got ${describeOption(delivery)}`);
  const read = readEnvelope(envelope);
  if (read instanceof ToolEnvelopeError) return services.refuse(idOf(envelope), read.toolName, read, traceparentOf(envelope));
  const { toolCallId, toolName } = read;
  const refusal = await refusalOf(services, read);
  if (refusal !== undefined) return services.refuse(toolCallId, toolName, refusal, read.traceparent);
  const call: ToolCallContent = { type: "tool_call", id: toolCallId, name: toolName, arguments: read.arguments };
  const run: EnvelopeRun = { signal, approval: read.approval, delivery: delivery === undefined ? undefined : { name: delivery, repeated: read.attempt > 1 }, data, traceparent: read.traceparent };
  if (read.deadline === undefined) return services.settle(call, run);
  return settleBy(services, call, read, run);
}

/** What stops an envelope before its call is prepared, if anything. */
async function refusalOf(services: EnvelopeServices, envelope: ToolCallEnvelope): Promise<Error | undefined> {
  const { toolName } = envelope;
  const tool = services.tool(toolName);
  if (tool === undefined) return new ToolMismatchError(toolName, "missing");
  let fingerprints: [string, string];
  try {
    fingerprints = await Promise.all([schemaFingerprintOf(tool), callFingerprint(toolName, envelope.arguments)]);
  } catch (error) {
    return new ToolEnvelopeError(toolName, "malformed", { cause: error });
  }
  if (fingerprints[0] !== envelope.schemaFingerprint) return new ToolMismatchError(toolName, "schema");
  if (fingerprints[1] !== envelope.fingerprint) return new ToolEnvelopeError(toolName, "tampered");
  if (envelope.deadline !== undefined && envelope.deadline <= Date.now()) return new ToolTimeoutError(toolName, envelope.toolCallId, envelope.timeoutMs ?? 0, false, WAITED_FOR_DELIVERY);
  // A transport ran this call before (its worker died mid-run): only a tool declared safe to repeat runs again; a `once` tool asks its ledger.
  if (envelope.attempt > 1 && tool.policy?.effects === undefined) return new ToolLedgerError(toolName, "in-doubt");
  return undefined;
}

/** The call settled under its deadline: when that comes first, a `ToolTimeoutError` as a local time limit gives. */
async function settleBy(services: EnvelopeServices, call: ToolCallContent, envelope: ToolCallEnvelope, run: EnvelopeRun): Promise<ToolResult> {
  const { toolCallId, toolName } = envelope;
  const timeout = new ToolTimeoutError(toolName, toolCallId, envelope.timeoutMs ?? 0);
  const deadline = new AbortController();
  // A deadline further than a timer can wait (about 24.8 days) is not timed: `setTimeout` would take it as 1 ms.
  const delay = envelope.deadline! - Date.now();
  const timer = delay <= MAX_TIMER_MS ? setTimeout(() => deadline.abort(timeout), delay) : undefined;
  // The deadline reaches the call as an abort: it is told as the timeout it is (which came before the
  // handler ran when the call was still waiting for its turn), to the observers too.
  const told = (result: ToolResult): ToolResult => {
    if (result.status !== "error" || !(result.error instanceof ToolAbortedError) || result.error.cause !== timeout) return result;
    return toFailure(toolCallId, toolName, result.error.started ? timeout : new ToolTimeoutError(toolName, toolCallId, timeout.timeoutMs, false));
  };
  try {
    const signal = run.signal === undefined ? deadline.signal : AbortSignal.any([run.signal, deadline.signal]);
    return await services.settle(call, { ...run, signal }, told);
  } finally {
    clearTimeout(timer);
  }
}

const HEX_64 = /^[0-9a-f]{64}$/;

/** The envelope's fields, checked for shape (not trusted: the arguments are checked again when the call is prepared). */
function readEnvelope(value: unknown): ToolCallEnvelope | ToolEnvelopeError {
  const malformed = (name: unknown = ""): ToolEnvelopeError => new ToolEnvelopeError(typeof name === "string" ? name : "", "malformed");
  if (!isPlainObject(value)) return malformed();
  let envelope: Record<string, unknown>;
  try {
    // Each field read once, into an envelope of its own: a getter (or a proxy's trap) runs now or never.
    envelope = { ...(value as Record<string, unknown>) };
  } catch {
    return malformed();
  }
  const { toolName, toolCallId, deadline, timeoutMs, traceparent, approval } = envelope;
  if (envelope.v !== 1 || typeof toolName !== "string" || typeof toolCallId !== "string") return malformed(toolName);
  if (!isPlainObject(envelope.arguments)) return malformed(toolName);
  if (typeof envelope.fingerprint !== "string" || !HEX_64.test(envelope.fingerprint)) return malformed(toolName);
  if (typeof envelope.schemaFingerprint !== "string" || !HEX_64.test(envelope.schemaFingerprint)) return malformed(toolName);
  if (deadline !== undefined && !Number.isFinite(deadline)) return malformed(toolName);
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) return malformed(toolName);
  if (!Number.isSafeInteger(envelope.attempt) || (envelope.attempt as number) < 1) return malformed(toolName);
  if ((traceparent !== undefined && typeof traceparent !== "string") || (approval !== undefined && typeof approval !== "string")) return malformed(toolName);
  return envelope as unknown as ToolCallEnvelope;
}

function idOf(envelope: unknown): string {
  const id = fieldOf(envelope, "toolCallId");
  return typeof id === "string" ? id : "";
}

/** A field of what may be an envelope; `undefined` where it has none or cannot be read. */
function fieldOf(envelope: unknown, name: "toolCallId" | "traceparent"): unknown {
  try {
    return isPlainObject(envelope) ? (envelope as Record<string, unknown>)[name] : undefined;
  } catch {
    return undefined;
  }
}

/** A malformed envelope's trace context, when it has one that is a string (observers read it as untrusted text). */
function traceparentOf(envelope: unknown): string | undefined {
  const traceparent = fieldOf(envelope, "traceparent");
  return typeof traceparent === "string" ? traceparent : undefined;
}

// Registered tools are frozen and their schemas never change: each is fingerprinted once.
const schemaFingerprints = new WeakMap<RegisteredTool, Promise<string>>();

/**
 * SHA-256 of the canonical JSON of a tool's parameters schema, as 64 hex digits.
 * @throws TypeError (as a rejection) for a schema with no JSON form (a TypeBox refinement, a function)
 */
export function schemaFingerprintOf(tool: RegisteredTool): Promise<string> {
  let fingerprint = schemaFingerprints.get(tool);
  if (fingerprint === undefined) {
    const text = canonicalJson(tool.definition.parameters);
    fingerprint =
      text === undefined
        ? Promise.reject(new TypeError(`tool "${tool.name}" has a parameters schema with no JSON form (a refinement or a function), so no other process can check its calls`))
        : sha256(text).then(hex);
    schemaFingerprints.set(tool, fingerprint);
  }
  return fingerprint;
}

