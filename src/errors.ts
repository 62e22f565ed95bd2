import { describeName, describeThrown } from "./text/describe.js";

/** Base class of every error this library throws or rejects with on purpose. */
export class ToolRegistryError extends Error {
  override readonly name: string = "ToolRegistryError";
}

/** One problem of a tool definition: where, and what. */
export interface DefinitionProblem {
  /**
   * JSON Pointer into the tool's `parameters` schema (`/` for its root), or `""` for a problem
   * of the definition itself (its name, a duplicate, the handler).
   */
  readonly pointer: string;
  /** What is wrong there, in words that name schema facts only. */
  readonly problem: string;
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
    this.problems = Object.freeze(list.map((problem) => Object.freeze({ pointer: problem.pointer, problem: problem.problem })));
  }
}

function definitionMessage(problems: readonly DefinitionProblem[]): string {
  const inSchema = problems.filter((problem) => problem.pointer !== "");
  const own = problems.filter((problem) => problem.pointer === "").map((problem) => problem.problem);
  if (inSchema.length > 0) own.push(`its parameters schema is invalid at ${inSchema.map((problem) => `${problem.pointer}: ${problem.problem}`).join("; ")}`);
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

  /** @param repeats see {@link ToolArgumentsValidationError.repeats} */
  constructor(toolName: string, issues: readonly string[], repeats = 0) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(validationMessage(toolName, issues));
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.toolName = toolName;
    this.issues = Object.freeze([...issues]);
    this.repeats = repeats;
  }
}

/** A tool call names a tool that is not registered. */
export class UnknownToolError extends ToolRegistryError {
  override readonly name = "UnknownToolError";
  /** The name the call asked for. */
  readonly toolName: string;
  /** Registered names close to `toolName`, best first (possibly empty). */
  readonly suggestions: readonly string[];
  /** The registered names when the call was made, which the message lists when no name is close. */
  readonly available: readonly string[];

  constructor(toolName: string, suggestions: readonly string[], available: readonly string[] = []) {
    super(unknownToolMessage(toolName, suggestions, available));
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

  constructor(toolName: string, toolCallId: string, timeoutMs: number) {
    super(toolName, toolCallId, undefined, timeoutMessage(toolName, timeoutMs));
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller's `signal` aborted the call (the handler's `context.signal` was
 * aborted with it, or the handler never started); `cause` is the signal's reason.
 * It is a {@link ToolExecutionError}: the tool did not complete.
 */
export class ToolAbortedError extends ToolExecutionError {
  override readonly name = "ToolAbortedError";

  constructor(toolName: string, toolCallId: string, reason: unknown) {
    super(toolName, toolCallId, reason, abortedMessage(toolName));
  }
}

const MAX_LISTED_TOOLS = 20;

// The messages, built from a tool name, so that text for the model can name the tool as the model knows it.

/** `Invalid arguments for tool "<name>":` and one `  - <issue>` line per issue. */
export function validationMessage(toolName: string, issues: readonly string[]): string {
  return [`Invalid arguments for tool ${describeName(toolName)}:`, ...issues.map((issue) => `  - ${issue}`)].join("\n");
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

/** `Tool "<name>" timed out after <n> ms`. */
export function timeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool ${describeName(toolName)} timed out after ${timeoutMs} ms`;
}

/** `Tool "<name>" was aborted`. */
export function abortedMessage(toolName: string): string {
  return `Tool ${describeName(toolName)} was aborted`;
}
