import type { Static, TSchema } from "typebox";
import type { ToolContent } from "./results/content.js";
import type { ApprovalRequest } from "./execution/approvals.js";
import type { AllowList } from "./dispatch/allow.js";

/**
 * Refuses, in the type checker, a schema object of another library as
 * `parameters`: a Zod schema (it has `_zod`, or `_def` in Zod 3), a Valibot
 * schema (`~run`) or an ArkType type (callable, with `~standard`). They are
 * not JSON Schema; their JSON Schema output is (for Zod 4,
 * `z.toJSONSchema(schema)`). `register` refuses them at run time as well.
 */
export type NoSchemaLibraryObject<T> = T extends (...args: never) => unknown
  ? { readonly "~standard"?: never }
  : { readonly _zod?: never; readonly _def?: never; readonly "~run"?: never };

/**
 * What a model is told about a tool: its name, what it does, the JSON Schema of its arguments, and
 * optionally the JSON Schema of its result.
 */
export interface ToolDefinition<TParameters extends TSchema = TSchema, TOutput extends TSchema = TSchema> {
  /** Unique within a registry: letters, digits, `_`, `-`, `.` and `:`, at most 128 characters. */
  name: string;
  /** What the tool does, written for the model. */
  description: string;
  /**
   * The schema of the arguments object: a TypeBox type or a plain JSON Schema
   * object. Not a Zod, Valibot or ArkType schema: pass its JSON Schema.
   */
  parameters: TParameters & NoSchemaLibraryObject<TParameters>;
  /**
   * The schema of the handler's result (an object schema; the name MCP uses). It types what the
   * handler returns, and the registry checks every result against it: a result that does not
   * match is a `ToolResultValidationError`, which tells the model that the tool ran. For a
   * handler that returns `toolContent(items, { structuredContent })`, the structured value is checked.
   */
  outputSchema?: TOutput & NoSchemaLibraryObject<TOutput>;
}

/**
 * A tool call as a model produced it: what `dispatch` takes and what the
 * provider adapters read from a response.
 */
export interface ToolCallContent {
  /** `"tool_call"` on every call this library builds; optional on calls built by hand. */
  type?: "tool_call";
  /** The provider's id for this call, echoed back in the result. */
  id: string;
  /** The name of the tool to run. */
  name: string;
  /**
   * The arguments: an object, or the JSON text a provider delivered (OpenAI's
   * `function.arguments`, kept as text when it is not a JSON object so that
   * dispatch reports it to the model), which dispatch parses under `maxArgumentBytes`.
   */
  arguments: Record<string, unknown> | string;
}

/** The second argument every handler receives. */
export interface ToolContext {
  /** The id of the call being run. */
  toolCallId: string;
  /** The name of the tool being run. */
  toolName: string;
  /**
   * Aborted when the caller's signal aborts or the call times out; pass it on
   * to I/O. A call with neither gets a shared signal that never aborts (and
   * keeps no listeners). A `dispatch` with a `signal` and no time limit gets
   * that signal itself; under a time limit, and in `dispatchAll` or a stream,
   * each call has a signal of its own, which never aborts once the call has settled.
   */
  signal: AbortSignal;
  /** What the caller passed as `data` to `dispatch` or `dispatchAll` (the user, the tenant…), else `undefined`. */
  data?: unknown;
}

/** What a handler may return for a result of type `T`: the value or a rich result, or a promise of either. */
export type ToolOutput<T> = T | ToolContent<T> | PromiseLike<T | ToolContent<T>>;

/**
 * A tool's implementation. `args` have been copied and checked against the tool's schema; with an
 * `outputSchema`, the return value is typed by it.
 */
export type ToolHandler<TParameters extends TSchema = TSchema, TOutput extends TSchema = TSchema> = (
  args: Static<TParameters>,
  context: ToolContext,
) => ToolOutput<Static<TOutput>>;

/** How a result came to be without running its handler: joined a run in flight, from the cache, or replayed from the ledger. */
export type ReuseKind = "in-flight" | "cache" | "ledger";

/** One call's outcome from `dispatchAll` when its handler returned (or its result was reused). */
export interface ToolSuccess {
  status: "ok";
  toolCallId: string;
  toolName: string;
  isError: false;
  /**
   * What the handler returned (awaited), or a `toolContent` result. When the result was cut to
   * `maxResultBytes`, the text that reaches the model: the cut text and a notice.
   */
  value: unknown;
  /** Present only when the registry's opt-in repair (`onRepair`) repaired arguments for this call. */
  repairs?: readonly ArgumentRepair[];
  /**
   * Absent when the handler ran for this call; otherwise how its result came to be: `"in-flight"`
   * (it joined an identical call running at the same time), `"cache"` (a `read-only` tool's
   * memoized result) or `"ledger"` (a `once` tool's stored result, replayed).
   */
  reused?: ReuseKind;
  /** Present (true) when the result was larger than `maxResultBytes` and was cut. */
  truncated?: true;
}

/** One call's outcome from `dispatchAll` when it failed for any reason. */
export interface ToolFailure {
  status: "error";
  toolCallId: string;
  toolName: string;
  isError: true;
  /** The typed error: validation, unknown tool, execution, timeout, abort, policy or approval. */
  error: Error;
  /** Text written for the model: what went wrong and how to correct the call. */
  content: string;
}

/**
 * A call of a tool that needs approval, checked and not run: show `request` to a person, then
 * dispatch the call again with the token `registry.approve(request)` gives, or answer the model
 * with `registry.deny(request)`.
 */
export interface ToolApprovalPending {
  status: "approval-required";
  toolCallId: string;
  toolName: string;
  isError: false;
  /** What the person approves: plain JSON, safe to store and send. */
  request: ApprovalRequest;
  /** Never set: the tool did not run. Declared so that `result.isError ? result.content : result.value` compiles for any result. */
  value?: undefined;
}

/** A call that was not run because a person (`registry.deny`) or a hook declined it: not an error of the tool. */
export interface ToolDenial {
  status: "denied";
  toolCallId: string;
  toolName: string;
  isError: false;
  /** Text for the model: the call was declined, and why when a reason was given. */
  content: string;
  /** Never set: the tool did not run. Declared so that `result.isError ? result.content : result.value` compiles for any result. */
  value?: undefined;
}

/** One call's outcome from `dispatchAll`. */
export type ToolResult = ToolSuccess | ToolFailure | ToolApprovalPending | ToolDenial;

/** Per-call options of `dispatch`. */
export interface DispatchOptions {
  /** Aborting it aborts the handler's `context.signal` and rejects the dispatch. */
  signal?: AbortSignal | undefined;
  /** An approval token from `registry.approve`, for a tool that needs approval. */
  approval?: string | undefined;
  /** Your own data for this request (the user, the tenant…): handlers, hooks and policies see it as `context.data`. */
  data?: unknown;
  /**
   * The registered tools this call may run, for this turn: their registry names, or a function
   * of the name. A tool outside it is refused with `ToolNotAllowedError` (listing those that are
   * allowed) and never runs; close-name suggestions never name it. Every tool when unset.
   */
  allow?: AllowList | undefined;
}

/** Options of `dispatchAll`. */
export interface DispatchAllOptions extends Omit<DispatchOptions, "approval"> {
  /**
   * How many calls run at once.
   * @default Infinity
   */
  concurrency?: number | undefined;
  /** Approval tokens from `registry.approve`, by tool call id. */
  approvals?: Readonly<Record<string, string>> | undefined;
  /**
   * `"sequential"` runs the calls one at a time, in order (as `concurrency: 1`); `"parallel"` runs
   * them at once (up to `concurrency`), in an order still kept among calls that share an
   * `exclusive` resource.
   * @default "parallel"
   */
  order?: "parallel" | "sequential" | undefined;
}

/** Figures of a validator cache. */
export interface CacheStats {
  /** Validators held now. */
  size: number;
  /** The bound (`Infinity` when unbounded). */
  max: number;
  /** Lookups that found a compiled validator. */
  hits: number;
  /** Lookups that had to compile. */
  misses: number;
  /** Validators dropped to stay within `max`. */
  evictions: number;
}

/** Figures of the calls a registry refused for their arguments. */
export interface FailureStats {
  /** Calls refused for their arguments (each a `ToolArgumentsValidationError`). */
  argumentFailures: number;
  /**
   * Of those, the calls that repeated the tool's previous refusal: the same arguments (the same
   * JSON text, or an equal object) refused with the same issues, with no accepted call of the
   * tool in between.
   */
  repeatedFailures: number;
}

/** What compiling has cost, and how validators run. */
export interface CompileStats {
  /** Total time spent compiling, in milliseconds. */
  compileMs: number;
  /**
   * Whether this environment allows code generation. Without it (a
   * Content-Security-Policy without `unsafe-eval`), validators still check
   * everything, through TypeBox's interpreter (slower) or precompiled code.
   */
  codeGeneration: boolean;
  /** Validators compiled so far that run interpreted, without generated code. */
  interpreted: number;
}

/** The name of a JSON value's type, as a repair report gives it. */
export type JsonTypeName = "string" | "number" | "boolean" | "null" | "object" | "array";

/**
 * One repair: where, and the JSON type before and after. Never the value.
 * - `string` to `number` or `boolean`: `"20"` where the schema says number, `"true"` where it says boolean;
 * - `string` to `object` or `array`: a string holding the JSON of what the schema wants;
 * - `null` to `omitted`: `null` for an optional property whose schema refuses `null`;
 * - any type to `array`: a lone value where the schema wants an array of it.
 */
export interface ArgumentRepair {
  /** JSON Pointer of the repaired value (`/` for the root), segments escaped as in issues. */
  pointer: string;
  /** The JSON type before. */
  from: JsonTypeName;
  /** The JSON type after, or `"omitted"` when the property was left out. */
  to: JsonTypeName | "omitted";
}

/**
 * One piece of one streamed tool call, as a provider adapter's `deltas()` reads it from the
 * SDK's stream (or as you write it for another source). A call's deltas share its `toolCallId`;
 * its name comes with the first of them (or a later one), its arguments as JSON text in pieces
 * split anywhere, and `done` when the provider says the call's arguments are complete.
 */
export interface ToolCallDelta {
  /** The provider's id of the call (generated by the adapter when the provider sends none). */
  toolCallId: string;
  /** The registry name of the tool, on the delta that first knows it. */
  toolName?: string;
  /** The next piece of the arguments' JSON text. */
  argumentsDelta?: string;
  /** Set when the provider has ended this call's arguments. */
  done?: boolean;
  /** Set when the provider's stream could not be read for this call: it fails with this error. */
  error?: Error;
}

/** Options of `dispatchStream`: those of `dispatchAll`, and what to do about a call certain to fail. */
export interface DispatchStreamOptions extends DispatchAllOptions {
  /**
   * What to do at the first call certain to fail while the model is still streaming (an
   * unknown tool, or issues certain from its arguments so far, or arguments that failed their
   * final check): `"continue"` reads on; `"abort"` aborts `abortController`, so that the SDK
   * call you passed its signal to stops the model's generation and saves its tokens.
   * @default "continue"
   */
  onInvalid?: "continue" | "abort" | undefined;
  /** The controller whose signal you passed to the SDK's streaming call; required with `onInvalid: "abort"`. */
  abortController?: AbortController | undefined;
}

/** What every event of `dispatchStream` says of its call. */
export interface ToolStreamEventBase {
  /** The call's place in the stream: 0 for the first call to start, and so on. */
  index: number;
  toolCallId: string;
  /** The registry name of the tool (`""` for a call that names none). */
  toolName: string;
}

/** A call's name is known; an unknown tool's `tool-result` (a failure) follows at once. */
export interface ToolCallStartEvent extends ToolStreamEventBase {
  type: "tool-call-start";
}

/** A piece of a call's arguments arrived. */
export interface ToolCallDeltaEvent extends ToolStreamEventBase {
  type: "tool-call-delta";
  /** The piece of JSON text. */
  argumentsDelta: string;
  /** The arguments parsed so far: built when read, one value for the call brought up to date at each read. */
  readonly value: unknown;
  /** The problems certain from the arguments so far (see `ArgumentStreamState.issues`). */
  issues: readonly string[];
}

/** A call will not run: its arguments have problems certain from what has arrived (or failed their final check). Sent once per call. */
export interface ToolCallInvalidEvent extends ToolStreamEventBase {
  type: "tool-call-invalid";
  /** The problems, as `<JSON Pointer>: <message>` lines (never an argument value). */
  issues: readonly string[];
}

/** A call settled: its result as `dispatchAll` gives it (a value, a failure with text for the model, an approval request, a denial). */
export interface ToolResultEvent extends ToolStreamEventBase {
  type: "tool-result";
  result: ToolResult;
}

/**
 * What `dispatchStream` yields. Each call gives one `tool-call-start` first and one
 * `tool-result` last, with `tool-call-delta`s (and at most one `tool-call-invalid`) between;
 * results come in the order calls settle, and `index` gives each call's place in the stream.
 */
export type ToolStreamEvent = ToolCallStartEvent | ToolCallDeltaEvent | ToolCallInvalidEvent | ToolResultEvent;
