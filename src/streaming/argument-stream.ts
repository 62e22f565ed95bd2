import { describeOption } from "../options.js";
import { type ArgumentReader, READER_LAYOUT_KEEPER } from "./argument-reader.js";
import { INSPECT } from "./inspect.js";

/**
 * What arguments of type `T` may look like while they stream: every property optional, all the
 * way down, and arrays of such partial items. A string may be the start of its final text.
 */
export type DeepPartial<T> = T extends ReadonlyArray<infer Item>
  ? Array<DeepPartial<Item>>
  : T extends object
    ? { [Key in keyof T]?: DeepPartial<T[Key]> }
    : T;

/** What {@link ArgumentStream.push} returns: the arguments so far, and what is already wrong with them. */
export interface ArgumentStreamState<T> {
  /**
   * The arguments parsed so far: objects and arrays as soon as they open, strings as they grow
   * (never ending in half a surrogate pair), numbers, booleans and `null` once complete; a
   * property once its value begins. `undefined` before the text holds a value. It is built
   * when read, and is one value for the whole stream, brought up to date with the text at each
   * read (copy it to keep a snapshot): a stream whose value nobody reads never builds it.
   */
  readonly value: DeepPartial<T> | undefined;
  /**
   * The problems already certain from the text so far, as `<JSON Pointer>: <message>` lines
   * (never an argument value): a value of a type the schema does not allow there, a property
   * a closed object does not allow, a complete value outside an `enum` or `const`, a root that is
   * not an object, text that can no longer become JSON, text over `maxArgumentBytes`. Once there
   * is one, the call cannot pass; once the text is complete (JSON, within the size limit, no key
   * twice in one object), each is among the issues {@link ArgumentStream.end} throws (which
   * shows at most 20).
   */
  readonly issues: readonly string[];
  /** `false`: the stream ends with {@link ArgumentStream.end}, which returns the checked arguments instead. */
  readonly done: false;
}

/**
 * One push's state; `value` is read from the stream when asked for. Its accessor is the class's,
 * not the object's own (an own accessor per push would cost more than most pushes), so a spread or
 * `Object.keys` does not see it; JSON and Node's `inspect` show it, read at that moment.
 */
class PushState<T> implements ArgumentStreamState<T> {
  readonly done = false;
  readonly #reader: ArgumentReader;

  constructor(
    reader: ArgumentReader,
    readonly issues: readonly string[],
  ) {
    this.#reader = reader;
  }

  get value(): DeepPartial<T> | undefined {
    return this.#reader.value as DeepPartial<T> | undefined;
  }

  /** `{ value, issues, done }` as plain data, for `JSON.stringify` (a state sent on to a UI as it is). */
  toJSON(): { value: DeepPartial<T> | undefined; issues: readonly string[]; done: false } {
    return { value: this.value, issues: this.issues, done: this.done };
  }

  /** What Node's `console.log` and `util.inspect` show: the same plain data. */
  [INSPECT](): { value: DeepPartial<T> | undefined; issues: readonly string[]; done: false } {
    return this.toJSON();
  }
}

/**
 * One tool call's arguments, validated as their JSON text arrives: what
 * `registry.argumentStream(toolName)` returns. Push each piece of the text as the model streams
 * it; each push returns the partial value and the problems already certain. `end()` then checks
 * the whole text exactly as `dispatch` would (the same parse, the same cached validator) and
 * returns the same private, checked copy, or throws the same error. The work over a whole stream
 * is linear in the length of its text, however it is split.
 *
 * @typeParam T the type of the tool's arguments (`Static<typeof parameters>`)
 */
export class ArgumentStream<T = unknown> {
  readonly #reader: ArgumentReader;
  #ended = false;

  /** Made by `registry.argumentStream(toolName)`. */
  constructor(reader: ArgumentReader) {
    this.#reader = reader;
  }

  /** The registered name of the tool whose arguments these are. */
  get toolName(): string {
    return this.#reader.tool.name;
  }

  /**
   * Reads the next piece of the arguments text (any size, split anywhere: inside a token, an
   * escape or a surrogate pair).
   * @throws TypeError when `delta` is not a string, or after `end()`
   */
  push(delta: string): ArgumentStreamState<T> {
    if (this.#ended) throw new TypeError("push() was called after end(): the arguments are complete");
    if (typeof delta !== "string") throw new TypeError(`delta must be a string, got ${describeOption(delta)}`);
    this.#reader.push(delta);
    return new PushState<T>(this.#reader, this.#reader.issues);
  }

  /**
   * Ends the text and checks it as `dispatch` checks a call's JSON text: the size under
   * `maxArgumentBytes`, the parse, the strict check with the tool's cached validator (and the
   * registry's repair, when on).
   * @returns the private, checked copy of the arguments that `dispatch` would give the handler
   * @throws ToolArgumentsValidationError exactly as `dispatch` would (`/: arguments must be valid JSON` for a text cut short)
   * @throws UnknownToolError when the tool was unregistered since the stream began
   * @throws TypeError when called twice
   */
  end(): T {
    if (this.#ended) throw new TypeError("end() was already called");
    this.#ended = true;
    return this.#reader.prepare().args as T;
  }
}

/** Options of `registry.argumentStream`. */
export interface ArgumentStreamOptions {
  /** The call's id, as the registry's `onRepair` reports it. */
  toolCallId?: string;
}

/** A stream and a push state kept for the life of the module: see `keepLayouts`. */
export const STREAM_LAYOUT_KEEPERS: readonly [ArgumentStream, ArgumentStreamState<unknown>] = (() => {
  const stream = new ArgumentStream(READER_LAYOUT_KEEPER);
  const state = stream.push("");
  void state.value;
  return [stream, state] as const;
})();
