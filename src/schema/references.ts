import { refSegments, resolveSegments } from "./pointer.js";
import { walkSchema } from "./walk.js";

/**
 * The `$ref` targets of one schema document, resolved one way everywhere: `#` and `#/…` JSON
 * Pointer fragments (percent-decoded, then `~1`/`~0`), `#name` for an `$anchor`, an `$id`, and a
 * bare name for a `$defs`/`definitions` entry (TypeBox writes `$ref: "Node"`).
 */
export class SchemaReferences {
  readonly #root: unknown;
  readonly #named = new Map<string, unknown>();

  constructor(root: unknown) {
    this.#root = root;
    const definitions = new Map<string, unknown>();
    walkSchema(root, (node) => {
      if (typeof node.$id === "string" && !this.#named.has(node.$id)) this.#named.set(node.$id, node);
      if (typeof node.$anchor === "string" && !this.#named.has(`#${node.$anchor}`)) this.#named.set(`#${node.$anchor}`, node);
      for (const keyword of ["$defs", "definitions"]) {
        const map = node[keyword];
        if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
        for (const name of Object.keys(map)) if (!definitions.has(name)) definitions.set(name, (map as Record<string, unknown>)[name]);
      }
    });
    for (const [name, definition] of definitions) if (!this.#named.has(name)) this.#named.set(name, definition);
  }

  /** The subschema `ref` names, or `undefined` when it names nothing in this document. */
  resolve(ref: string): unknown {
    const segments = refSegments(ref);
    if (segments !== undefined) return resolveSegments(this.#root, segments);
    return this.#named.get(ref);
  }
}

/** The key of a `$defs` or `definitions` entry at `pointer` whose `$id` is that key, as `Type.Cyclic` writes them. */
export function namedDefinition(pointer: string, node: Readonly<Record<string, unknown>>): string | undefined {
  const match = /\/(?:\$defs|definitions)\/([^/]+)$/.exec(pointer);
  return match !== null && node.$id === match[1] ? match[1] : undefined;
}
