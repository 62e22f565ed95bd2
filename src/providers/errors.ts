import { ToolRegistryError } from "../errors.js";
import { describeName } from "../text/describe.js";

/** The provider dialects this package speaks, as named in its errors. */
export type ProviderName = "OpenAI Chat Completions" | "OpenAI Responses" | "Anthropic" | "Gemini";

/**
 * A tool name the provider would reject (OpenAI and Anthropic accept only
 * `^[a-zA-Z0-9_-]{1,64}$`, so `uber.ride` is refused). Thrown by an adapter's
 * `tools()` in the default `names: "strict"` mode instead of sending the name;
 * an adapter made with `names: "map"` maps names reversibly instead.
 */
export class ProviderNameError extends ToolRegistryError {
  override readonly name = "ProviderNameError";
  /** The registry's name of the tool. */
  readonly toolName: string;
  /** The provider that would reject the name. */
  readonly provider: ProviderName;

  constructor(toolName: string, provider: ProviderName, rule: string) {
    super(
      `Tool ${describeName(toolName)} cannot be sent to ${provider}: tool names must match ${rule}. ` +
        `Make the adapter with { names: "map" } to map names reversibly.`,
    );
    this.toolName = toolName;
    this.provider = provider;
  }
}

/**
 * A tool's parameters schema cannot be sent in the form asked for: it is not
 * plain JSON, its root is not an object schema, or (OpenAI strict mode) it
 * uses a construct strict mode does not support. `pointer` is the JSON Pointer
 * of the offending construct within the schema (`/` for the root).
 */
export class ProviderSchemaError extends ToolRegistryError {
  override readonly name = "ProviderSchemaError";
  /** The registry's name of the tool. */
  readonly toolName: string;
  /** The provider the schema was converted for. */
  readonly provider: ProviderName;
  /** JSON Pointer of the offending construct in the tool's schema, `/` for the root. */
  readonly pointer: string;
  /** What is wrong there, e.g. `"minLength" is not supported in strict mode`. */
  readonly problem: string;

  constructor(toolName: string, provider: ProviderName, pointer: string, problem: string, options?: ErrorOptions) {
    super(`Tool ${describeName(toolName)} cannot be sent to ${provider}: at ${pointer}, ${problem}`, options);
    this.toolName = toolName;
    this.provider = provider;
    this.pointer = pointer;
    this.problem = problem;
  }
}

/**
 * A provider object handed to an adapter's `call()` is not a tool call of that
 * provider: a missing or non-string `id` or `name`, a text block instead of a
 * `tool_use` block, an OpenAI custom tool call, and so on. The message names
 * the field, never its value.
 */
export class ProviderFormatError extends ToolRegistryError {
  override readonly name = "ProviderFormatError";
  /** The provider whose format was expected. */
  readonly provider: ProviderName;

  constructor(provider: ProviderName, problem: string) {
    super(`This is not a tool call in the ${provider} format: ${problem}`);
    this.provider = provider;
  }
}

/**
 * More tools than the provider accepts in one request (OpenAI: 128), or than
 * the adapter's `maxTools` option allows. Thrown by an adapter's `tools()`
 * before anything is sent; pass `only` with the names of the tools a request needs.
 */
export class ProviderLimitError extends ToolRegistryError {
  override readonly name = "ProviderLimitError";
  /** The provider the tools were meant for. */
  readonly provider: ProviderName;
  /** The most tools one request may carry. */
  readonly limit: number;
  /** How many tools would have been sent. */
  readonly count: number;

  constructor(provider: ProviderName, limit: number, count: number) {
    super(
      `${provider} accepts at most ${limit} tools in one request, and ${count} would be sent. ` +
        `Send the tools this request needs: pass { only: [...names] } with at most ${limit} registry names.`,
    );
    this.provider = provider;
    this.limit = limit;
    this.count = count;
  }
}
