/**
 * Gemini 3's streamed function-call arguments as JSON text. Gemini does not stream a call's
 * arguments as text: it sends `partialArgs` entries, each a leaf value addressed by a JSON path
 * (`{ jsonPath: "$.recipe.ingredients[0].amount", stringValue: "16 oz", willContinue: true }`),
 * a string possibly in several entries for one path. Entries come in document order, so the
 * text can be written as they arrive: containers open and close as the paths move, a string
 * stays open while its entries say `willContinue`. The text then takes the same early checks
 * and the same final check as any other provider's.
 */

/** One `partialArgs` entry (the `@google/genai` SDK's `PartialArg`). */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: string;
  willContinue?: boolean;
}

/** An open object or array below the root. */
interface Container {
  readonly isArray: boolean;
  /** Members written so far. */
  count: number;
  /** An object's keys written so far: a key must not come twice. */
  readonly keys: Set<string>;
}

/** Why an entry could not be written as text, in words that name no value. */
export type PartialArgProblem = string;

/** Writes one call's `partialArgs` entries as the JSON text of its arguments object. */
export class PartialArgsWriter {
  /** The open containers, the root object first. */
  readonly #containers: Container[] = [{ isArray: false, count: 0, keys: new Set() }];
  /** The path segments of the open containers below the root. */
  readonly #path: Array<string | number> = [];
  /** The path of a string still open (its last entry said `willContinue`). */
  #openString: ReadonlyArray<string | number> | undefined;

  /** The text that opens the arguments. */
  start(): string {
    return "{";
  }

  /**
   * The text of one entry.
   * @returns the text, or a problem when the entry cannot be placed (a path that does not
   * parse, goes back to a place already written, skips an array index, or has no value)
   */
  write(entry: GeminiPartialArg): { text: string } | { problem: PartialArgProblem } {
    const segments = typeof entry.jsonPath === "string" ? parseJsonPath(entry.jsonPath) : undefined;
    if (segments === undefined || segments.length === 0) return { problem: "a partialArgs entry has no JSON path to an argument" };
    let text = "";
    if (this.#openString !== undefined) {
      if (samePath(this.#openString, segments)) {
        if (typeof entry.stringValue !== "string") return { problem: "a partialArgs entry continues a string with a value that is not one" };
        return { text: this.#continueString(entry) };
      }
      text += '"';
      this.#openString = undefined;
    }
    // Close the containers the new path leaves.
    let common = 0;
    while (common < this.#path.length && common < segments.length - 1 && this.#path[common] === segments[common]) common++;
    while (this.#path.length > common) text += this.#close();
    for (let depth = common; depth < segments.length; depth++) {
      const container = this.#containers[this.#containers.length - 1]!;
      const segment = segments[depth]!;
      if (container.isArray ? segment !== container.count : typeof segment !== "string" || container.keys.has(segment)) {
        return { problem: "a partialArgs entry goes back to a place already written, or skips an array index" };
      }
      text += container.count > 0 ? "," : "";
      if (!container.isArray) {
        text += `${JSON.stringify(segment)}:`;
        container.keys.add(segment as string);
      }
      container.count++;
      if (depth === segments.length - 1) break;
      const isArray = typeof segments[depth + 1] === "number";
      this.#containers.push({ isArray, count: 0, keys: new Set() });
      this.#path.push(segment);
      text += isArray ? "[" : "{";
    }
    const value = leafText(entry);
    if (value === undefined) return { problem: "a partialArgs entry holds no value" };
    text += value;
    if (typeof entry.stringValue === "string" && entry.willContinue === true) {
      text = text.slice(0, -1);
      this.#openString = segments;
    }
    return { text };
  }

  /** The text that ends the arguments: an open string, every open container, the root. */
  end(): string {
    let text = "";
    if (this.#openString !== undefined) text += '"';
    this.#openString = undefined;
    while (this.#path.length > 0) text += this.#close();
    return `${text}}`;
  }

  #continueString(entry: GeminiPartialArg): string {
    const piece = stringContent(entry.stringValue!);
    if (entry.willContinue === true) return piece;
    this.#openString = undefined;
    return `${piece}"`;
  }

  #close(): string {
    this.#path.pop();
    return this.#containers.pop()!.isArray ? "]" : "}";
  }
}

/** The JSON text of an entry's value (a string closed), or `undefined` when it holds none. */
function leafText(entry: GeminiPartialArg): string | undefined {
  if (typeof entry.stringValue === "string") return `"${stringContent(entry.stringValue)}"`;
  if (typeof entry.numberValue === "number") return Number.isFinite(entry.numberValue) ? JSON.stringify(entry.numberValue) : undefined;
  if (typeof entry.boolValue === "boolean") return String(entry.boolValue);
  if (entry.nullValue !== undefined) return "null";
  return undefined;
}

/** A string's content as it stands between the quotes of a JSON string (a lone surrogate escaped, to pair up with the next piece's). */
function stringContent(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function samePath(left: ReadonlyArray<string | number>, right: ReadonlyArray<string | number>): boolean {
  return left.length === right.length && left.every((segment, index) => segment === right[index]);
}

/**
 * The segments of an RFC 9535 normalized-style path: `$`, then `.name`, `[0]`, `['name']` or
 * `["name"]`; `undefined` for anything else.
 */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith("$")) return undefined;
  const segments: Array<string | number> = [];
  let index = 1;
  while (index < path.length) {
    const character = path[index];
    if (character === ".") {
      const match = /^[^.[\]]+/.exec(path.slice(index + 1));
      if (match === null) return undefined;
      segments.push(match[0]);
      index += 1 + match[0].length;
    } else if (character === "[") {
      const rest = path.slice(index);
      const number = /^\[(0|[1-9][0-9]*)\]/.exec(rest);
      const quoted = number === null ? /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest) : null;
      if (number !== null) {
        segments.push(Number(number[1]));
        index += number[0].length;
      } else if (quoted !== null) {
        const name = unescapeName(quoted[1] ?? quoted[2] ?? "");
        if (name === undefined) return undefined;
        segments.push(name);
        index += quoted[0].length;
      } else {
        return undefined;
      }
    } else {
      return undefined;
    }
  }
  return segments;
}

/** A quoted name's escapes (`\'`, `\"`, `\\` and JSON's) undone; `undefined` when they are not valid. */
function unescapeName(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw.replace(/\\'/g, "'")}"`) as string;
  } catch {
    return undefined;
  }
}
