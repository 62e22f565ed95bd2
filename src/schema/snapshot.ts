import { MAX_SCHEMA_DEPTH } from "./keywords.js";
import { appendSegment } from "./pointer.js";

/** A schema that cannot be snapshot: where, and why. */
export interface SnapshotProblem {
  readonly pointer: string;
  readonly problem: string;
}

/**
 * A private, deeply frozen copy of a schema, taken at `register` so that later changes to the
 * caller's object cannot change what the registry checks (or the verdicts it cached). Own string
 * keys keep their enumerability (TypeBox's `~kind` and `~refine` stay non-enumerable), functions
 * (a refinement's `check`) are kept as they are, symbol keys are dropped. A cycle or nesting
 * deeper than {@link MAX_SCHEMA_DEPTH} is a problem, not a schema.
 */
export function snapshotSchema(schema: object): { snapshot: object } | { problem: SnapshotProblem } {
  const onPath = new Set<object>();
  let problem: SnapshotProblem | undefined;
  const copy = (value: unknown, pointer: string, depth: number): unknown => {
    if (typeof value !== "object" || value === null || problem !== undefined) return value;
    if (onPath.has(value)) {
      problem = { pointer: pointer || "/", problem: "the schema refers to itself as an object (a cycle); use $ref" };
      return value;
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      problem = { pointer: pointer || "/", problem: `the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep` };
      return value;
    }
    onPath.add(value);
    let result: object;
    if (Array.isArray(value)) {
      result = value.map((item, index) => copy(item, appendSegment(pointer, index), depth + 1));
    } else if (value instanceof RegExp) {
      result = new RegExp(value.source, value.flags);
    } else {
      const target: Record<string, unknown> = {};
      for (const key of Object.getOwnPropertyNames(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
        if (!("value" in descriptor)) {
          problem = { pointer: appendSegment(pointer, key), problem: "is a getter or setter; a schema must be plain data" };
          return value;
        }
        const item: unknown = descriptor.value;
        Object.defineProperty(target, key, { value: copy(item, appendSegment(pointer, key), depth + 1), enumerable: descriptor.enumerable === true, writable: false, configurable: false });
      }
      result = target;
    }
    onPath.delete(value);
    return Object.freeze(result);
  };
  let snapshot: object;
  try {
    snapshot = copy(schema, "", 0) as object;
  } catch {
    // A proxy whose traps throw, or an object that cannot be read.
    return { problem: { pointer: "/", problem: "cannot be read as plain data" } };
  }
  return problem === undefined ? { snapshot } : { problem };
}
