/**
 * JSON Pointer (RFC 6901), the one place that encodes and decodes it: for instance paths in
 * issues, and for `$ref` fragments in schemas. One decoding rule for every `$ref`: the fragment
 * is percent-decoded (RFC 3986, as a URI fragment), then `~1` becomes `/` and `~0` becomes `~`.
 */

/** Escapes one segment: `~` as `~0`, `/` as `~1`. */
export function escapeSegment(segment: string): string {
  if (!segment.includes("~") && !segment.includes("/")) return segment;
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Undoes {@link escapeSegment}. */
export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `pointer` with one more segment. */
export function appendSegment(pointer: string, segment: string | number): string {
  return `${pointer}/${typeof segment === "number" ? segment : escapeSegment(segment)}`;
}

/** The JSON Pointer of `segments`, then `child` when given (`""` for the root). */
export function pointerOf(segments: ReadonlyArray<string | number>, child?: string | number): string {
  let pointer = "";
  for (let index = 0; index < segments.length; index++) pointer = appendSegment(pointer, segments[index]!);
  return child === undefined ? pointer : appendSegment(pointer, child);
}

/** The segments of a `#/…` reference, decoded; `undefined` when it is not a local pointer or its percent-encoding is broken. */
export function refSegments(ref: string): string[] | undefined {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return undefined;
  const segments: string[] = [];
  for (const raw of ref.slice(2).split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    segments.push(unescapeSegment(decoded));
  }
  return segments;
}

/** The node at `segments` under `root`, following own properties only (and array indices); `undefined` when there is none. */
export function resolveSegments(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

// C0 controls, DEL, C1 controls, line and paragraph separators, and lone surrogates.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// The same, to test for any without the global flag's state: most pointers have none.
const ANY_UNSAFE_CHARACTER = new RegExp(UNSAFE_CHARACTERS.source);

/**
 * A pointer as shown in text for the model and for logs: `/` for the root, control characters,
 * line separators and lone surrogates written as `\uXXXX` (so that no key can start a new line
 * or forge an issue), and each segment cut to about `maxSegmentCharacters`: its start and its end,
 * where long names that share a start (`item_…_count`, `item_…_price`) differ.
 */
export function displayPointer(pointer: string, maxSegmentCharacters = 64): string {
  if (pointer === "") return "/";
  const escaped = ANY_UNSAFE_CHARACTER.test(pointer)
    ? pointer.replace(UNSAFE_CHARACTERS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : pointer;
  if (escaped.length <= maxSegmentCharacters * 2) return escaped;
  return escaped
    .split("/")
    .map((segment) => (segment.length > maxSegmentCharacters ? cutSegment(segment, maxSegmentCharacters) : segment))
    .join("/");
}

/** A long segment's first three quarters of `max` characters and its last quarter, joined by `…`, never splitting a surrogate pair. */
function cutSegment(segment: string, max: number): string {
  let head = Math.ceil((max * 3) / 4);
  let tail = segment.length - (max - head);
  if (isHighSurrogate(segment.charCodeAt(head - 1))) head--;
  if (isHighSurrogate(segment.charCodeAt(tail - 1))) tail++;
  return `${segment.slice(0, head)}…${segment.slice(tail)}`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
