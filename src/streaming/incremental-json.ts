import { appendSegment } from "../schema/pointer.js";
import { defineOwn } from "../objects.js";

/** What a JSON value is known to be from its first character. */
export const ValueKind = { Object: 0, Array: 1, String: 2, Number: 3, True: 4, False: 5, Null: 6 } as const;
/** One of {@link ValueKind}'s values. */
export type ValueKind = (typeof ValueKind)[keyof typeof ValueKind];

/** Where the value or key being reported sits: its JSON Pointer, written only when asked for. */
export interface PointerSource {
  /** The JSON Pointer of the value just begun or completed (or of the key just read, as a property). */
  pointer(): string;
}

/**
 * Told of a JSON text's values as they are read, each with the plans it holds for that place in
 * the text (`undefined` where it holds none: nothing is asked below that point).
 */
export interface ValueObserver<Plans> {
  /** The plans for the root value. */
  rootPlans(): Plans | undefined;
  /** The plans for item `index` of an array whose plans are `parent`; `depth` is the item's (the root's is 0). */
  item(parent: Plans, index: number, depth: number): Plans | undefined;
  /** A key was read in an object whose plans are `parent`: the plans for its value (`at` points to it). */
  member(parent: Plans, key: string, depth: number, at: PointerSource): Plans | undefined;
  /**
   * A value began; its kind is known, its content may not be.
   * @returns whether to be told of the value once it is complete (strings, numbers, booleans and null)
   */
  begin(plans: Plans, kind: ValueKind, depth: number, at: PointerSource): boolean;
  /** A string, number, boolean or null asked for in `begin` is complete, with the value `JSON.parse` gives it. */
  complete(plans: Plans, value: unknown, at: PointerSource): void;
}

// Parser states.
const VALUE = 0; // a value is expected: at the root, after ':' or after ',' in an array
const FIRST_IN_ARRAY = 1; // after '[': a value or ']'
const FIRST_IN_OBJECT = 2; // after '{': a key or '}'
const KEY = 3; // after ',' in an object: a key
const COLON = 4; // after a key
const AFTER = 5; // after a value in a container: ',' or the container's end
const STRING = 6;
const ESCAPE = 7; // after a backslash in a string
const UNICODE = 8; // inside \uXXXX
const NUMBER = 9;
const LITERAL = 10; // inside true, false or null
const END = 11; // the root value is complete: only whitespace may follow
const FAILED = 12; // the text can no longer become JSON

// Number states: where a number is in JSON's grammar, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
const N_START = 0;
const N_MINUS = 1;
const N_ZERO = 2;
const N_INTEGER = 3;
const N_DOT = 4;
const N_FRACTION = 5;
const N_E = 6;
const N_E_SIGN = 7;
const N_EXPONENT = 8;
const N_INVALID = 9;

const LITERALS = ["true", "false", "null"] as const;
/** The powers of ten a double holds exactly: 10^0 to 10^22. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
/**
 * A run of a JSON string: characters it may hold as they are, and complete, valid escapes
 * (sticky: it matches where `lastIndex` says). Written as an unrolled loop, with no alternation
 * per character, so that the engine scans it without backtracking.
 */
const STRING_RUN = /[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*/y;
const LITERAL_VALUES = [true, false, null] as const;

/**
 * How deep the open containers kept as frames go. Below, where no plan looks (the checks stop at
 * 128 levels), a container is kept as one byte (array or object), its value is not built, and its
 * keys are not kept: a text of nothing but `[` costs a byte per level, where a frame, and the
 * partial value's array, cost hundreds. `JSON.parse` takes any depth, and so does the stream.
 */
export const MAX_FRAME_DEPTH = 512;

/** An open object or array. */
interface Frame<Plans> {
  /** The container it is in (`undefined` for the root). */
  readonly parent: Frame<Plans> | undefined;
  /** How deep it is: 0 for the root. */
  readonly depth: number;
  readonly isArray: boolean;
  /** The partial value, when values are built. */
  readonly container: Record<string, unknown> | unknown[] | undefined;
  /** Where it sits in its parent (`undefined` for the root). */
  readonly segment: string | number | undefined;
  readonly plans: Plans | undefined;
  /** Objects: the key of the member being read. */
  key: string;
  /** Objects: the plans for that member's value. */
  memberPlans: Plans | undefined;
  /** Arrays: how many items have begun. */
  length: number;
}

/**
 * A JSON parser that reads its text in pieces of any size, split anywhere (inside a token, an
 * escape, a `\uXXXX`, a surrogate pair), and does work linear in the total length, however it is
 * split: each character is looked at once, and nothing read is read again.
 *
 * It builds the partial value as it goes (when asked to): objects and arrays appear when they
 * open, a string when it opens (growing as it arrives, never ending in half a surrogate pair),
 * numbers, booleans and `null` once complete; a member appears once its value begins. It knows
 * the text can no longer become JSON at the first character that JSON's grammar refuses, the
 * same characters `JSON.parse` refuses. Values are the ones `JSON.parse` gives (a `__proto__`
 * key is an own property; a key given twice keeps its last value).
 */
export class IncrementalJsonParser<Plans = never> {
  readonly #build: boolean;
  readonly #observer: ValueObserver<Plans> | undefined;
  /** The innermost open container kept as a frame. */
  #top: Frame<Plans> | undefined = undefined;
  /** The containers open below the frames (see {@link MAX_FRAME_DEPTH}), innermost last: 1 for an array, 0 for an object. */
  #deep = new Uint8Array(0);
  /** How many of {@link #deep}'s bytes are open containers. */
  #deepCount = 0;
  #state = VALUE;
  #root: unknown = undefined;

  // The value or key being read: where it goes, its plans, and whether the observer wants it complete.
  #segment: string | number | undefined = undefined;
  #plans: Plans | undefined = undefined;
  #wanted = false;
  #target: Record<string, unknown> | unknown[] | undefined = undefined;

  // A string being read: its text so far, without a high surrogate at its end (`#pendingHigh`), so that
  // what is shown is never half a pair.
  #stringIsKey = false;
  /** Whether the string's text is kept: to build the value, for a key, or for the observer. */
  #keep = false;
  #stable = "";
  #pendingHigh = "";
  #unicode = 0;
  #unicodeDigits = 0;

  // A number being read across pieces, and a literal.
  #numberText = "";
  #numberState = N_START;
  /** The digits read so far (of the integer and the fraction), as a number: exact while it is a safe integer. */
  #integer = 0;
  /** How many of those digits are the fraction's. */
  #fractionDigits = 0;
  #negative = false;
  #literal = 0;
  #literalIndex = 0;

  readonly #at: PointerSource = { pointer: () => this.#pointer() };

  /**
   * @param build whether to build the partial value (else only the grammar is followed)
   * @param observer told of each key and value, with its plans
   */
  constructor(build: boolean, observer?: ValueObserver<Plans>) {
    this.#build = build;
    this.#observer = observer;
  }

  /** The value read so far: `undefined` before the first value begins. */
  get value(): unknown {
    return this.#root;
  }

  /** Whether the text read so far is one complete JSON value, as `JSON.parse` would accept it (a root number may still go on). */
  get complete(): boolean {
    return this.#state === END || (this.#state === NUMBER && this.#top === undefined && isWholeNumber(this.#numberState));
  }

  /** Ends the text: a number at the root, which only the end of the text ends, is complete now. */
  end(): void {
    if (this.#state === NUMBER && this.#top === undefined) this.write(" ");
  }

  /** Whether the text can no longer become JSON. */
  get failed(): boolean {
    return this.#state === FAILED;
  }

  /** Reads the next piece of the text. */
  write(text: string): void {
    const length = text.length;
    let index = 0;
    let state = this.#state;
    while (index < length) {
      if (state === STRING) {
        // A run of the string: plain characters and whole, valid escapes. A short run is read here;
        // a longer one, or one with escapes, by the regular expression engine, which scans faster.
        const start = index;
        const shortEnd = index + 24 < length ? index + 24 : length;
        let code = -1;
        while (index < shortEnd) {
          const unit = text.charCodeAt(index);
          if (unit === 34 || unit === 92 || unit < 32) {
            code = unit;
            break;
          }
          index++;
        }
        // Only a run the engine read may hold escapes.
        let escapes = false;
        if ((code === -1 && index < length) || code === 92) {
          const end = stringRunEnd(text, index);
          if (end >= 0) {
            escapes = end > index;
            index = end;
            code = index < length ? text.charCodeAt(index) : -1;
          }
        }
        const run = index > start && this.#keep ? (escapes ? decodeRun(text.slice(start, index)) : text.slice(start, index)) : "";
        if (code === 34) {
          // The usual end: a string with nothing kept before this run is this run.
          let value = run;
          if (this.#stable !== "" || this.#pendingHigh !== "") {
            this.#append(run);
            value = this.#pendingHigh === "" ? this.#stable : this.#stable + this.#pendingHigh;
            this.#stable = "";
            this.#pendingHigh = "";
          }
          this.#endString(value);
          index++;
          // A key is followed by its colon, most often at once.
          if (this.#state === COLON && index < length && text.charCodeAt(index) === 58) {
            this.#state = VALUE;
            index++;
          }
        } else {
          if (run !== "") this.#append(run);
          // A backslash here starts an escape this piece does not finish, or an invalid one.
          if (code === 92) index = this.#readEscape(text, index + 1);
          // A raw control character: JSON strings must escape them.
          else if (code >= 0) this.#state = FAILED;
        }
        state = this.#state;
        continue;
      }
      const code = text.charCodeAt(index);
      if (code <= 32 && (code === 32 || code === 10 || code === 13 || code === 9) && (state <= AFTER || state === END)) {
        index++;
        continue;
      }
      switch (state) {
        case VALUE:
          this.#beginValue(code);
          // A number's first character is read again, as part of the number.
          if (this.#state !== NUMBER) index++;
          break;
        case FIRST_IN_ARRAY:
          if (code === 93) {
            this.#close(true);
            index++;
          } else {
            this.#beginValue(code);
            if (this.#state !== NUMBER) index++;
          }
          break;
        case FIRST_IN_OBJECT:
          index++;
          if (code === 125) this.#close(false);
          else if (code === 34) this.#beginKey();
          else this.#state = FAILED;
          break;
        case KEY:
          index++;
          if (code === 34) this.#beginKey();
          else this.#state = FAILED;
          break;
        case COLON:
          index++;
          this.#state = code === 58 ? VALUE : FAILED;
          break;
        case AFTER: {
          index++;
          const isArray = this.#deepCount > 0 ? this.#deep[this.#deepCount - 1] === 1 : this.#top!.isArray;
          if (code === 44) {
            // In an object, a comma is followed by the next key's quote, most often at once.
            if (isArray) this.#state = VALUE;
            else if (index < length && text.charCodeAt(index) === 34) {
              index++;
              this.#beginKey();
            } else this.#state = KEY;
          } else if (code === (isArray ? 93 : 125)) this.#close(isArray);
          else this.#state = FAILED;
          break;
        }
        case NUMBER:
          index = this.#readNumber(text, index);
          break;
        case ESCAPE:
          index = this.#readEscape(text, index);
          break;
        case UNICODE:
          index = this.#readUnicode(text, index);
          break;
        case LITERAL:
          index = this.#readLiteral(text, index);
          break;
        case END:
          // Only whitespace may follow the root value.
          this.#state = FAILED;
          break;
        default:
          return;
      }
      state = this.#state;
    }
    // Show the string being read as it stands at the end of this piece.
    if (state >= STRING && state <= UNICODE && !this.#stringIsKey) this.#place(this.#stable);
  }

  #beginValue(code: number): void {
    let kind: ValueKind;
    if (code === 123) kind = ValueKind.Object;
    else if (code === 91) kind = ValueKind.Array;
    else if (code === 34) kind = ValueKind.String;
    else if (code === 45 || (code >= 48 && code <= 57)) kind = ValueKind.Number;
    else if (code === 116) kind = ValueKind.True;
    else if (code === 102) kind = ValueKind.False;
    else if (code === 110) kind = ValueKind.Null;
    else {
      this.#state = FAILED;
      return;
    }
    if (this.#deepCount > 0) {
      // Inside a container kept as a byte: followed for its grammar only.
      this.#wanted = false;
      if (kind === ValueKind.Object || kind === ValueKind.Array) this.#openDeep(kind === ValueKind.Array);
      else this.#beginScalar(kind);
      return;
    }
    const parent = this.#top;
    const depth = parent === undefined ? 0 : parent.depth + 1;
    let plans: Plans | undefined;
    if (parent === undefined) {
      this.#segment = undefined;
      this.#target = undefined;
      plans = this.#observer?.rootPlans();
    } else if (parent.isArray) {
      this.#segment = parent.length++;
      this.#target = parent.container;
      plans = parent.plans === undefined ? undefined : this.#observer!.item(parent.plans, this.#segment, depth);
    } else {
      this.#segment = parent.key;
      this.#target = parent.container;
      plans = parent.memberPlans;
    }
    this.#plans = plans;
    this.#wanted = plans !== undefined && this.#observer!.begin(plans, kind, depth, this.#at);
    if (kind !== ValueKind.Object && kind !== ValueKind.Array) {
      this.#beginScalar(kind);
      return;
    }
    if (depth >= MAX_FRAME_DEPTH && plans === undefined) {
      // The partial value shows it empty, however much it holds.
      if (this.#build) this.#place(kind === ValueKind.Array ? [] : {});
      this.#openDeep(kind === ValueKind.Array);
      return;
    }
    const container = this.#build ? (kind === ValueKind.Array ? [] : {}) : undefined;
    if (container !== undefined) this.#place(container);
    this.#top = { parent, depth, isArray: kind === ValueKind.Array, container, segment: this.#segment, plans, key: "", memberPlans: undefined, length: 0 };
    this.#state = kind === ValueKind.Array ? FIRST_IN_ARRAY : FIRST_IN_OBJECT;
  }

  /** A string, number, `true`, `false` or `null` begins. */
  #beginScalar(kind: ValueKind): void {
    switch (kind) {
      case ValueKind.String:
        this.#stringIsKey = false;
        // The text kept of the last string was cleared when it ended; below the frames none is kept.
        this.#keep = (this.#build && this.#deepCount === 0) || this.#wanted;
        if (this.#build) this.#place("");
        this.#state = STRING;
        return;
      case ValueKind.Number:
        // The text kept of the last number was cleared when it ended.
        this.#numberState = N_START;
        this.#integer = 0;
        this.#fractionDigits = 0;
        this.#negative = false;
        this.#state = NUMBER;
        return;
      default:
        this.#literal = kind - ValueKind.True;
        this.#literalIndex = 1;
        this.#state = LITERAL;
    }
  }

  /** Opens a container kept as a byte. */
  #openDeep(isArray: boolean): void {
    if (this.#deepCount === this.#deep.length) {
      const grown = new Uint8Array(Math.max(64, this.#deep.length * 2));
      grown.set(this.#deep);
      this.#deep = grown;
    }
    this.#deep[this.#deepCount++] = isArray ? 1 : 0;
    this.#state = isArray ? FIRST_IN_ARRAY : FIRST_IN_OBJECT;
  }

  #beginKey(): void {
    this.#stringIsKey = true;
    // Keys are kept for the frame they name a member of; below the frames, nothing reads them.
    this.#keep = this.#deepCount === 0;
    this.#state = STRING;
  }

  /** Puts a value (or a string's text so far) where the value being read goes. */
  #place(value: unknown): void {
    if (!this.#build || this.#deepCount > 0) return;
    const target = this.#target;
    if (target === undefined) this.#root = value;
    else if (Array.isArray(target)) target[this.#segment as number] = value;
    else if (this.#segment === "__proto__") defineOwn(target, "__proto__", value);
    else target[this.#segment as string] = value;
  }

  #completeValue(value: unknown): void {
    this.#place(value);
    if (this.#wanted) this.#observer!.complete(this.#plans!, value, this.#at);
    // (A value in a container kept as a byte has a frame above it: it is followed by AFTER.)
    this.#state = this.#top === undefined ? END : AFTER;
  }

  #close(isArray: boolean): void {
    if (this.#deepCount > 0) {
      if ((this.#deep[this.#deepCount - 1] === 1) !== isArray) {
        this.#state = FAILED;
        return;
      }
      this.#deepCount--;
      this.#state = AFTER;
      return;
    }
    const frame = this.#top!;
    if (frame.isArray !== isArray) {
      this.#state = FAILED;
      return;
    }
    this.#top = frame.parent;
    this.#state = frame.parent === undefined ? END : AFTER;
  }

  /** Reads the character after a backslash (at `index`, possibly in the next piece). */
  #readEscape(text: string, index: number): number {
    if (index === text.length) {
      this.#state = ESCAPE;
      return index;
    }
    this.#state = STRING;
    switch (text.charCodeAt(index)) {
      case 34:
        this.#append('"');
        break;
      case 92:
        this.#append("\\");
        break;
      case 47:
        this.#append("/");
        break;
      case 98:
        this.#append("\b");
        break;
      case 102:
        this.#append("\f");
        break;
      case 110:
        this.#append("\n");
        break;
      case 114:
        this.#append("\r");
        break;
      case 116:
        this.#append("\t");
        break;
      case 117:
        this.#unicode = 0;
        this.#unicodeDigits = 0;
        return this.#readUnicode(text, index + 1);
      default:
        this.#state = FAILED;
        return text.length;
    }
    return index + 1;
  }

  /** Reads the hex digits of a `\uXXXX` escape, as many as this piece holds. */
  #readUnicode(text: string, index: number): number {
    const length = text.length;
    while (this.#unicodeDigits < 4) {
      if (index === length) {
        this.#state = UNICODE;
        return index;
      }
      const code = text.charCodeAt(index++);
      const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : code >= 65 && code <= 70 ? code - 55 : -1;
      if (digit < 0) {
        this.#state = FAILED;
        return length;
      }
      this.#unicode = this.#unicode * 16 + digit;
      this.#unicodeDigits++;
    }
    this.#state = STRING;
    this.#append(String.fromCharCode(this.#unicode));
    return index;
  }

  /** Adds decoded text to the string being read, holding back a high surrogate at its end. */
  #append(piece: string): void {
    if (!this.#keep) return;
    if (this.#pendingHigh !== "") {
      piece = this.#pendingHigh + piece;
      this.#pendingHigh = "";
    }
    const last = piece.charCodeAt(piece.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#stable += piece.slice(0, -1);
      this.#pendingHigh = piece.slice(-1);
    } else {
      this.#stable += piece;
    }
  }

  /** A string ended; `text` is its value (`""` when it was not kept). */
  #endString(text: string): void {
    if (!this.#stringIsKey) {
      this.#completeValue(text);
      return;
    }
    if (this.#deepCount > 0) {
      this.#state = COLON;
      return;
    }
    const frame = this.#top!;
    frame.key = text;
    this.#state = COLON;
    if (frame.plans === undefined) {
      frame.memberPlans = undefined;
      return;
    }
    this.#segment = text;
    frame.memberPlans = this.#observer!.member(frame.plans, text, frame.depth + 1, this.#at);
  }

  /** Reads number characters; the first other character ends the number and is read again as what follows it. */
  #readNumber(text: string, index: number): number {
    const length = text.length;
    const start = index;
    let state = this.#numberState;
    let integer = this.#integer;
    let fractionDigits = this.#fractionDigits;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code >= 48 && code <= 57) {
        if (state === N_INTEGER) integer = integer * 10 + (code - 48);
        else if (state === N_FRACTION || state === N_DOT) {
          state = N_FRACTION;
          integer = integer * 10 + (code - 48);
          fractionDigits++;
        } else if (state === N_START || state === N_MINUS) {
          state = code === 48 ? N_ZERO : N_INTEGER;
          integer = code - 48;
        } else if (state === N_ZERO) state = N_INVALID;
        else if (state === N_E || state === N_E_SIGN) state = N_EXPONENT;
      } else if (code === 46) {
        state = state === N_ZERO || state === N_INTEGER ? N_DOT : N_INVALID;
      } else if (code === 101 || code === 69) {
        state = state === N_ZERO || state === N_INTEGER || state === N_FRACTION ? N_E : N_INVALID;
      } else if (code === 45) {
        if (state === N_START) this.#negative = true;
        state = state === N_START ? N_MINUS : state === N_E ? N_E_SIGN : N_INVALID;
      } else if (code === 43) {
        state = state === N_E ? N_E_SIGN : N_INVALID;
      } else {
        break;
      }
      if (state === N_INVALID) {
        this.#state = FAILED;
        return length;
      }
      index++;
    }
    this.#numberState = state;
    if (index === length) {
      // The number may go on in the next piece.
      this.#numberText += text.slice(start, index);
      this.#integer = integer;
      this.#fractionDigits = fractionDigits;
      return length;
    }
    let value: number;
    if ((state === N_INTEGER || state === N_ZERO) && integer <= Number.MAX_SAFE_INTEGER) {
      // Every step was exact: the value JSON.parse gives, without reading the text again.
      value = this.#negative ? -integer : integer;
    } else if (state === N_FRACTION && integer <= Number.MAX_SAFE_INTEGER && fractionDigits < POWERS_OF_TEN.length) {
      // Both operands exact, so one division rounds correctly (Clinger's fast path): JSON.parse's value.
      value = (this.#negative ? -integer : integer) / POWERS_OF_TEN[fractionDigits]!;
    } else if (state === N_FRACTION || state === N_EXPONENT || state === N_INTEGER) {
      value = Number(this.#numberText === "" ? text.slice(start, index) : this.#numberText + text.slice(start, index));
    } else {
      this.#state = FAILED;
      return length;
    }
    this.#numberText = "";
    this.#completeValue(value);
    return index;
  }

  #readLiteral(text: string, index: number): number {
    const literal = LITERALS[this.#literal]!;
    const length = text.length;
    while (this.#literalIndex < literal.length) {
      if (index === length) return index;
      if (text.charCodeAt(index) !== literal.charCodeAt(this.#literalIndex)) {
        this.#state = FAILED;
        return length;
      }
      index++;
      this.#literalIndex++;
    }
    this.#completeValue(LITERAL_VALUES[this.#literal]);
    return index;
  }

  #pointer(): string {
    const segments: Array<string | number> = this.#segment === undefined ? [] : [this.#segment];
    for (let frame = this.#top; frame !== undefined; frame = frame.parent) if (frame.segment !== undefined) segments.push(frame.segment);
    let pointer = "";
    for (let index = segments.length - 1; index >= 0; index--) pointer = appendSegment(pointer, segments[index]!);
    return pointer;
  }
}

/** Whether a number in this state is a whole JSON number (it may still go on). */
function isWholeNumber(state: number): boolean {
  return state === N_ZERO || state === N_INTEGER || state === N_FRACTION || state === N_EXPONENT;
}

/** Where the run of a JSON string that starts at `index` ends (see `STRING_RUN`); `-1` when the engine could not tell (a run of a million escapes overflows its stack). */
function stringRunEnd(text: string, index: number): number {
  STRING_RUN.lastIndex = index;
  try {
    STRING_RUN.test(text);
  } catch {
    return -1;
  }
  return STRING_RUN.lastIndex;
}

/** A run of a JSON string as its value: as it is, or with its escapes decoded by `JSON.parse` itself. */
function decodeRun(raw: string): string {
  return raw.indexOf("\\") === -1 ? raw : (JSON.parse(`"${raw}"`) as string);
}

/** A text with every kind of value, escape and number form, in pieces split inside tokens: what {@link keepLayouts} reads. */
export const LAYOUT_SAMPLE: readonly string[] = ['{"k":"plain","e":"a\\n\\u00e9\\"', '\\ud83d\\ude00","n":[0,-1', "2,1.5,-0.25e3,", "4294967296,12345678901234567890,1e400],", '"o":{"t":true,"f":false,"z":null},"s":"x', 'y"}'];

/**
 * V8 drops a class's object layouts once no instance of it is left, and with them the optimized
 * code built on them: after a full garbage collection with no stream open, the next stream would
 * run unoptimized for its first thousands of characters. Parsers kept for the life of the module,
 * each read through every kind of value once, keep the layouts, and so the code, of those that
 * follow.
 */
export function keepLayouts<T>(parser: T & { write(text: string): void }): T {
  for (const piece of LAYOUT_SAMPLE) parser.write(piece);
  return parser;
}

/** Parsers that only follow the grammar, and parsers that build values. */
export const LAYOUT_KEEPERS: readonly IncrementalJsonParser[] = [keepLayouts(new IncrementalJsonParser(false)), keepLayouts(new IncrementalJsonParser(true))];
