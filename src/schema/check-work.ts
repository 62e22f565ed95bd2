import { MAX_VALUE_DEPTH, REFERENCE_KEYWORDS } from "./keywords.js";
import { SchemaReferences } from "./references.js";

type Node = Readonly<Record<string, unknown>>;

/** How a subschema reaches the values under its node's value: one property by name, any property, any item, or a property name. */
type Descent = `p:${string}` | "*" | "i" | "k";

/**
 * The most subschema applications one value may need, however many of them apply to it; a
 * schema whose checks could need more at some place in some value is refused. Real schemas
 * apply each of their nodes at most a few times to one value; past this it takes references
 * applied twice, level after level (`allOf: [{ $ref: "#/$defs/next" }, { $ref: "#/$defs/next" }]`),
 * whose work doubles at each level: 20 levels take seconds on one small value, 40 would take days.
 */
const MAX_APPLICATIONS_PER_VALUE = 10_000;
/** The most places of a value the bound is worked out for: one per distinct set of subschemas reached. */
const MAX_PLACES = 20_000;

/**
 * Why checking a value against `schema` could take work out of proportion to the schema and the
 * value, or `undefined` when it cannot: the greatest number of subschema applications one place
 * in a value could need (counting every path of references and in-place applicators, `allOf`,
 * `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, dependent schemas, that reaches a subschema) must
 * stay within {@link MAX_APPLICATIONS_PER_VALUE} (or twice the schema's size, for a schema that
 * large), down to the deepest value the library reads. Properties matched by both a name and a
 * pattern count both; the bound is an upper one.
 *
 * The caller has refused references that loop without descending (the in-place applications
 * must form no cycle).
 */
export function unboundedCheckWork(schema: object, nodeCount: number): string | undefined {
  const references = new SchemaReferences(schema);
  const limit = Math.max(MAX_APPLICATIONS_PER_VALUE, 2 * nodeCount);
  const ids = new Map<object, number>();
  const idOf = (node: object): number => {
    let id = ids.get(node);
    if (id === undefined) ids.set(node, (id = ids.size));
    return id;
  };
  const seen = new Set<string>();
  let places: Array<Map<object, number>> = [new Map([[schema, 1]])];
  for (let depth = 0; depth <= MAX_VALUE_DEPTH && places.length > 0; depth++) {
    const next: Array<Map<object, number>> = [];
    for (const seeds of places) {
      const key = [...seeds].map(([node, count]) => `${idOf(node)}:${count}`).sort().join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      if (seen.size > MAX_PLACES) return `is too intricate to bound the cost of its checks (more than ${MAX_PLACES} distinct places in a value)`;
      const applied = inPlaceClosure(seeds, references, limit);
      if (applied === undefined) return `could need more than ${limit} subschema checks for one value, through references applied more than once at each level (the work would double with each level)`;
      next.push(...descend(applied));
    }
    places = next;
  }
  return undefined;
}

/**
 * Every subschema applied to one value, with how many times (once per path), from the subschemas
 * that reach it directly; `undefined` once the total passes `limit`.
 */
function inPlaceClosure(seeds: ReadonlyMap<object, number>, references: SchemaReferences, limit: number): Map<object, number> | undefined {
  // The in-place applications form no cycle (refused before): counts flow in topological order.
  const order: object[] = [];
  const visited = new Set<object>();
  for (const seed of seeds.keys()) {
    const stack: Array<{ node: object; next: object[] }> = [];
    if (!visited.has(seed)) {
      visited.add(seed);
      stack.push({ node: seed, next: inPlaceSuccessors(seed as Node, references) });
    }
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const successor = top.next.pop();
      if (successor === undefined) {
        order.push(top.node);
        stack.pop();
      } else if (!visited.has(successor)) {
        visited.add(successor);
        stack.push({ node: successor, next: inPlaceSuccessors(successor as Node, references) });
      }
    }
  }
  const counts = new Map(seeds);
  let total = 0;
  for (let index = order.length - 1; index >= 0; index--) {
    const node = order[index]!;
    const count = counts.get(node) ?? 0;
    total += count;
    if (total > limit) return undefined;
    for (const successor of inPlaceSuccessors(node as Node, references)) counts.set(successor, (counts.get(successor) ?? 0) + count);
  }
  return counts;
}

/** The subschemas applied to the very value their node applies to. */
function inPlaceSuccessors(node: Node, references: SchemaReferences): object[] {
  const successors: unknown[] = [];
  for (const keyword of REFERENCE_KEYWORDS) if (typeof node[keyword] === "string") successors.push(references.resolve(node[keyword]));
  for (const keyword of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(node[keyword])) successors.push(...(node[keyword] as unknown[]));
  for (const keyword of ["not", "if", "then", "else"]) if (Object.hasOwn(node, keyword)) successors.push(node[keyword]);
  for (const keyword of ["dependentSchemas", "dependencies"]) {
    const map = node[keyword];
    if (typeof map === "object" && map !== null && !Array.isArray(map)) successors.push(...Object.values(map).filter((value) => !Array.isArray(value)));
  }
  return successors.filter(isSchemaObject);
}

/** The seeds of each kind of place under the value: each named property (with the patterns and the rest), any other property, any item, any property name. */
function descend(applied: ReadonlyMap<object, number>): Array<Map<object, number>> {
  const byDescent = new Map<Descent, Map<object, number>>();
  const add = (descent: Descent, child: unknown, count: number): void => {
    if (!isSchemaObject(child)) return;
    let seeds = byDescent.get(descent);
    if (seeds === undefined) byDescent.set(descent, (seeds = new Map()));
    seeds.set(child, (seeds.get(child) ?? 0) + count);
  };
  for (const [node, count] of applied) {
    const schema = node as Node;
    const properties = schema.properties;
    if (isSchemaObject(properties)) for (const name of Object.keys(properties)) add(`p:${name}`, properties[name], count);
    const patterns = schema.patternProperties;
    if (isSchemaObject(patterns)) for (const child of Object.values(patterns)) add("*", child, count);
    for (const keyword of ["additionalProperties", "unevaluatedProperties"]) add("*", schema[keyword], count);
    add("k", schema.propertyNames, count);
    for (const keyword of ["items", "prefixItems"]) {
      const items = schema[keyword];
      if (Array.isArray(items)) for (const child of items) add("i", child, count);
      else add("i", items, count);
    }
    for (const keyword of ["additionalItems", "contains", "unevaluatedItems"]) add("i", schema[keyword], count);
  }
  // A named property may also match every pattern and the rest: counted with them, an upper bound.
  const any = byDescent.get("*");
  if (any !== undefined) {
    for (const [descent, seeds] of byDescent) {
      if (!descent.startsWith("p:")) continue;
      for (const [child, count] of any) seeds.set(child, (seeds.get(child) ?? 0) + count);
    }
  }
  return [...byDescent.values()];
}

function isSchemaObject(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
