/**
 * The bounded parse behind rule 2 of repair (a string holding JSON): the text is measured first,
 * in one pass that stops at the bounds, and parsed only when its UTF-8 size and its nesting are
 * within them, so that no string inside the arguments can make repair parse more than the
 * registry's `maxArgumentBytes` or build a value nested deeper than the library walks.
 */

/** What {@link parseJsonText} read, and the value when it parsed within the bounds. */
export interface ParsedJsonText {
  /** The parsed value; `undefined` when the text is over a bound or not JSON. */
  readonly value: unknown;
  /** The UTF-8 bytes measured (up to the first past `maxBytes`): what the attempt spent of the byte budget. */
  readonly bytesRead: number;
}

/**
 * Parses `text` as JSON when it takes at most `maxBytes` of UTF-8 and nests arrays and objects at
 * most `maxDepth` deep; otherwise reads no further than the bound that stopped it.
 */
export function parseJsonText(text: string, maxBytes: number, maxDepth: number): ParsedJsonText {
  let bytes = 0;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    bytes += utf8Bytes(unit);
    if (bytes > maxBytes) return { value: undefined, bytesRead: bytes };
    if (inString) {
      if (unit === 0x5c /* \ */) {
        // The escaped unit is never a quote that ends the string.
        if (++index < text.length) bytes += utf8Bytes(text.charCodeAt(index));
      } else if (unit === 0x22 /* " */) {
        inString = false;
      }
    } else if (unit === 0x22) {
      inString = true;
    } else if (unit === 0x5b /* [ */ || unit === 0x7b /* { */) {
      if (++depth > maxDepth) return { value: undefined, bytesRead: bytes };
    } else if (unit === 0x5d /* ] */ || unit === 0x7d /* } */) {
      depth--;
    }
  }
  try {
    return { value: JSON.parse(text) as unknown, bytesRead: bytes };
  } catch {
    return { value: undefined, bytesRead: bytes };
  }
}

/** The UTF-8 bytes of one UTF-16 code unit: 1 to 3 (a surrogate pair, two units, takes 4). */
function utf8Bytes(unit: number): number {
  return unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
}
