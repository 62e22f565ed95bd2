import { isLeafSchema, MAX_VALUE_DEPTH, REFERENCE_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "./keywords.js";
import { walkSchema } from "./walk.js";
import { compilePattern, type PatternTester } from "./patterns.js";
import { namedDefinition, SchemaReferences } from "./references.js";
import { canonicalJson } from "./canonical.js";
import { isRecord } from "../objects.js";

type Node = Readonly<Record<string, unknown>>;
/** Subschemas applied to one place of a value, each with how many times. */
type Applied = Map<object, number>;

/**
 * The most subschema applications one place of a value may need (or as many as the schema has
 * subschemas that a check can reach, for a schema that large); a schema whose checks could need
 * more somewhere is refused. Real schemas need at most a few hundred (46 for OpenAPI 3.0's own
 * schema, about 200 for a 50-way union over a shared base); past this it takes references applied
 * twice, level after level (`allOf: [{ $ref: "#/$defs/next" }, { $ref: "#/$defs/next" }]`),
 * whose work doubles at each level: 20 levels take seconds on one small value, 40 would take days.
 */
const MAX_APPLICATIONS_PER_VALUE = 1_000;
/**
 * The most places of a value the bound is worked out for (one per distinct set of subschemas
 * reaching it), or twice the reachable subschemas.
 */
const MAX_PLACES = 20_000;
/** The most ways the alternatives (`anyOf`, `oneOf`, `then`/`else`) reaching one place are told apart. */
const MAX_CHOICES = 64;
/** The most subschema applications the whole analysis counts before it gives up on the schema. */
const MAX_STEPS = 1_000_000;

/**
 * Why checking a value against `schema` could take work out of proportion to the schema and the
 * value, or `undefined` when it cannot. The greatest number of subschema applications one place in
 * a value could need must stay within {@link MAX_APPLICATIONS_PER_VALUE} (or the number of
 * subschemas a check can reach, for a schema that large: unused definitions do not count), down to
 * the deepest value the library reads. It counts every path of references and applicators that
 * check that place (`allOf`, `not`, `if`, dependent schemas, and every branch of a union), except
 * that a value goes down one branch alone of a union whose branches a required `const` tells
 * apart (the compiled check tests it first, so the others fail at once) and of `then`/`else`. A
 * property is reached through its own name, the patterns that match it and, where neither does,
 * `additionalProperties`; an item through its index.
 *
 * A reference inside a resource of its own (an `$id` below the root) is refused: it may mean
 * another subschema there than the one this bound would follow. The caller has refused references
 * that loop without descending (the applicators must form no cycle).
 */
export function unboundedCheckWork(schema: object): string | undefined {
  return new WorkBound(schema).problem();
}

class WorkBound {
  readonly #root: object;
  readonly #limit: number;
  readonly #references: SchemaReferences;
  /** Each subschema's applications to its own place, alternatives left open (memo). */
  readonly #closures = new Map<object, Applied>();
  readonly #ids = new Map<object, number>();
  readonly #testers = new Map<string, PatternTester | undefined>();
  readonly #unions = new Map<readonly unknown[], boolean>();
  readonly #alternatives = new Map<object, object[][]>();
  readonly #placeLimit: number;
  /** Subschemas inside a resource of their own (an `$id` below the root), where `#/…` means that resource. */
  readonly #inResource = new Set<object>();
  /** Set when a reference inside such a resource was followed. */
  #ambiguous = false;
  #steps = 0;

  constructor(root: object) {
    this.#root = root;
    this.#references = new SchemaReferences(root);
    walkSchema(root, (node, pointer, depth) => {
      if (depth > 0 && Object.hasOwn(node, "$id") && namedDefinition(pointer, node) === undefined) walkSchema(node, (inner) => void this.#inResource.add(inner));
    });
    const reachable = this.#reachable();
    this.#limit = Math.max(MAX_APPLICATIONS_PER_VALUE, reachable);
    this.#placeLimit = Math.max(MAX_PLACES, 2 * reachable);
  }

  /** How many subschemas a check can reach from the root, through every keyword and reference. */
  #reachable(): number {
    const seen = new Set<object>([this.#root]);
    const pending: object[] = [this.#root];
    while (pending.length > 0) {
      const node = pending.pop() as Node;
      const children: unknown[] = [];
      for (const keyword of REFERENCE_KEYWORDS) if (typeof node[keyword] === "string") children.push(this.#references.resolve(node[keyword]));
      for (const keyword of SUBSCHEMA_KEYWORDS) children.push(node[keyword]);
      for (const keyword of SUBSCHEMA_LIST_KEYWORDS) if (Array.isArray(node[keyword])) children.push(...(node[keyword] as unknown[]));
      for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
        if (keyword === "$defs" || keyword === "definitions") continue;
        if (isRecord(node[keyword])) children.push(...Object.values(node[keyword] as Node));
      }
      for (const child of children) {
        if (isRecord(child) && !seen.has(child)) {
          seen.add(child);
          pending.push(child);
        }
      }
    }
    return seen.size;
  }

  problem(): string | undefined {
    const seen = new Set<string>();
    let places: Applied[] = [new Map([[this.#root, 1]])];
    for (let depth = 0; depth <= MAX_VALUE_DEPTH && places.length > 0; depth++) {
      const next: Applied[] = [];
      for (const seeds of places) {
        const key = this.#keyOf(seeds);
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > this.#placeLimit || this.#steps > MAX_STEPS) return "is too intricate to bound the cost of its checks";
        for (const applied of this.#choices(seeds)) {
          let total = 0;
          for (const count of applied.values()) total += count;
          if (total > this.#limit) return `could need more than ${this.#limit} subschema checks for one value, through references applied more than once at each level (the work would double with each level)`;
          next.push(...this.#descend(applied));
        }
        if (this.#ambiguous) return "holds a reference inside a resource of its own ($id below the root), whose cost cannot be bounded";
        if (this.#steps > MAX_STEPS) return "is too intricate to bound the cost of its checks";
      }
      places = next;
    }
    return undefined;
  }

  #keyOf(seeds: Applied): string {
    const parts: string[] = [];
    for (const [node, count] of seeds) {
      let id = this.#ids.get(node);
      if (id === undefined) this.#ids.set(node, (id = this.#ids.size));
      parts.push(`${id}:${count}`);
    }
    return parts.sort().join(",");
  }

  /** The applications at one place, one set per way through the alternatives that reach it (at most {@link MAX_CHOICES}; past it, every branch counts). */
  #choices(seeds: Applied): Applied[] {
    const applied: Applied = new Map();
    for (const [node, count] of seeds) this.#add(applied, this.#closure(node), count);
    const results: Applied[] = [];
    // `resolved`: how many of a node's groups of alternatives were followed, in order.
    const pending: Array<{ applied: Applied; resolved: ReadonlyMap<object, number> }> = [{ applied, resolved: new Map() }];
    while (pending.length > 0) {
      if (this.#steps > MAX_STEPS) return results;
      const { applied: current, resolved } = pending.pop()!;
      let open: { node: object; branches: object[] } | undefined;
      for (const node of current.keys()) {
        this.#steps++;
        const groups = this.#alternativesOf(node as Node);
        const next = resolved.get(node) ?? 0;
        if (next < groups.length) {
          open = { node, branches: groups[next]! };
          break;
        }
      }
      if (open === undefined) {
        results.push(current);
        continue;
      }
      const count = current.get(open.node)!;
      const done = new Map(resolved).set(open.node, (resolved.get(open.node) ?? 0) + 1);
      if (results.length + pending.length + open.branches.length > MAX_CHOICES) {
        // Too many ways: every branch counts, as if each were followed.
        const every = new Map(current);
        for (const branch of open.branches) this.#add(every, this.#closure(branch), count);
        pending.push({ applied: every, resolved: done });
        continue;
      }
      for (const branch of open.branches) {
        const chosen = new Map(current);
        this.#add(chosen, this.#closure(branch), count);
        pending.push({ applied: chosen, resolved: done });
      }
    }
    return results;
  }

  #add(into: Applied, closure: Applied, times: number): void {
    for (const [node, count] of closure) {
      this.#steps++;
      into.set(node, (into.get(node) ?? 0) + count * times);
    }
  }

  /** `node` and the subschemas applied to its place through it, each with how many paths reach it (alternatives not followed). */
  #closure(node: object): Applied {
    const known = this.#closures.get(node);
    if (known !== undefined) return known;
    // The applications form no cycle (refused before): counts flow in topological order.
    const order: object[] = [];
    const visited = new Set<object>([node]);
    const stack: Array<{ node: object; next: object[] }> = [{ node, next: this.#inPlace(node as Node) }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const successor = top.next.pop();
      if (successor === undefined) {
        order.push(top.node);
        stack.pop();
      } else if (!visited.has(successor)) {
        visited.add(successor);
        stack.push({ node: successor, next: this.#inPlace(successor as Node) });
      }
    }
    const counts: Applied = new Map([[node, 1]]);
    for (let index = order.length - 1; index >= 0; index--) {
      const current = order[index]!;
      const count = counts.get(current) ?? 0;
      for (const successor of this.#inPlace(current as Node)) {
        this.#steps++;
        counts.set(successor, (counts.get(successor) ?? 0) + count);
      }
    }
    this.#closures.set(node, counts);
    return counts;
  }

  /** The subschemas always applied to the very place their node applies to. */
  #inPlace(node: Node): object[] {
    const successors: unknown[] = [];
    for (const keyword of REFERENCE_KEYWORDS) {
      if (typeof node[keyword] !== "string") continue;
      if (this.#inResource.has(node)) this.#ambiguous = true;
      successors.push(this.#references.resolve(node[keyword]));
    }
    if (Array.isArray(node.allOf)) successors.push(...(node.allOf as unknown[]));
    // A union whose branches are not told apart at once: a value may go down every branch.
    for (const keyword of ["anyOf", "oneOf"]) if (Array.isArray(node[keyword]) && !this.#discriminated(node[keyword] as unknown[])) successors.push(...(node[keyword] as unknown[]));
    for (const keyword of ["not", "if"]) if (Object.hasOwn(node, keyword)) successors.push(node[keyword]);
    for (const keyword of ["dependentSchemas", "dependencies"]) {
      const map = node[keyword];
      if (isRecord(map)) successors.push(...Object.values(map).filter((value) => !Array.isArray(value)));
    }
    return successors.filter(isRecord);
  }

  /** The seeds of each kind of place under the value: each named property, any other property (matched by patterns, or not), each item index, any other item, a property name. */
  #descend(applied: Applied): Applied[] {
    const places = new Map<string, Applied>();
    const add = (place: string, child: unknown, count: number): void => {
      if (!isRecord(child)) return;
      let seeds = places.get(place);
      if (seeds === undefined) places.set(place, (seeds = new Map()));
      this.#steps++;
      seeds.set(child, (seeds.get(child) ?? 0) + count);
    };
    // The names and indices some subschema here names: each a place of its own.
    const names = new Set<string>();
    let tupleLength = 0;
    for (const node of applied.keys()) {
      const schema = node as Node;
      if (isRecord(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
      for (const keyword of ["prefixItems", "items"]) if (Array.isArray(schema[keyword])) tupleLength = Math.max(tupleLength, (schema[keyword] as unknown[]).length);
    }
    for (const [node, count] of applied) {
      const schema = node as Node;
      const properties = isRecord(schema.properties) ? schema.properties : undefined;
      const patterns = isRecord(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
      this.#steps += names.size * (1 + patterns.length) + tupleLength;
      for (const name of names) {
        const own = properties !== undefined && Object.hasOwn(properties, name);
        if (own) add(`p:${name}`, properties[name], count);
        let matched = own;
        for (const pattern of patterns) {
          if (this.#matches(pattern, name)) {
            add(`p:${name}`, (schema.patternProperties as Node)[pattern], count);
            matched = true;
          }
        }
        if (!matched) for (const keyword of ["additionalProperties", "unevaluatedProperties"]) add(`p:${name}`, schema[keyword], count);
      }
      // A name none of them declares: one the patterns match (taken to match them all), or one
      // none does, where the rest applies.
      for (const pattern of patterns) add("*pattern", (schema.patternProperties as Node)[pattern], count);
      for (const keyword of ["additionalProperties", "unevaluatedProperties"]) {
        if (patterns.length === 0) add("*pattern", schema[keyword], count);
        add("*rest", schema[keyword], count);
      }
      add("k", schema.propertyNames, count);
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : Array.isArray(schema.items) ? (schema.items as unknown[]) : [];
      // Past its own prefix, a node's rest applies: `items` (2020-12), else `additionalItems` (draft-07).
      const rest = Array.isArray(schema.items) ? schema.additionalItems : Array.isArray(schema.prefixItems) ? schema.items : (schema.items ?? schema.additionalItems);
      for (let index = 0; index <= tupleLength; index++) {
        const place = index < tupleLength ? `i:${index}` : "i*";
        if (index < prefix.length) add(place, prefix[index], count);
        else add(place, rest, count);
        for (const keyword of ["contains", "unevaluatedItems"]) add(place, schema[keyword], count);
      }
    }
    return [...places.values()];
  }

  /**
   * The groups of branches of which a value goes down one alone past this node: a union whose
   * branches are told apart at once ({@link WorkBound.discriminated}), and `then` with `else`.
   */
  #alternativesOf(node: Node): object[][] {
    let groups = this.#alternatives.get(node);
    if (groups === undefined) this.#alternatives.set(node, (groups = this.#groupsOf(node)));
    return groups;
  }

  #groupsOf(node: Node): object[][] {
    const groups: object[][] = [];
    for (const keyword of ["anyOf", "oneOf"]) {
      const branches = node[keyword];
      if (Array.isArray(branches) && branches.length > 0 && this.#discriminated(branches)) groups.push(branches.filter(isRecord));
    }
    const conditional = [node.then, node.else].filter(isRecord);
    if (conditional.length > 0) groups.push(conditional);
    return groups;
  }

  /**
   * Whether a value can go past the first checks of one branch of `branches` at most: each branch
   * checks its value alone (a type, a `const`, bounds), or is an object that requires a property
   * whose schema is such a check with a `const` (or an `enum`) no other branch allows for it. The
   * compiled check tests those properties first (the transform puts them first) and stops at the
   * first failure, so every other branch fails at once.
   */
  #discriminated(branches: readonly unknown[]): boolean {
    let known = this.#unions.get(branches);
    if (known === undefined) this.#unions.set(branches, (known = discriminated(branches.map((branch) => this.#target(branch)))));
    return known;
  }

  /** A branch through the references it is made of alone (`{ $ref }`), to the schema they lead to. */
  #target(branch: unknown): unknown {
    let node = branch;
    for (let hops = 0; hops < 64 && isRecord(node) && typeof node.$ref === "string" && Object.keys(node).every((key) => key === "$ref" || key === "$id"); hops++) {
      node = this.#references.resolve(node.$ref);
    }
    return node;
  }

  /** Whether a `patternProperties` pattern matches `name` (one that cannot run is taken to match). */
  #matches(pattern: string, name: string): boolean {
    if (!this.#testers.has(pattern)) {
      const compiled = compilePattern(pattern);
      this.#testers.set(pattern, compiled.ok ? compiled.tester : undefined);
    }
    const tester = this.#testers.get(pattern);
    return tester === undefined || tester.test(name);
  }
}

/** See {@link WorkBound.discriminated}: `branches` resolved through their references. */
function discriminated(branches: readonly unknown[]): boolean {
  const objects = branches.filter((branch) => !isLeafSchema(branch));
  if (objects.length <= 1) return true;
  // Each an object schema whose only subschemas are its properties: the compiled check tests the
  // type, then the required names, then the properties in order (any other keyword may come first).
  const plain = (branch: Node): boolean => Object.keys(branch).every((key) => (key === "additionalProperties" ? typeof branch[key] === "boolean" : TAGGED_BRANCH_KEYWORDS.has(key)));
  if (!objects.every((branch) => isRecord(branch) && branch.type === "object" && plain(branch))) return false;
  const first = objects[0];
  if (!isRecord(first) || !isRecord(first.properties)) return false;
  // A property every object branch requires, with values no two branches share.
  for (const name of Object.keys(first.properties)) {
    const seen = new Set<string>();
    const tells = objects.every((branch) => {
      if (!isRecord(branch) || !isRecord(branch.properties) || !Array.isArray(branch.required) || !branch.required.includes(name)) return false;
      const property = branch.properties[name];
      if (!isRecord(property) || !isLeafSchema(property)) return false;
      const values = Object.hasOwn(property, "const") ? [property.const] : Array.isArray(property.enum) ? property.enum : undefined;
      if (values === undefined) return false;
      for (const value of values) {
        const key = canonicalJson(value);
        if (key === undefined || seen.has(key)) return false;
        seen.add(key);
      }
      return true;
    });
    if (tells) return true;
  }
  return false;
}

/** The keywords a branch told apart by its tag may have (and `additionalProperties` as a boolean): no subschema but its properties. */
const TAGGED_BRANCH_KEYWORDS: ReadonlySet<string> = new Set(["type", "properties", "required", "title", "description", "$id", "$comment", "minProperties", "maxProperties"]);
