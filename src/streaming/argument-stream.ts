import { describeOption } from "../options.js";
import { type ArgumentReader, READER_LAYOUT_KEEPER } from "./argument-reader.js";
import { INSPECT } from "../inspect.js";
import { definePartialValue, defineStreamEnded } from "./partial-value.js";

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
  /**
   * `false` until {@link ArgumentStream.end} is called (which returns the checked arguments), `true`
   * after: read when asked for, as `value` is, so a state kept from a push says when its stream ended.
   */
  readonly done: boolean;
}

/**
 * One push's state, as plain data: `value`, `issues` and `done` are its own enumerable properties,
 * so a spread, `Object.keys`, `JSON.stringify` and deep equality see all three. `value` and `done`
 * are getters, which read the stream's one partial value, built when read (see
 * {@link ArgumentStreamState.value}), and whether it ended; Node's `inspect` shows them read at that moment.
 */
class PushState<T> implements ArgumentStreamState<T> {
  declare readonly value: DeepPartial<T> | undefined;
  declare readonly issues: readonly string[];
  declare readonly done: boolean;

  constructor(reader: ArgumentReader, issues: readonly string[]) {
    // In this order, so that the properties read as the contract lists them: value, issues, done.
    definePartialValue(this, reader);
    (this as { issues: readonly string[] }).issues = issues;
    defineStreamEnded(this);
  }

  /** What Node's `console.log` and `util.inspect` show: the same properties, `value` and `done` read now (they show a getter as `[Getter]`). */
  [INSPECT](): { value: DeepPartial<T> | undefined; issues: readonly string[]; done: boolean } {
    return { ...this };
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
  /** The last push's state, returned again while nothing it shows changed: see {@link ArgumentStream.push}. */
  #last: PushState<T> | undefined;
  /** The reader's `valueReads` when {@link ArgumentStream.#last} was made. */
  #lastReads = 0;

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
   * @returns the state after this piece: the partial value and the issues certain so far. A push
   * that finds no new issue, when nobody read the value since the last push, returns the state the
   * last push returned (the same object: its `value` is the stream's one value, read when asked
   * for, and its `issues` have not changed); once the value was read, a new one
   * @throws TypeError when `delta` is not a string, or after `end()`
   */
  push(delta: string): ArgumentStreamState<T> {
    if (this.#ended) throw new TypeError("push() was called after end(): the arguments are complete");
    if (typeof delta !== "string") throw new TypeError(`delta must be a string, got ${describeOption(delta)}`);
    this.#reader.push(delta);
    const reader = this.#reader;
    const issues = reader.issues;
    // A state holds no more than its issues (its value is the stream's, read when asked for). While
    // they stay the same and nobody read the value since, the last push's state is this one's, and
    // making it again would cost more than most pushes. Once the value was read, each push makes a
    // new state, so that code which tells states apart by identity (a UI's `setState`) sees a change.
    if (this.#last !== undefined && this.#last.issues === issues && reader.valueReads === this.#lastReads) return this.#last;
    this.#lastReads = reader.valueReads;
    return (this.#last = new PushState<T>(reader, issues));
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
    this.#reader.ended = true;
    return this.#reader.prepare().args as T;
  }
}

/** Options of `registry.argumentStream`. */
export interface ArgumentStreamOptions {
  /** The call's id, as the registry's `onRepair` reports it. */
  toolCallId?: string | undefined;
}

/** A stream and a push state kept for the life of the module: see `keepLayouts`. */
export const STREAM_LAYOUT_KEEPERS: readonly [ArgumentStream, ArgumentStreamState<unknown>] = (() => {
  const stream = new ArgumentStream(READER_LAYOUT_KEEPER);
  const state = stream.push("");
  void state.value;
  return [stream, state] as const;
})();
