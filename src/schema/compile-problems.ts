import { MAX_COMPILED_NESTING, MAX_INLINE_ENUM, MAX_SCHEMA_DEPTH, REFERENCE_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, subschemaKeywordsOf } from "./keywords.js";
import { compilePattern, isNativeLinearPattern } from "./patterns.js";
import { appendSegment } from "./pointer.js";
import { SchemaReferences } from "./references.js";
import { walkSchema } from "./walk.js";
import { unboundedCheckWork } from "./check-work.js";

/** Something in a schema that keeps it from compiling into a safe validator, and where. */
export interface CompileProblem {
  /** JSON Pointer of the offending keyword or subschema in the schema. */
  readonly pointer: string;
  /** What is wrong, for a `ToolDefinitionError` (names schema facts only). */
  readonly problem: string;
}

// The generated code of a node nests about this deep before its lists: measured 2 to 3 per level.
const NESTING_PER_NODE = 4;

/**
 * What keeps `schema` from compiling into a validator that is safe on every input, as data, in
 * document order; empty when nothing does. For `register` to refuse such a schema up front rather
 * than fail its first call:
 *
 * - a `pattern` that neither engine can run with ECMAScript's meaning in linear time (see `compilePattern`);
 * - a `patternProperties` pattern that V8 cannot provably run in linear time (TypeBox always runs
 *   these on the native engine), or that does not start with `^` where `additionalProperties`
 *   applies (TypeBox then tests them, with every property name, at every position of each key);
 * - a `$ref` that leads back to itself without descending into the value (through `$ref`s and
 *   the applicators that check the same value: `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`,
 *   `else`, `dependentSchemas`), which would recurse forever on every value that reaches it;
 * - references applied more than once at each level, so that the work of one check doubles with
 *   each level (see `unboundedCheckWork`);
 * - lists so long, or nested so deep, that the generated check would nest more than
 *   {@link MAX_COMPILED_NESTING} expressions and overflow V8's parser (about 1,600 properties,
 *   `anyOf` branches or `required` names at the top level; large enums are exempt: they become a Set lookup);
 * - a path of subschemas through `$ref`s so long that compiling it would nest more than
 *   {@link MAX_COMPILED_NESTING} checks and overflow the stack (see {@link MAX_PATH_SUBSCHEMAS}:
 *   a chain of 300 references, or of 150 objects each reaching the next through a `$ref`).
 */
export function findCompileProblems(schema: object): CompileProblem[] {
  const problems: CompileProblem[] = [];
  // The nesting each node starts at: a `$defs` entry compiles as its own function and starts afresh.
  const nestingOf = new Map<object, number>();
  const pointers = new Map<object, string>();
  let holdsReferences = false;
  const stop = walkSchema(schema, (node, pointer) => {
    pointers.set(node, pointer);
    if (!holdsReferences) holdsReferences = REFERENCE_KEYWORDS.some((keyword) => typeof node[keyword] === "string");
    patternProblems(node, pointer, problems);
    const nesting = (nestingOf.get(node) ?? 0) + NESTING_PER_NODE + listLengths(node);
    if (nesting > MAX_COMPILED_NESTING) {
      problems.push({
        pointer,
        problem: `holds too many properties, branches or values to compile, with its enclosing schemas (about ${nesting} nested checks; at most ${MAX_COMPILED_NESTING})`,
      });
      return;
    }
    for (const child of childSchemas(node)) {
      const start = child.keyword === "$defs" || child.keyword === "definitions" ? 0 : nesting;
      nestingOf.set(child.node, Math.max(nestingOf.get(child.node) ?? 0, start));
    }
  });
  if (stop !== undefined) problems.push({ pointer: stop.pointer, problem: `is nested deeper than ${MAX_SCHEMA_DEPTH} subschemas` });
  const references = new SchemaReferences(schema);
  const looping = findRefLoop(schema, pointers, references);
  if (looping !== undefined) problems.push({ pointer: looping, problem: "leads back to itself without descending into the value, so every check through it would recurse forever" });
  else if (holdsReferences) {
    // Without references a path is at most MAX_SCHEMA_DEPTH subschemas long, well within the bound.
    const deep = tooDeepThroughReferences(schema, pointers, references);
    if (deep !== undefined) problems.push(deep);
    else {
      // Only references can reach a subschema more than one way, and so multiply the work.
      const work = unboundedCheckWork(schema);
      if (work !== undefined) problems.push({ pointer: "", problem: work });
    }
  }
  return problems;
}

/**
 * The most subschemas on one path from the root, through subschemas and references alike, that a
 * schema may hold: TypeBox's compiler (and its interpreter, on a first call) recurses once per
 * subschema on the way, into each reference's target too, and overflowed the stack at about 1,000
 * of them (measured on Node 20: a chain of 1,070 `$ref`s, or 500 objects each reaching the next
 * through a `$ref`, whatever the lists beside them). Counted as {@link NESTING_PER_NODE} nested
 * checks each, within {@link MAX_COMPILED_NESTING}: 300 subschemas.
 */
const MAX_PATH_SUBSCHEMAS = Math.floor(MAX_COMPILED_NESTING / NESTING_PER_NODE);

/**
 * Where a path of subschemas and references from the root grows longer than
 * {@link MAX_PATH_SUBSCHEMAS} (the `$ref` that takes it over), if one does. Found in linear time,
 * and as soon as such a path is: each subschema's longest path onward is worked out once and kept;
 * a reference back to a subschema still on the way (recursion, which a check follows value by
 * value, not all at once) ends a path there. `$defs` entries count only where a reference reaches
 * them, as TypeBox compiles them.
 */
function tooDeepThroughReferences(root: object, pointers: ReadonlyMap<object, string>, references: SchemaReferences): CompileProblem | undefined {
  // Each finished subschema's longest path onward (itself included), and the step that path takes first.
  const lengths = new Map<object, number>();
  const firstSteps = new Map<object, PathStep>();
  // Iterative depth-first search, so that a chain of 10,000 references cannot overflow the stack:
  // the stack is itself a path from the root, each frame with the step that led to it.
  const onTheWay = new Set<object>([root]);
  const stack: PathFrame[] = [{ via: { node: root }, steps: pathSteps(root as Record<string, unknown>, references), next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const step = top.steps[top.next++];
    if (step === undefined) {
      stack.pop();
      onTheWay.delete(top.via.node);
      let longest = 0;
      for (const onward of top.steps) {
        const length = lengths.get(onward.node) ?? 0;
        if (length > longest) {
          longest = length;
          firstSteps.set(top.via.node, onward);
        }
      }
      lengths.set(top.via.node, 1 + longest);
      continue;
    }
    if (onTheWay.has(step.node)) continue;
    if (stack.length + (lengths.get(step.node) ?? 1) > MAX_PATH_SUBSCHEMAS) {
      // The path so far, then this step, then the longest way on from it.
      const path = stack.slice(1).map((frame) => frame.via);
      for (let next: PathStep | undefined = step; next !== undefined && path.length < MAX_PATH_SUBSCHEMAS; next = firstSteps.get(next.node)) path.push(next);
      return tooDeepProblem(root, path, pointers);
    }
    if (lengths.has(step.node)) continue;
    onTheWay.add(step.node);
    stack.push({ via: step, steps: pathSteps(step.node as Record<string, unknown>, references), next: 0 });
  }
  return undefined;
}

/** The problem of a path from `root` that takes {@link MAX_PATH_SUBSCHEMAS} steps and goes on: at the reference taken last on the way. */
function tooDeepProblem(root: object, path: readonly PathStep[], pointers: ReadonlyMap<object, string>): CompileProblem {
  let reference = "";
  let from = root;
  for (const step of path) {
    if (step.keyword !== undefined) reference = appendSegment(pointers.get(from) ?? "", step.keyword);
    from = step.node;
  }
  return {
    pointer: reference,
    problem: `leads too deep to compile, with the subschemas and references before it (more than ${MAX_PATH_SUBSCHEMAS} subschemas on one path, about ${NESTING_PER_NODE} nested checks each; at most ${MAX_COMPILED_NESTING})`,
  };
}

/** A subschema on the way of {@link tooDeepThroughReferences}: the step to it, its steps onward, and the next of them to take. */
interface PathFrame {
  readonly via: PathStep;
  readonly steps: readonly PathStep[];
  next: number;
}

/** One step of a path through a schema: to a subschema, through a reference keyword when `keyword` is set. */
interface PathStep {
  readonly node: object;
  readonly keyword?: (typeof REFERENCE_KEYWORDS)[number];
}

/** The steps a check takes from `node`: into its subschemas (not its `$defs`) and to the targets of its references. */
function pathSteps(node: Readonly<Record<string, unknown>>, references: SchemaReferences): PathStep[] {
  const steps: PathStep[] = [];
  for (const keyword of REFERENCE_KEYWORDS) {
    const ref = node[keyword];
    if (typeof ref !== "string") continue;
    const target = references.resolve(ref);
    if (typeof target === "object" && target !== null && !Array.isArray(target)) steps.push({ node: target, keyword });
  }
  for (const child of childSchemas(node)) if (child.keyword !== "$defs" && child.keyword !== "definitions") steps.push({ node: child.node });
  return steps;
}

function patternProblems(node: Readonly<Record<string, unknown>>, pointer: string, problems: CompileProblem[]): void {
  if (typeof node.pattern === "string") {
    const compiled = compilePattern(node.pattern);
    if (!compiled.ok) problems.push({ pointer: appendSegment(pointer, "pattern"), problem: `cannot run safely: it ${compiled.problem}` });
  }
  const patterns = node.patternProperties;
  if (typeof patterns !== "object" || patterns === null || Array.isArray(patterns)) return;
  const additional = node.additionalProperties;
  const additionalApplies = additional !== undefined && additional !== true && !(typeof additional === "object" && additional !== null && Object.keys(additional).length === 0);
  for (const key of Object.keys(patterns)) {
    const location = appendSegment(appendSegment(pointer, "patternProperties"), key);
    const compiled = compilePattern(key);
    if (!compiled.ok) problems.push({ pointer: location, problem: `cannot run safely: it ${compiled.problem}` });
    else if (!isNativeLinearPattern(key)) {
      problems.push({ pointer: location, problem: "cannot be proven to run in linear time on the native engine, which runs patternProperties patterns" });
    } else if (additionalApplies && !key.startsWith("^")) {
      problems.push({ pointer: location, problem: "must start with ^ where additionalProperties applies (it is then tested at every position of every key)" });
    }
  }
}

/** Keywords whose subschemas check the very value their node checks (not a property or an item of it). */
const IN_PLACE_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_KEYWORDS = ["not", "if", "then", "else"] as const;

/** The schema nodes applied to the same value as `node`. */
function inPlaceSuccessors(node: Readonly<Record<string, unknown>>, references: SchemaReferences): unknown[] {
  const successors: unknown[] = [];
  for (const keyword of REFERENCE_KEYWORDS) if (typeof node[keyword] === "string") successors.push(references.resolve(node[keyword]));
  for (const keyword of IN_PLACE_LIST_KEYWORDS) if (Array.isArray(node[keyword])) successors.push(...(node[keyword] as unknown[]));
  for (const keyword of IN_PLACE_KEYWORDS) if (Object.hasOwn(node, keyword)) successors.push(node[keyword]);
  const dependent = node.dependentSchemas;
  if (typeof dependent === "object" && dependent !== null) successors.push(...Object.values(dependent));
  return successors;
}

/** The pointer of the `$ref` on a cycle of in-place applications (one that never descends into the value), if any. */
function findRefLoop(root: object, pointers: ReadonlyMap<object, string>, references: SchemaReferences): string | undefined {
  const done = new Set<object>();
  for (const start of pointers.keys()) {
    if (done.has(start)) continue;
    // Iterative depth-first search: the nodes on the current path are `active`.
    const active = new Set<object>([start]);
    const stack: Array<{ node: object; next: unknown[] }> = [{ node: start, next: inPlaceSuccessors(start as Record<string, unknown>, references) }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next.length === 0) {
        stack.pop();
        active.delete(top.node);
        done.add(top.node);
        continue;
      }
      const successor = top.next.pop();
      if (typeof successor !== "object" || successor === null || done.has(successor)) continue;
      if (active.has(successor)) {
        // The first node of the cycle that holds a reference is where to look.
        const onCycle = stack.slice(stack.findIndex((frame) => frame.node === successor)).map((frame) => frame.node);
        const holder = onCycle.find((node) => REFERENCE_KEYWORDS.some((keyword) => typeof (node as Record<string, unknown>)[keyword] === "string")) ?? successor;
        const keyword = REFERENCE_KEYWORDS.find((name) => typeof (holder as Record<string, unknown>)[name] === "string") ?? "$ref";
        return appendSegment(pointers.get(holder) ?? "", keyword);
      }
      active.add(successor);
      stack.push({ node: successor, next: inPlaceSuccessors(successor as Record<string, unknown>, references) });
    }
  }
  return undefined;
}

/** How many operands this node's own lists add to the generated check (inline enums included, Set enums not). */
function listLengths(node: Readonly<Record<string, unknown>>): number {
  let total = 0;
  for (const keyword of ["required", "type"]) if (Array.isArray(node[keyword])) total += (node[keyword] as unknown[]).length;
  if (Array.isArray(node.enum) && node.enum.length <= MAX_INLINE_ENUM) total += node.enum.length;
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) if (Array.isArray(node[keyword])) total += (node[keyword] as unknown[]).length;
  for (const keyword of [...SUBSCHEMA_MAP_KEYWORDS, "dependentRequired"]) {
    if (keyword === "$defs" || keyword === "definitions") continue;
    const map = node[keyword];
    if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
    for (const value of Object.values(map)) total += 1 + (Array.isArray(value) ? value.length : 0);
  }
  return total;
}

/** The subschemas directly under `node`, with the keyword that holds each. */
function childSchemas(node: Readonly<Record<string, unknown>>): Array<{ keyword: string; node: object }> {
  const children: Array<{ keyword: string; node: object }> = [];
  const present = subschemaKeywordsOf(node);
  if (present.length === 0) return children;
  const add = (keyword: string, value: unknown): void => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) children.push({ keyword, node: value });
  };
  for (const keyword of SUBSCHEMA_KEYWORDS) if (present.includes(keyword)) add(keyword, node[keyword]);
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) if (present.includes(keyword) && Array.isArray(node[keyword])) for (const item of node[keyword] as unknown[]) add(keyword, item);
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = present.includes(keyword) ? node[keyword] : undefined;
    if (typeof map === "object" && map !== null && !Array.isArray(map)) for (const item of Object.values(map)) add(keyword, item);
  }
  return children;
}
