import { MAX_SCHEMA_CHARACTERS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./keywords.js";
import { pointerOf } from "./pointer.js";

/** A schema that cannot be snapshot: where, and why. */
export interface SnapshotProblem {
  readonly pointer: string;
  readonly problem: string;
}

/**
 * A private, deeply frozen copy of a schema, taken at `register` so that later changes to the
 * caller's object cannot change what the registry checks (or the verdicts it cached). Own string
 * keys keep their enumerability (TypeBox's `~kind` and `~refine` stay non-enumerable), functions
 * (a refinement's `check`) are kept as they are, symbol keys are dropped. A cycle, nesting
 * deeper than {@link MAX_SCHEMA_DEPTH}, or more than {@link MAX_SCHEMA_NODES} objects and arrays (or
 * {@link MAX_SCHEMA_CHARACTERS} characters) once shared objects are written out in each place they
 * are used, is a problem, not a schema.
 */
export function snapshotSchema(schema: object): { snapshot: object } | { problem: SnapshotProblem } {
  const onPath = new Set<object>();
  // What the copy has written out so far: a shared object is copied once per place it is used.
  let nodesLeft = MAX_SCHEMA_NODES;
  let charactersLeft = MAX_SCHEMA_CHARACTERS;
  // The way from the root, as segments: a pointer is written only for a problem.
  const path: Array<string | number> = [];
  let problem: SnapshotProblem | undefined;
  const fail = (text: string, last?: string): void => {
    problem = { pointer: pointerOf(path, last) || "/", problem: text };
  };
  // Too much once written out: a problem of the whole schema, not of the place where the count ran out.
  const tooLarge = (text: string): void => {
    problem = { pointer: "/", problem: text };
  };
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === "string" && (charactersLeft -= value.length) < 0 && problem === undefined) tooLarge(`the schema holds more than ${MAX_SCHEMA_CHARACTERS} characters of names and strings once written out (an object used in several places counts in each)`);
    if (typeof value !== "object" || value === null || problem !== undefined) return value;
    if (--nodesLeft < 0) {
      tooLarge(`the schema holds more than ${MAX_SCHEMA_NODES} objects and arrays once written out (an object used in several places counts in each); use $defs and $ref for a part used many times`);
      return value;
    }
    if (onPath.has(value)) {
      fail("the schema refers to itself as an object (a cycle); use $ref");
      return value;
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      fail(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
      return value;
    }
    onPath.add(value);
    let result: object;
    if (Array.isArray(value)) {
      // Holes stay holes, as `map` keeps them.
      const items: unknown[] = new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index++) {
        if (!(index in value)) continue;
        path.push(index);
        items[index] = copy(value[index], depth + 1);
        path.pop();
      }
      result = items;
    } else if (value instanceof RegExp) {
      result = new RegExp(value.source, value.flags);
    } else {
      const target: Record<string, unknown> = {};
      for (const key of Object.getOwnPropertyNames(value)) {
        if ((charactersLeft -= key.length) < 0) {
          tooLarge(`the schema holds more than ${MAX_SCHEMA_CHARACTERS} characters of names and strings once written out (an object used in several places counts in each)`);
          return value;
        }
        const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
        if (!("value" in descriptor)) {
          fail("is a getter or setter; a schema must be plain data", key);
          return value;
        }
        path.push(key);
        const item = copy(descriptor.value, depth + 1);
        path.pop();
        // A plain store where it makes the same property (the freeze below makes it read-only): defining each costs several times more.
        if (descriptor.enumerable === true && key !== "__proto__") target[key] = item;
        else Object.defineProperty(target, key, { value: item, enumerable: descriptor.enumerable === true, writable: true, configurable: true });
      }
      result = target;
    }
    onPath.delete(value);
    return Object.freeze(result);
  };
  let snapshot: object;
  try {
    snapshot = copy(schema, 0) as object;
  } catch {
    // A proxy whose traps throw, or an object that cannot be read.
    return { problem: { pointer: "/", problem: "cannot be read as plain data" } };
  }
  return problem === undefined ? { snapshot } : { problem };
}

