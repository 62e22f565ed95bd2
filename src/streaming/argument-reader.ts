import { readCall } from "../dispatch/call-fields.js";
import { type PrepareContext, type PreparedCall, prepareCall, type RegisteredTool } from "../dispatch/prepare.js";
import { RepeatedFailures } from "../dispatch/repeated-failures.js";
import { ToolArgumentsValidationError } from "../errors.js";
import { type Issue, issueLines, MAX_ISSUES, ROOT_ISSUES } from "../text/issues.js";
import type { ToolCallContent } from "../types.js";
import { DEFAULT_MAX_ARGUMENT_BYTES, parsedArguments } from "../validation/arguments.js";
import { type CompiledValidator, validatorSlot } from "../validation/cache.js";
import { IncrementalJsonParser, LAYOUT_SAMPLE } from "./incremental-json.js";
import { type PlanSet, plansOf } from "./plan-sets.js";
import { type IssueSink, PrefixChecker } from "./prefix-checker.js";

/** How a provider turns a call's complete arguments text into what its `call()` gives dispatch. */
export type ArgumentsOf = (toolName: string, text: string) => ToolCallContent["arguments"];

/** Options of an {@link ArgumentReader}. */
export interface ArgumentReaderOptions {
  /** The call's id, as `onRepair` reports it. */
  readonly toolCallId: string;
  /**
   * What the final check is given for the complete text: the text itself when unset (dispatch
   * parses it), or what a provider's `call()` would give (OpenAI strict mode drops nulls first).
   */
  readonly argumentsOf?: ArgumentsOf | undefined;
}

const EMPTY: readonly string[] = Object.freeze([]);

/**
 * One call's arguments as their text arrives: the text kept for the final check, a parser that
 * follows JSON's grammar with a {@link PrefixChecker} watching, the issues certain so far, and the
 * partial value, built only when asked for. Total work is linear in the text, however it is split.
 *
 * Everything is bounded: text past the registry's `maxArgumentBytes` is not kept (the size is then
 * the one issue, as dispatch would report it), issues stop at what an error shows, and no place
 * deeper than `MAX_CHECKED_DEPTH` is checked.
 */
export class ArgumentReader implements IssueSink {
  readonly tool: RegisteredTool;
  readonly toolCallId: string;
  readonly #context: PrepareContext;
  readonly #argumentsOf: ArgumentsOf | undefined;
  readonly #parser: IncrementalJsonParser<PlanSet>;
  #text = "";
  #characters = 0;
  /** UTF-8 bytes of the text, counted once the text could be near the limit (`-1` before). */
  #bytes = -1;
  #oversize = false;
  /** The issues found, and the lines shown for them (`undefined` until asked for again). */
  readonly #found: Issue[] = [];
  #lines: readonly string[] = EMPTY;
  /** Set when one issue about the whole text replaces every other. */
  #replaced: readonly string[] | undefined;
  // The partial value, built on demand from the text not yet read into it (the first `#unbuiltCount` pieces).
  #builder: IncrementalJsonParser | undefined;
  readonly #unbuilt: string[] = [];
  #unbuiltCount = 0;

  /**
   * @param context what dispatch's prepare step reads of the registry
   * @throws ToolDefinitionError when the tool's schema cannot compile (as dispatch would)
   */
  constructor(tool: RegisteredTool, context: PrepareContext, options: ArgumentReaderOptions) {
    this.tool = tool;
    this.toolCallId = options.toolCallId;
    this.#context = context;
    this.#argumentsOf = options.argumentsOf;
    // Compiled now: a schema that cannot compile fails the stream before its arguments arrive.
    context.validator(tool);
    const checker = new PrefixChecker(plansOf(tool.definition.parameters), this, {
      nullsMayBeDropped: options.argumentsOf !== undefined,
      mayBeRepaired: context.onRepair !== undefined,
    });
    this.#parser = new IncrementalJsonParser<PlanSet>(false, checker);
  }

  /** Reads the next piece of the arguments text. */
  push(delta: string): void {
    if (this.#oversize || delta === "") return;
    this.#text += delta;
    this.#characters += delta.length;
    if (this.#builder !== undefined) this.#unbuilt[this.#unbuiltCount++] = delta;
    // Bytes are counted only once the text could be near the limit (a UTF-16 unit is at most 3 bytes).
    if ((this.#bytes >= 0 || this.#characters * 3 > this.#context.maxArgumentBytes) && this.#exceedsMaxBytes(delta)) {
      this.#oversize = true;
      // Exactly what dispatch says of this text, from dispatch's own size check, but not through the
      // prepare step: that step counts a failure (and remembers it, to spot a repeat), and end() or
      // refusal() will prepare this text once more. Preparing it here too made a first failure a repeat.
      this.#replaced = sizeIssues(this.tool.name, this.#text, this.#context.maxArgumentBytes);
      this.full = true;
      return;
    }
    const parser = this.#parser;
    if (parser.failed) return;
    parser.write(delta);
    if (parser.failed) {
      this.#replaced = [ROOT_ISSUES.notJson];
      this.full = true;
    }
  }

  /** The problems certain from the text so far, as `<JSON Pointer>: <message>` lines (never an argument value). */
  get issues(): readonly string[] {
    if (this.#replaced !== undefined) return this.#replaced;
    return this.#lines;
  }

  /** The value parsed so far: one value for the whole text, built when first asked for and brought up to date at each ask. */
  get value(): unknown {
    this.valueReads++;
    if (this.#builder === undefined) {
      this.#builder = new IncrementalJsonParser(true);
      this.#builder.write(this.#text);
    } else if (this.#unbuiltCount > 0) {
      // The array is kept, and its slots reused: emptying it would cost more than reading it.
      for (let index = 0; index < this.#unbuiltCount; index++) this.#builder.write(this.#unbuilt[index]!);
      this.#unbuilt.fill("", 0, this.#unbuiltCount);
      this.#unbuiltCount = 0;
    }
    return this.#builder.value;
  }

  /** How many times {@link value} was read: a stream's states are made anew once it was. */
  valueReads = 0;

  /** Whether its stream has ended (`end()` was called): its states' `done` reads it. */
  ended = false;

  /** Whether the text so far is one complete JSON value: nothing but whitespace may follow it. */
  get complete(): boolean {
    return this.#parser.complete;
  }

  /** The whole text, as dispatch would receive it. */
  get text(): string {
    return this.#text;
  }

  /**
   * The final check, by dispatch's own prepare step, on the complete text: the private checked
   * copy dispatch would hand the handler (repaired when repair is on), or its error.
   * @throws ToolArgumentsValidationError, UnknownToolError, ToolDefinitionError: what dispatch would throw
   */
  prepare(): PreparedCall {
    return prepareCall(readCall({ type: "tool_call", id: this.toolCallId, name: this.tool.name, arguments: this.dispatchArguments() }), this.#context);
  }

  /**
   * The final check of a call that will not run (a problem in it is certain): checked as
   * {@link prepare} checks it, but never repaired, so that `onRepair` hears only of calls that
   * run. Unrepaired, the check fails exactly as a failed repair leaves it.
   * @returns the error dispatch's check gives the text, or `undefined` when it passes (a key
   * named twice can hide a certain problem from `JSON.parse`)
   */
  refusal(): unknown {
    const call = readCall({ type: "tool_call", id: this.toolCallId, name: this.tool.name, arguments: this.dispatchArguments() });
    try {
      prepareCall(call, { ...this.#context, onRepair: undefined });
    } catch (error) {
      return error;
    }
    return undefined;
  }

  /**
   * The arguments dispatch is given for the whole text: the text itself (dispatch parses it), or
   * what the provider's `call()` makes of it (OpenAI strict mode drops nulls). Text past the size
   * limit stays text, for dispatch to refuse by its size.
   */
  dispatchArguments(): ToolCallContent["arguments"] {
    return this.#argumentsOf === undefined || this.#oversize ? this.#text : this.#argumentsOf(this.tool.name, this.#text);
  }

  // IssueSink: what the prefix checker reports.

  /** Whether the issues shown are all there will be: one replaced every other, or there are as many as an error shows. */
  full = false;

  add(pointer: string, message: string): void {
    if (this.full) return;
    this.#found.push({ pointer, message });
    this.#lines = Object.freeze(issueLines(this.#found));
    if (this.#found.length > MAX_ISSUES) this.full = true;
  }

  replaceAll(line: string): void {
    this.#replaced ??= [line];
    this.full = true;
  }

  /**
   * Whether the text is now larger than `maxArgumentBytes` in UTF-8, counted as dispatch counts
   * (each UTF-16 unit 1 to 3 bytes, a surrogate 2). Bytes are counted only once the text could be
   * near the limit, and each character at most once.
   */
  #exceedsMaxBytes(delta: string): boolean {
    const max = this.#context.maxArgumentBytes;
    if (this.#bytes < 0) {
      if (this.#characters * 3 <= max) return false;
      this.#bytes = utf8Bytes(this.#text);
    } else {
      this.#bytes += utf8Bytes(delta);
    }
    return this.#bytes > max;
  }
}

/** The issues dispatch's size check gives a text over `maxBytes`, the one issue such a text has. */
function sizeIssues(toolName: string, text: string, maxBytes: number): readonly string[] {
  try {
    parsedArguments(toolName, text, maxBytes);
  } catch (error) {
    if (error instanceof ToolArgumentsValidationError) return error.issues;
  }
  return EMPTY;
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

/** A reader kept for the life of the module, read through every kind of value once: see `keepLayouts`. */
export const READER_LAYOUT_KEEPER: ArgumentReader = layoutKeeper();

function layoutKeeper(): ArgumentReader {
  const parameters = { type: "object", properties: { k: { type: "string" } } } as unknown as RegisteredTool["definition"]["parameters"];
  const tool: RegisteredTool = { name: "layout", definition: { name: "layout", description: "", parameters }, handler: () => undefined, timeoutMs: undefined, policy: undefined, options: {}, lastRefusal: undefined, validatorSlot: validatorSlot() };
  // Never asked to check: only its layout is wanted.
  const validator: CompiledValidator = { Check: () => true, explain: () => [], IsAccelerated: () => true, fused: undefined, reader: undefined, compile: () => undefined };
  const reader = new ArgumentReader(tool, { tools: new Map(), validator: () => validator, maxArgumentBytes: DEFAULT_MAX_ARGUMENT_BYTES, onRepair: undefined, failures: new RepeatedFailures() }, { toolCallId: "" });
  for (const piece of LAYOUT_SAMPLE) {
    reader.push(piece);
    void reader.value;
  }
  return reader;
}
