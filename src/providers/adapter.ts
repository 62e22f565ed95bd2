import { checkRegistry } from "../options.js";
import { argumentLimitOf } from "../registry/argument-limits.js";
import type { ToolRegistry } from "../registry/registry.js";
import { rememberModelNames } from "../text/model-names.js";
import type { ToolCallContent, ToolCallDelta, ToolResult } from "../types.js";
import type { DeltaContext, DeltasOptions } from "./deltas/context.js";
import type { ProviderName } from "./errors.js";
import { ToolNameMap } from "./names.js";
import { checkAdapterOptions, checkToolsOptions } from "./options.js";
import { type ProviderRule, type ProviderTool, providerTools } from "./tools.js";

/** Options of every adapter, checked once when it is made. */
export interface AdapterOptions {
  /**
   * What to do with tool names the provider rejects (`uber.ride` for OpenAI and Anthropic):
   * - `"strict"`: `tools()` throws a `ProviderNameError` naming the tool;
   * - `"map"`: the adapter builds one {@link ToolNameMap} from the registry and keeps it, so
   *   `tools()` sends `uber_ride`, `call()` reads it back as `uber.ride`, and the text
   *   `dispatchAll` writes for the model names `uber_ride`.
   * @default "strict"
   */
  names?: "strict" | "map" | undefined;
  /**
   * The registry names of the tools `tools()` sends (in registry order), for an
   * agent that needs only some of them; `tools({ only })` chooses for one request instead.
   * Every tool when unset. A name must be registered when `tools()` is called.
   */
  only?: Iterable<string> | undefined;
  /**
   * The most tools one request may carry: `tools()` throws a `ProviderLimitError`
   * for more, before the provider refuses the request.
   * @default 128 for OpenAI (Chat Completions and Responses), which refuses more; `Infinity` for Anthropic and Gemini
   */
  maxTools?: number | undefined;
}

/** Options of the OpenAI adapters, `openAIChat` and `openAIResponses`. */
export interface OpenAIAdapterOptions extends AdapterOptions {
  /**
   * OpenAI's strict mode (Structured Outputs). `tools()` sends each tool with
   * `strict: true` and its schema converted to the subset strict mode accepts:
   * `additionalProperties: false` on every object, every property required,
   * optional ones made nullable. `call()` then removes each `null` the model
   * sent for an optional property whose own schema does not accept `null`, so
   * the call validates against the tool's real schema. A schema strict mode
   * cannot express makes `tools()` throw a `ProviderSchemaError` naming the
   * tool and the JSON Pointer of the construct.
   * @default false
   */
  strict?: boolean | undefined;
}

/** Options of one `tools()` call. */
export interface ToolsOptions {
  /**
   * The registry names of the tools this request sends (in registry order),
   * in place of the adapter's `only`: chosen from the whole registry, and
   * held to the adapter's `maxTools`.
   */
  only?: Iterable<string> | undefined;
}

/**
 * One provider's dialect for one registry: the request's tools, the calls of
 * its responses, and the results sent back. Its methods need no `this`, so
 * they can be passed as they are: `toolCalls.map(adapter.call)`.
 *
 * @typeParam TCall a tool call as the provider's SDK returns it
 * @typeParam TTool a tool as the provider's request takes it
 * @typeParam TResult the provider's answer to one tool call
 * @typeParam TEvent an event of the provider SDK's streaming call
 */
export interface ProviderAdapter<TCall, TTool, TResult, TEvent = never> {
  /** The provider, as errors name it. */
  readonly provider: ProviderName;
  /** The name map of an adapter made with `names: "map"` (pass it to `failureContent`), else `undefined`. */
  readonly nameMap: ToolNameMap | undefined;
  /**
   * The tools for a request: the registry's tools as they are now (or those of
   * `only`), named and described in the provider's format.
   * @throws ProviderLimitError for more tools than `maxTools` allows (OpenAI: 128); choose a subset with `only`
   * @throws ProviderNameError for a name the provider rejects, with `names: "strict"`
   * @throws ProviderSchemaError for a schema that cannot be sent (in strict mode: that strict mode cannot express)
   * @throws TypeError for a bad `only`, or one naming a tool that is not registered
   */
  tools(options?: ToolsOptions): TTool[];
  /**
   * One tool call of the provider's response as a {@link ToolCallContent} for
   * `dispatch` or `dispatchAll`, with its name mapped back to the registry's.
   * @throws ProviderFormatError when `providerCall` is not a tool call of this provider
   */
  call(providerCall: TCall): ToolCallContent;
  /**
   * One result of `dispatchAll` as the provider's tool-result message or block:
   * the value as text or JSON, or for a failure the text written for the model.
   */
  result(toolResult: ToolResult): TResult;
  /**
   * The tool calls of a streamed response, as they arrive: reads what the SDK's streaming
   * call yields and returns the deltas `registry.dispatchStream` takes (one call's pieces share
   * its `toolCallId`; names are mapped back to the registry's). `options.onEvent` gets every
   * event of the stream as it passes, the model's text included. The stream is read as the
   * deltas are, once.
   * @throws TypeError at once when `options.onEvent` is not a function
   */
  deltas<TStreamEvent extends TEvent>(stream: AsyncIterable<TStreamEvent>, options?: DeltasOptions<TStreamEvent>): AsyncIterable<ToolCallDelta>;
}

/** What every adapter shares: its checked options, its name map, and how calls and tools are named. */
export interface AdapterBase {
  readonly nameMap: ToolNameMap | undefined;
  readonly strict: boolean;
  /** The tools of one request. */
  tools(options: ToolsOptions | undefined): ProviderTool[];
  /** The registry name behind a provider's tool name. */
  registryName(providerName: string): string;
  /** The call, remembering the name map (if any) so that text for the model uses the model's names. */
  toolCall(id: string, name: string, args: Record<string, unknown> | string): ToolCallContent;
  /** What the stream readers need: names, and (for the OpenAI adapters, in strict mode) what `call()` does with a call's text. */
  deltaContext(argumentsOf?: (toolName: string, text: string) => Record<string, unknown> | string): DeltaContext;
}

/**
 * Checks the registry and the options, builds the name map if asked, and
 * returns what the dialect's adapter builds on.
 * @param accepted the options this adapter takes
 * @throws TypeError when `registry` is not a ToolRegistry, or naming a bad option
 */
export function adapterBase(registry: ToolRegistry, rule: ProviderRule, options: unknown, accepted: readonly string[]): AdapterBase {
  checkRegistry(registry);
  const checked = checkAdapterOptions(options, accepted, rule.maxTools);
  const nameMap = checked.names === "map" ? new ToolNameMap(registry) : undefined;
  const registryName = nameMap === undefined ? (providerName: string) => providerName : (providerName: string) => nameMap.fromProviderName(providerName);
  return {
    nameMap,
    strict: checked.strict,
    tools: (toolsOptions) =>
      providerTools(registry, rule, {
        only: checkToolsOptions(toolsOptions) ?? checked.only,
        maxTools: checked.maxTools,
        nameMap,
        strict: checked.strict,
      }),
    registryName,
    toolCall: (id, name, args) => {
      const call: ToolCallContent = { type: "tool_call", id, name, arguments: args };
      if (nameMap !== undefined) rememberModelNames(call, nameMap);
      return call;
    },
    deltaContext: (argumentsOf) => ({ registryName, dialect: { names: nameMap, argumentsOf }, maxArgumentBytes: argumentLimitOf(registry) }),
  };
}
