import { MAX_SCHEMA_DEPTH, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, subschemaKeywordsOf } from "./keywords.js";
import { appendSegment } from "./pointer.js";

/** A schema object met by {@link walkSchema}, with its JSON Pointer in the root schema and its depth. */
export type SchemaVisitor = (node: Readonly<Record<string, unknown>>, pointer: string, depth: number) => void;

/** What a walk found that stopped it: `undefined` when it walked everything. */
export interface WalkStop {
  /** The pointer of the subschema that is nested too deeply. */
  readonly pointer: string;
}

/**
 * Visits every subschema object of `root` once, parents before children: the values of the
 * subschema keywords of {@link SUBSCHEMA_KEYWORDS}, {@link SUBSCHEMA_LIST_KEYWORDS} and
 * {@link SUBSCHEMA_MAP_KEYWORDS}, and nothing inside `const`, `enum`, `default` or `examples`
 * (those are values, not schemas). Boolean subschemas are skipped. Iterative, so a deep schema
 * cannot overflow the stack.
 * @returns where it stopped because a subschema is nested deeper than {@link MAX_SCHEMA_DEPTH}, or `undefined`
 */
export function walkSchema(root: unknown, visit: SchemaVisitor, maxDepth = MAX_SCHEMA_DEPTH): WalkStop | undefined {
  const seen = new Set<object>();
  const pending: Array<[unknown, string, number]> = [[root, "", 0]];
  while (pending.length > 0) {
    const [node, pointer, depth] = pending.pop()!;
    if (typeof node !== "object" || node === null || Array.isArray(node) || seen.has(node)) continue;
    if (depth > maxDepth) return { pointer };
    seen.add(node);
    const schema = node as Record<string, unknown>;
    visit(schema, pointer, depth);
    // Most subschemas are leaves (a type and its bounds): their few names are read once, rather
    // than each of about 20 subschema keywords looked up on them.
    const present = subschemaKeywordsOf(schema);
    if (present.length === 0) continue;
    const children: Array<[unknown, string]> = [];
    for (const keyword of SUBSCHEMA_KEYWORDS) {
      if (present.includes(keyword) && !Array.isArray(schema[keyword])) children.push([schema[keyword], `${pointer}/${keyword}`]);
    }
    for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
      const list = present.includes(keyword) ? schema[keyword] : undefined;
      if (Array.isArray(list)) list.forEach((item, index) => children.push([item, `${pointer}/${keyword}/${index}`]));
    }
    for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
      const map = present.includes(keyword) ? schema[keyword] : undefined;
      if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
      for (const key of Object.keys(map)) children.push([(map as Record<string, unknown>)[key], appendSegment(`${pointer}/${keyword}`, key)]);
    }
    // Reversed onto the stack, so that siblings are visited in document order.
    for (let index = children.length - 1; index >= 0; index--) pending.push([children[index]![0], children[index]![1], depth + 1]);
  }
  return undefined;
}
