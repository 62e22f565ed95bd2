import { describeName, describeThrown } from "./text/describe.js";
import type { ApprovalRequest } from "./execution/approvals.js";

/** Base class of every error this library throws or rejects with on purpose. */
export class ToolRegistryError extends Error {
  // On the prototype: each subclass defines its own `name` on its instances, and a second
  // definition of the same field on every error would cost more than the rest of a refusal's object.
  declare readonly name: string;
}
Object.defineProperty(ToolRegistryError.prototype, "name", { value: "ToolRegistryError", writable: true, configurable: true });

/** One problem of a tool definition: where, and what. */
export interface DefinitionProblem {
  /**
   * JSON Pointer into the tool's `parameters` schema (`/` for its root), or `""` for a problem
   * of the definition itself (its name, a duplicate, the handler).
   */
  readonly pointer: string;
  /** What is wrong there, in words that name schema facts only. */
  readonly problem: string;
  /** Set to `"outputSchema"` for a problem of the tool's `outputSchema` (the pointer is into it); absent for `parameters`. */
  readonly schema?: "outputSchema";
}

/**
 * A tool definition is unusable: an empty or invalid name, a duplicate name,
 * a handler that is not a function, or a `parameters` schema that is not valid
 * or cannot compile safely. Thrown at `register` (or at the first compile, for
 * problems only the compiler finds); never produced by a model's arguments.
 */
export class ToolDefinitionError extends ToolRegistryError {
  override readonly name = "ToolDefinitionError";
  /** The offending tool's name, as given (coerced to a string for display). */
  readonly toolName: string;
  /** Each problem found, as data. */
  readonly problems: readonly DefinitionProblem[];

  /** @param problems a problem of the definition itself, as text, or the problems of its schema */
  constructor(toolName: string, problems: string | readonly DefinitionProblem[], options?: ErrorOptions) {
    const list = typeof problems === "string" ? [{ pointer: "", problem: problems }] : problems;
    super(`Invalid definition for tool ${describeName(toolName)}: ${definitionMessage(list)}`, options);
    this.toolName = toolName;
    this.problems = Object.freeze(
      list.map((problem) => Object.freeze(problem.schema === undefined ? { pointer: problem.pointer, problem: problem.problem } : { pointer: problem.pointer, problem: problem.problem, schema: problem.schema })),
    );
  }
}

function definitionMessage(problems: readonly DefinitionProblem[]): string {
  const own = problems.filter((problem) => problem.pointer === "" && problem.schema === undefined).map((problem) => problem.problem);
  for (const [schema, label] of [[undefined, "its parameters schema"], ["outputSchema", "its outputSchema"]] as const) {
    const inSchema = problems.filter((problem) => problem.schema === schema && (problem.pointer !== "" || schema !== undefined));
    if (inSchema.length > 0) own.push(`${label} is invalid at ${inSchema.map((problem) => `${problem.pointer || "/"}: ${problem.problem}`).join("; ")}`);
  }
  return own.join("; ");
}

/**
 * A model's arguments do not match the tool's schema. The handler did not run.
 *
 * `issues` are `<JSON Pointer>: <message>` strings; none of them contains an
 * argument value, so the error can be logged and shown to the model as is.
 *
 * It carries no stack trace: it describes the model's mistake, not a place in
 * the code, and capturing one would cost more than checking a small call.
 */
export class ToolArgumentsValidationError extends ToolRegistryError {
  override readonly name = "ToolArgumentsValidationError";
  /** The tool whose arguments were refused. */
  readonly toolName: string;
  /** One `<JSON Pointer>: <message>` line per problem, e.g. `/offset: must be integer`. */
  readonly issues: readonly string[];
  /**
   * How many calls of this tool in a row before this one were refused with the same arguments
   * and the same issues: 0 for a new failure. Text for the model says so when it is not 0.
   */
  readonly repeats: number;

  /** @param repeats see {@link ToolArgumentsValidationError.repeats}; when not 0, the message ends by saying so */
  constructor(toolName: string, issues: readonly string[], repeats = 0) {
    const message = validationMessage(toolName, issues);
    super(withoutFrames(repeats > 0 ? `${message}\n${repeatedFailureMessage(toolName, repeats)}` : message));
    framesBack(this, "ToolArgumentsValidationError");
    this.toolName = toolName;
    this.issues = Object.freeze([...issues]);
    this.repeats = repeats;
  }
}

/** The limit {@link withoutFrames} found, until {@link framesBack} gives it back; this marker when it could not change it. */
const LIMIT_UNCHANGED: unique symbol = Symbol("Error.stackTraceLimit unchanged");
let hiddenLimit: unknown = LIMIT_UNCHANGED;

/**
 * `message`, as the argument of `super` for an error about a model's call: errors created from now
 * on capture no stack frames (a limit that is not a number makes V8 skip the stack walk
 * altogether; a limit of 0 still walks it), until {@link framesBack} right after `super`. `Error`'s
 * constructor cannot throw for a string message, so nothing runs between the two. Never throws
 * (a frozen `Error`, as hardened runtimes make it, keeps its limit).
 */
function withoutFrames(message: string): string {
  try {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = undefined as unknown as number;
    hiddenLimit = limit;
  } catch {
    hiddenLimit = LIMIT_UNCHANGED;
  }
  return message;
}

/** Gives `Error.stackTraceLimit` back, and writes `error`'s stack as it reads with no frames. Never throws. */
function framesBack(error: Error, name: string): void {
  const limit = hiddenLimit;
  hiddenLimit = LIMIT_UNCHANGED;
  if (limit !== LIMIT_UNCHANGED) {
    try {
      Error.stackTraceLimit = limit as number;
    } catch {
      // It could be set a moment ago; nothing else is to be done if it cannot be now.
    }
  }
  error.stack = `${name}: ${error.message}`;
}

/**
 * A refusal kept for the life of the module, so that the layout of the error (and the code that
 * makes one) outlives a full garbage collection with no refusal left: see `WALK_LAYOUT_KEEPER`.
 */
export const REFUSAL_LAYOUT_KEEPER: ToolArgumentsValidationError = new ToolArgumentsValidationError("layout", []);

/**
 * A tool call names a tool that is not registered. Like a refusal of the arguments, it carries no
 * stack trace: it describes the model's mistake, not a place in the code.
 */
export class UnknownToolError extends ToolRegistryError {
  override readonly name = "UnknownToolError";
  /** The name the call asked for. */
  readonly toolName: string;
  /** Registered names close to `toolName`, best first (possibly empty). */
  readonly suggestions: readonly string[];
  /** The registered names when the call was made, which the message lists when no name is close. */
  readonly available: readonly string[];

  constructor(toolName: string, suggestions: readonly string[], available: readonly string[] = []) {
    super(withoutFrames(unknownToolMessage(toolName, suggestions, available)));
    framesBack(this, "UnknownToolError");
    this.toolName = toolName;
    this.suggestions = Object.freeze([...suggestions]);
    this.available = Object.freeze([...available]);
  }
}

/** The tool's handler threw or rejected; `cause` is exactly what it threw. */
export class ToolExecutionError extends ToolRegistryError {
  override readonly name: string = "ToolExecutionError";
  /** The tool whose handler failed. */
  readonly toolName: string;
  /** The id of the tool call that failed. */
  readonly toolCallId: string;

  constructor(toolName: string, toolCallId: string, cause: unknown, message = executionMessage(toolName, cause)) {
    super(message, { cause });
    this.toolName = toolName;
    this.toolCallId = toolCallId;
  }
}

/** The handler did not settle within its time limit; its `context.signal` was aborted. */
export class ToolTimeoutError extends ToolExecutionError {
  override readonly name = "ToolTimeoutError";
  /** The limit that ran out, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Whether the handler had started: `false` when the limit ran out while the call waited for
   * its turn (a `concurrency` slot, an `exclusive` or `shared` resource), for its ledger store or
   * for a tool queue's connection, so it never ran.
   */
  readonly started: boolean;
  /**
   * What a call that never started waited for, as its message says it (`other calls held what it
   * needs`, `its ledger store did not answer in that time`…); `undefined` when it started.
   */
  readonly waitedFor: string | undefined;

  /** @param waitedFor for a call that did not start, what it waited for (see {@link ToolTimeoutError.waitedFor}) */
  constructor(toolName: string, toolCallId: string, timeoutMs: number, started = true, waitedFor: string = WAITED_FOR_TURN) {
    super(toolName, toolCallId, undefined, started ? timeoutMessage(toolName, timeoutMs) : waitTimeoutMessage(toolName, timeoutMs, waitedFor));
    this.timeoutMs = timeoutMs;
    this.started = started;
    this.waitedFor = started ? undefined : waitedFor;
  }
}

/**
 * The caller's `signal` aborted the call (the handler's `context.signal` was
 * aborted with it, or the handler never started); `cause` is the signal's reason.
 * It is a {@link ToolExecutionError}: the tool did not complete.
 */
export class ToolAbortedError extends ToolExecutionError {
  override readonly name = "ToolAbortedError";
  /**
   * Whether the handler had started (or may have, on a worker): `false` when the abort came
   * before it ran (while the call waited for its turn, or its arguments were still streaming),
   * so nothing of it ran.
   */
  readonly started: boolean;

  constructor(toolName: string, toolCallId: string, reason: unknown, started = true) {
    super(toolName, toolCallId, reason, started ? abortedMessage(toolName) : abortedBeforeStartMessage(toolName));
    this.started = started;
  }
}

/**
 * The tool needs a person's approval before it runs; the call was checked and not run. `request`
 * is what to show: pass it to `registry.approve` for a token, then dispatch the call again with
 * `{ approval: token }`. (`dispatchAll` gives this as a result with `status: "approval-required"`.)
 */
export class ToolApprovalRequiredError extends ToolRegistryError {
  override readonly name = "ToolApprovalRequiredError";
  readonly toolName: string;
  readonly toolCallId: string;
  /** The approval request: plain JSON, the checked arguments included. */
  readonly request: ApprovalRequest;

  constructor(request: ApprovalRequest) {
    super(approvalRequiredMessage(request.toolName));
    this.toolName = request.toolName;
    this.toolCallId = request.toolCallId;
    this.request = request;
  }
}

/**
 * The call was declined before it ran (by a hook, or a person through `registry.deny`): not a
 * failure of the tool. Its message is the text for the model. (`dispatchAll` gives this as a
 * result with `status: "denied"`.)
 */
export class ToolDeniedError extends ToolRegistryError {
  override readonly name = "ToolDeniedError";
  readonly toolName: string;

  constructor(toolName: string, content: string) {
    super(content);
    this.toolName = toolName;
  }
}

/** Why an approval token was refused. */
export type ApprovalRefusal = "tampered" | "expired" | "used" | "mismatch";

/**
 * An approval token was refused, and the handler did not run: `"tampered"` (not a token this
 * registry's secret signed, or altered), `"expired"`, `"used"` (each token runs one call once) or
 * `"mismatch"` (signed for another call id, tool or arguments than the call's, as checked now).
 */
export class ToolApprovalError extends ToolRegistryError {
  override readonly name = "ToolApprovalError";
  readonly toolName: string;
  readonly reason: ApprovalRefusal;

  constructor(toolName: string, reason: ApprovalRefusal) {
    super(approvalRefusedMessage(toolName, reason));
    this.toolName = toolName;
    this.reason = reason;
  }
}

/**
 * The tool ran, and its result does not match its declared `outputSchema`. Its effects, if any,
 * have happened: the model is told so, so that it does not repeat the call. `issues` are pointer
 * lines into the result, with no values.
 */
export class ToolResultValidationError extends ToolRegistryError {
  override readonly name = "ToolResultValidationError";
  readonly toolName: string;
  readonly toolCallId: string;
  /** One `<JSON Pointer>: <message>` line per problem of the result. */
  readonly issues: readonly string[];

  constructor(toolName: string, toolCallId: string, issues: readonly string[]) {
    super(resultMismatchMessage(toolName, issues));
    this.toolName = toolName;
    this.toolCallId = toolCallId;
    this.issues = Object.freeze([...issues]);
  }
}

/** Why the ledger could not let a call run. */
export type LedgerRefusal = "unavailable" | "in-doubt" | "unrecorded";

/**
 * The registry's ledger could not vouch for a call, so a tool that must not run twice (or an
 * approval) was not run: `"unavailable"` when the ledger store failed (`cause` is its error),
 * `"in-doubt"` when an earlier run of the same call started and never recorded its outcome (its
 * process stopped, or its record failed), so it may or may not have taken effect, and
 * `"unrecorded"` when an earlier run completed with a result that has no JSON form to replay.
 */
export class ToolLedgerError extends ToolRegistryError {
  override readonly name = "ToolLedgerError";
  readonly toolName: string;
  readonly reason: LedgerRefusal;

  constructor(toolName: string, reason: LedgerRefusal, options?: ErrorOptions) {
    super(ledgerMessage(toolName, reason), options);
    this.toolName = toolName;
    this.reason = reason;
  }
}

/**
 * The call names a registered tool that is not available in this turn (outside the `allow`
 * option of `dispatch` or `dispatchAll`): it did not run. The message lists the tools that are.
 * It carries no stack trace: it describes the model's call, not a place in the code.
 */
export class ToolNotAllowedError extends ToolRegistryError {
  override readonly name = "ToolNotAllowedError";
  readonly toolName: string;
  /** The tools the call could have named: registered and allowed in this turn. */
  readonly available: readonly string[];

  constructor(toolName: string, available: readonly string[]) {
    super(withoutFrames(notAllowedMessage(toolName, available)));
    framesBack(this, "ToolNotAllowedError");
    this.toolName = toolName;
    this.available = Object.freeze([...available]);
  }
}

/** The tool's `rateLimit` is spent: the call did not run. `retryAfterMs` says when it may. */
export class ToolRateLimitedError extends ToolRegistryError {
  override readonly name = "ToolRateLimitedError";
  readonly toolName: string;
  /** How long until a call would be accepted, in milliseconds. */
  readonly retryAfterMs: number;

  constructor(toolName: string, retryAfterMs: number) {
    super(rateLimitedMessage(toolName, retryAfterMs));
    this.toolName = toolName;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The tool's circuit breaker is open after repeated failures: the call did not run.
 * `retryAfterMs` says when a trial call will be let through.
 */
export class ToolUnavailableError extends ToolRegistryError {
  override readonly name = "ToolUnavailableError";
  readonly toolName: string;
  /** How long until a trial call is let through, in milliseconds (1 while a trial call runs, whose outcome decides). */
  readonly retryAfterMs: number;

  constructor(toolName: string, retryAfterMs: number) {
    super(unavailableMessage(toolName, retryAfterMs));
    this.toolName = toolName;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A hook (`registry.use`) or a policy callback (`rateLimit.key`) threw or rejected, or a `before`
 * hook gave arguments the schema refuses (`issues` says where): the call did not run (or, from
 * an `after` hook, its result was not given). `cause` is what was thrown.
 */
export class ToolHookError extends ToolRegistryError {
  override readonly name = "ToolHookError";
  readonly toolName: string;
  /** For arguments a hook gave that the schema refuses: one `<JSON Pointer>: <message>` line per problem. */
  readonly issues: readonly string[];
  /**
   * Whether the tool had run: `true` for an `after` hook, which sees its result (its effects may
   * have taken place, and the message says so), `false` before it ran.
   */
  readonly ran: boolean;

  /** @param options.ran see {@link ToolHookError.ran} */
  constructor(toolName: string, options?: ErrorOptions & { issues?: readonly string[]; ran?: boolean }) {
    const ran = options?.ran === true;
    super(ran ? hookFailedAfterRunMessage(toolName) : `Tool ${describeName(toolName)} could not run: a check of the application failed. Do not retry this call as it is; tell the user if it matters.`, options);
    this.toolName = toolName;
    this.issues = Object.freeze([...(options?.issues ?? [])]);
    this.ran = ran;
  }
}

/** `Tool "<name>" ran, but…`: an `after` hook failed on the result of a tool that ran, which may have taken effect. */
function hookFailedAfterRunMessage(toolName: string): string {
  return `Tool ${describeName(toolName)} ran, but a check of the application failed on its result, which is not given. It may have taken effect: do not call it again as it is; tell the user if it matters.`;
}

const MAX_LISTED_TOOLS = 20;

// The messages, built from a tool name, so that text for the model can name the tool as the model knows it.

/** `Invalid arguments for tool "<name>":` and one `  - <issue>` line per issue. */
export function validationMessage(toolName: string, issues: readonly string[]): string {
  let message = `Invalid arguments for tool ${describeName(toolName)}:`;
  for (const issue of issues) message += `\n  - ${issue}`;
  return message;
}

/**
 * What the model is told when it sends a tool the same refused arguments again: that it is
 * repeating itself, and that the lines above say what to change. A repeat's error message ends
 * with it too.
 */
export function repeatedFailureMessage(toolName: string, repeats: number): string {
  const times = repeats + 1;
  return (
    `These are the same arguments, refused for the same reasons, as in the last ${times === 2 ? "call" : `${repeats} calls`} of ${describeName(toolName)} ` +
    `(${times} times in a row): sending them again will fail again. Change each value the lines above name, as they say, before calling ${describeName(toolName)} again.`
  );
}

/** `Unknown tool "<name>".` and close names, or else the available ones. */
export function unknownToolMessage(toolName: string, suggestions: readonly string[], available: readonly string[]): string {
  const head = toolName === "" ? "The tool call names no tool." : `Unknown tool ${describeName(toolName)}.`;
  if (suggestions.length > 0) return `${head} Did you mean ${suggestions.map(describeName).join(" or ")}?`;
  if (available.length === 0) return `${head} No tools are registered.`;
  const listed = available.slice(0, MAX_LISTED_TOOLS).map(describeName).join(", ");
  const more = available.length > MAX_LISTED_TOOLS ? `, and ${available.length - MAX_LISTED_TOOLS} more` : "";
  return `${head} Available tools: ${listed}${more}.`;
}

/** `Tool "<name>" failed: <what the handler threw>`. */
export function executionMessage(toolName: string, cause: unknown): string {
  return `Tool ${describeName(toolName)} failed: ${describeThrown(cause)}`;
}

/** `Tool "<name>" timed out after <n> ms; it may still complete…`: a handler that ignores its signal goes on running. */
export function timeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool ${describeName(toolName)} timed out after ${timeoutMs} ms; it may still be running and may still complete, so check before calling it again.`;
}

/** What a call that timed out waiting for its turn waited for, as its message says it. */
export const WAITED_FOR_TURN = "other calls held what it needs";

/** `Tool "<name>" did not start within <n> ms: <what it waited for>…`: it waited (for its turn, by default), and never ran. */
export function waitTimeoutMessage(toolName: string, timeoutMs: number, waitedFor: string = WAITED_FOR_TURN): string {
  return `Tool ${describeName(toolName)} did not start within ${timeoutMs} ms: ${waitedFor}. It did not run; you may call it again.`;
}

/** `Tool "<name>" was aborted`. */
export function abortedMessage(toolName: string): string {
  return `Tool ${describeName(toolName)} was aborted`;
}

/** `Tool "<name>" was aborted before it ran`. */
export function abortedBeforeStartMessage(toolName: string): string {
  return `Tool ${describeName(toolName)} was aborted before it ran`;
}

/** `Tool "<name>" needs the user's approval…`. */
export function approvalRequiredMessage(toolName: string): string {
  return `Tool ${describeName(toolName)} needs the user's approval before it runs; it has not run yet.`;
}

const APPROVAL_REFUSALS: Record<ApprovalRefusal, string> = {
  tampered: "its approval is not valid",
  expired: "its approval has expired",
  used: "its approval was already used",
  mismatch: "its approval was given for a different call or different arguments",
};

/** `Tool "<name>" was not run: its approval…`. */
export function approvalRefusedMessage(toolName: string, reason: ApprovalRefusal): string {
  return `Tool ${describeName(toolName)} was not run: ${APPROVAL_REFUSALS[reason]}. Ask the user to approve this exact call.`;
}

/** `Tool "<name>" ran, but its result did not match…` and the issues. */
export function resultMismatchMessage(toolName: string, issues: readonly string[]): string {
  return [
    `Tool ${describeName(toolName)} ran, but its result did not match its declared output:`,
    ...issues.map((issue) => `  - ${issue}`),
    "Its effects, if any, have taken place: do not call it again just to repeat it.",
  ].join("\n");
}

/** `Tool "<name>" was not run: …` for a ledger that cannot vouch for the call. */
export function ledgerMessage(toolName: string, reason: LedgerRefusal): string {
  const head = `Tool ${describeName(toolName)} was not run:`;
  switch (reason) {
    case "unavailable":
      return `${head} the record of its earlier runs is unavailable, and it must not run twice. Try again later.`;
    case "in-doubt":
      return `${head} an earlier call with the same arguments started and its outcome is unknown, so it may already have taken effect. Do not repeat it; tell the user.`;
    case "unrecorded":
      return `${head} it already ran with these arguments, and it must not run twice. Its result cannot be shown again.`;
  }
}

/** `Tool "<name>" is not available in this turn…` and the ones that are. */
export function notAllowedMessage(toolName: string, available: readonly string[]): string {
  const head = `Tool ${describeName(toolName)} is not available in this turn.`;
  if (available.length === 0) return `${head} No tools are available.`;
  const listed = available.slice(0, MAX_LISTED_TOOLS).map(describeName).join(", ");
  const more = available.length > MAX_LISTED_TOOLS ? `, and ${available.length - MAX_LISTED_TOOLS} more` : "";
  return `${head} Available tools: ${listed}${more}.`;
}

/** Milliseconds as words for the model: `250 ms`, `3 s`, `2 min`. */
function duration(ms: number): string {
  if (ms < 1_000) return `${Math.ceil(ms)} ms`;
  if (ms < 120_000) return `${Math.ceil(ms / 1_000)} s`;
  return `${Math.ceil(ms / 60_000)} min`;
}

/** `Tool "<name>" was not run: its rate limit is spent…`. */
export function rateLimitedMessage(toolName: string, retryAfterMs: number): string {
  return `Tool ${describeName(toolName)} was not run: it has been called too often. Try again in ${duration(retryAfterMs)}, or do without it.`;
}

/** `Tool "<name>" is unavailable after repeated failures…`. */
export function unavailableMessage(toolName: string, retryAfterMs: number): string {
  const when = retryAfterMs > 0 ? ` Try again in ${duration(retryAfterMs)}, or do without it.` : " Try again shortly, or do without it.";
  return `Tool ${describeName(toolName)} is unavailable after repeated failures; it was not run.${when}`;
}

/** Why a registry refused a {@link ToolCallEnvelope} it was asked to execute. */
export type EnvelopeRefusal = "malformed" | "tampered";

/**
 * An envelope given to `registry.execute` cannot be trusted, and its handler did not run:
 * `"malformed"` when it is not an envelope of a version this registry reads, `"tampered"` when its
 * arguments do not have its fingerprint (they changed on the way).
 */
export class ToolEnvelopeError extends ToolRegistryError {
  override readonly name = "ToolEnvelopeError";
  /** The tool the envelope names (`""` when it names none). */
  readonly toolName: string;
  readonly reason: EnvelopeRefusal;

  constructor(toolName: string, reason: EnvelopeRefusal, options?: ErrorOptions) {
    super(envelopeMessage(toolName, reason), options);
    this.toolName = toolName;
    this.reason = reason;
  }
}

/** How the executing registry's tool differs from the one a call was checked against. */
export type ToolMismatch = "missing" | "schema";

/**
 * The registry asked to execute an envelope does not have the tool its sender checked the call
 * against, and the handler did not run: `"missing"` when it has no tool of that name, `"schema"`
 * when its tool's parameters schema differs from the sender's (compared by fingerprint). Two
 * processes that run different versions of a tool: deploy the same tools on both.
 */
export class ToolMismatchError extends ToolRegistryError {
  override readonly name = "ToolMismatchError";
  readonly toolName: string;
  readonly reason: ToolMismatch;

  constructor(toolName: string, reason: ToolMismatch) {
    super(mismatchMessage(toolName, reason));
    this.toolName = toolName;
    this.reason = reason;
  }
}

/** `Tool "<name>" was not run: the call arrived …` for an envelope that cannot be trusted. */
export function envelopeMessage(toolName: string, reason: EnvelopeRefusal): string {
  const head = toolName === "" ? "The tool call was not run:" : `Tool ${describeName(toolName)} was not run:`;
  return reason === "malformed"
    ? `${head} it arrived in a form that could not be read. Try again later.`
    : `${head} its arguments changed on the way to where it runs. Try again later.`;
}

/** `Tool "<name>" was not run: where it runs, …` for a registry whose tool differs from the sender's. */
export function mismatchMessage(toolName: string, reason: ToolMismatch): string {
  const head = `Tool ${describeName(toolName)} was not run:`;
  return reason === "missing"
    ? `${head} it is not available where it would run. Do not call it again now; tell the user.`
    : `${head} where it would run, it takes different arguments than the ones described to you. Do not call it again now; tell the user.`;
}
