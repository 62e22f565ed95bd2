import { MAX_REF_HOPS } from "../schema/keywords.js";
import { compilePattern, type PatternTester } from "../schema/patterns.js";
import { SchemaReferences } from "../schema/references.js";
import { type NodePlan, type ObjectPlan, PlanBook } from "../validation/plan.js";
import { notAllowedMessage } from "../validation/explainer.js";
import { ValueKind } from "./incremental-json.js";

/**
 * The schema side of checking a prefix: which schema nodes certainly apply at each place of a
 * value, read from the same node plans the refusal's explanation walks (`validation/plan.ts`),
 * so that the two can never read a keyword differently.
 *
 * A node applies *certainly* at a place when the explanation of a refusal visits it there in
 * every case: the root; a declared property, a matching `patternProperties` entry or the
 * `additionalProperties` schema of an object that applies; a `prefixItems` entry or the `items`
 * schema of an array that applies; and with each node, what its `$ref`s and `allOf` branches
 * lead to. The branches of `anyOf`, `oneOf`, `not` and `if` are never followed: which of them
 * counts depends on the whole value.
 */

/** Numbers of each sort a type test tells apart: an integer, a fraction, and what `JSON.parse` makes of `1e400`. */
const NUMBERS: readonly unknown[] = [0, 0.5, Infinity];
/** By value kind (`ValueKind`), the values a type test can see for it: its type depends on nothing else. */
const KIND_VALUES: ReadonlyArray<readonly unknown[]> = [[{}], [[]], [""], NUMBERS, [true], [false], [null]];

/** Places deeper than this are not checked: the explanation of a refusal stops describing at 256. */
export const MAX_CHECKED_DEPTH = 128;
/** The most nodes one place is checked against; more are left out (checking less is always safe). */
const MAX_PLANS_PER_PLACE = 32;
/** The most member names one place remembers the plans of; others are worked out each time. */
const MAX_REMEMBERED_MEMBERS = 1024;
/**
 * The longest member name one place remembers: the sets live as long as the tool, so the names a
 * model sends must not be kept in bulk (1,024 names of 256 KB each held 400 MB after their streams
 * ended). Names a schema declares are short; longer ones are worked out each time.
 */
const MAX_REMEMBERED_KEY_LENGTH = 256;

/** What applies to one member of an object. */
export interface Member {
  /** The nodes that certainly apply to its value, or `undefined` for none. */
  readonly plans: PlanSet | undefined;
  /**
   * The final check's message when an object node here allows no property it does not describe
   * (`additionalProperties: false`) and does not describe this one, or `undefined`.
   */
  readonly notAllowed: string | undefined;
  /** Whether an object node here requires it: a `null` there is never dropped before the final check. */
  readonly required: boolean;
}

/** A remembered member, and the one looked up after it last time. */
interface MemberEntry {
  readonly key: string;
  readonly member: Member;
  next: MemberEntry | undefined;
}

/** The schema nodes that certainly apply at one place, and what checking a value there needs. */
export class PlanSet {
  /**
   * By value kind (`ValueKind`): the type messages certain from a value's first character (for
   * numbers, of the nodes that allow no number at all), `undefined` for none.
   */
  readonly kindMessages: ReadonlyArray<readonly string[] | undefined>;
  /** The nodes whose type test a complete number may fail: they allow some numbers, not all. */
  readonly numberTyped: readonly NodePlan[];
  /** The nodes with a `const` or an `enum` (or a union of constants). */
  readonly valued: readonly NodePlan[];
  /** By value kind: whether the checker needs the complete value (a string, number, boolean or null). */
  readonly wantsValue: readonly boolean[];
  readonly #plans: readonly NodePlan[];
  readonly #schemas: SchemaPlans;
  /** The longest `prefixItems` here: items past it share one set. */
  readonly #longestPrefix: number;
  readonly #members = new Map<string, MemberEntry>();
  /** The member looked up last: objects at one place tend to list their keys in one order, so its successor is the first guess. */
  #lastMember: MemberEntry | undefined;
  readonly #items: Array<PlanSet | null | undefined> = [];

  constructor(plans: readonly NodePlan[], schemas: SchemaPlans) {
    this.#plans = plans;
    this.#schemas = schemas;
    const typed = plans.filter((plan) => plan.typeTest !== undefined);
    this.kindMessages = KIND_VALUES.map((values) => {
      const messages = typed.filter((plan) => !values.some((value) => plan.typeTest!(value))).map((plan) => plan.typeMessage);
      return messages.length === 0 ? undefined : messages;
    });
    this.numberTyped = typed.filter((plan) => NUMBERS.some((value) => plan.typeTest!(value)) && !NUMBERS.every((value) => plan.typeTest!(value)));
    this.valued = plans.filter((plan) => plan.hasConst || plan.enumHas !== undefined);
    const primitive = this.valued.length > 0;
    this.wantsValue = KIND_VALUES.map((_values, kind) => (kind === ValueKind.Object || kind === ValueKind.Array ? false : primitive || (kind === ValueKind.Number && this.numberTyped.length > 0)));
    this.#longestPrefix = Math.max(0, ...plans.map((plan) => plan.array?.prefix.length ?? 0));
  }

  /**
   * What applies to the member `key` of an object here: the nodes that certainly apply to its
   * value (`undefined` for none), and the message of a closed object here that does not allow it.
   */
  member(key: string): Member {
    const last = this.#lastMember;
    const guess = last?.next;
    let entry = guess !== undefined && guess.key === key ? guess : this.#members.get(key);
    if (entry === undefined) {
      entry = { key, member: this.#member(key), next: undefined };
      if (this.#members.size >= MAX_REMEMBERED_MEMBERS || key.length > MAX_REMEMBERED_KEY_LENGTH) return entry.member;
      this.#members.set(key, entry);
    }
    if (last !== undefined) last.next = entry;
    this.#lastMember = entry;
    return entry.member;
  }

  #member(key: string): Member {
    const schemas: unknown[] = [];
    let notAllowed: string | undefined;
    let required = false;
    for (const plan of this.#plans) {
      const object = plan.object;
      if (object === undefined) continue;
      let described = false;
      if (object.declared.has(key)) {
        described = true;
        schemas.push(this.#schemas.declaredSchema(object, key));
        required ||= object.properties.some((property) => property.required && property.name === key);
      } else {
        required ||= object.undeclaredRequired.includes(key);
      }
      for (const [tester, schema] of object.patterns) {
        if (!tester.test(key)) continue;
        described = true;
        schemas.push(schema);
      }
      if (!described && object.hasAdditional) {
        if (object.additional === false) notAllowed ??= notAllowedMessage(object);
        else schemas.push(object.additional);
      }
    }
    return { plans: this.#schemas.setOf(schemas), notAllowed, required };
  }

  /**
   * Whether the registry's repair might yet turn a value of `kind` here into a one-element array
   * of it (its rule 4): no node here refuses an array by its type, and no node certain to apply
   * to the array's first item refuses that kind. Whether it will depends on the whole value: this
   * only rules it out, so that nothing is reported about a value that may yet become an item.
   */
  mayBecomeItem(kind: ValueKind): boolean {
    // `null` too: a required property's (an optional one's is left out instead).
    if (kind === ValueKind.Array) return false;
    return this.kindMessages[ValueKind.Array] === undefined && this.item(0)?.kindMessages[kind] === undefined;
  }

  /** The nodes that certainly apply to item `index` of an array here, or `undefined` for none. */
  item(index: number): PlanSet | undefined {
    // Items past every prefix share one set: the one of the first such index.
    const slot = index < this.#longestPrefix ? index : this.#longestPrefix;
    const known = this.#items[slot];
    if (known !== undefined) return known ?? undefined;
    const schemas: unknown[] = [];
    for (const plan of this.#plans) {
      const array = plan.array;
      if (array === undefined) continue;
      if (slot < array.prefix.length) schemas.push(array.prefix[slot]);
      else if (array.rest !== undefined) schemas.push(array.rest);
    }
    const found = this.#schemas.setOf(schemas);
    this.#items[slot] = found ?? null;
    return found;
  }
}

/** One schema document's plan sets, built on first use and kept, shared by every stream of the schema. */
export class SchemaPlans {
  readonly root: PlanSet | undefined;
  /**
   * Whether the root schema might accept an array: it has no `type` and describes arrays, or may
   * through a reference or an applicator. Only then may repair wrap the arguments object in one.
   */
  readonly rootMayAcceptArray: boolean;
  /** The empty set: a place with nothing to check, whose values are still to be seen. */
  readonly none: PlanSet;
  readonly #book: PlanBook;
  readonly #expanded = new Map<NodePlan, readonly NodePlan[]>();
  readonly #declared = new WeakMap<ObjectPlan, Map<string, unknown>>();

  constructor(schema: unknown) {
    this.#book = new PlanBook(new SchemaReferences(schema), patternTester);
    this.none = new PlanSet([], this);
    this.root = this.setOf([schema]);
    this.rootMayAcceptArray = mayAcceptArray(schema);
  }

  /** The subschema `object` declares for `key` (which it declares). */
  declaredSchema(object: ObjectPlan, key: string): unknown {
    let byName = this.#declared.get(object);
    if (byName === undefined) {
      byName = new Map(object.properties.map((property) => [property.name, property.schema]));
      this.#declared.set(object, byName);
    }
    return byName.get(key);
  }

  /** The set of nodes that apply where `schemas` do, with what their references and `allOf` lead to. */
  setOf(schemas: readonly unknown[]): PlanSet | undefined {
    const plans = new Set<NodePlan>();
    for (const schema of schemas) {
      for (const plan of this.#expand(this.#book.of(schema))) {
        if (plans.size === MAX_PLANS_PER_PLACE) break;
        plans.add(plan);
      }
    }
    return plans.size === 0 ? undefined : new PlanSet([...plans], this);
  }

  /** A node and every node its references and `allOf` branches lead to, each once, without the ones that check nothing. */
  #expand(plan: NodePlan): readonly NodePlan[] {
    let expanded = this.#expanded.get(plan);
    if (expanded !== undefined) return expanded;
    const found = new Set<NodePlan>();
    const pending: Array<[NodePlan, number]> = [[plan, 0]];
    while (pending.length > 0 && found.size < MAX_PLANS_PER_PLACE) {
      const [node, hops] = pending.pop()!;
      if (found.has(node)) continue;
      // A node that accepts or refuses everything has nothing to check here (a refusal of everything is left to the final check).
      if (node.acceptsAll || node.rejectsAll) continue;
      found.add(node);
      if (hops >= MAX_REF_HOPS) continue;
      for (const target of node.references) if (target !== undefined) pending.push([this.#book.of(target), hops + 1]);
      for (const branch of node.applicators?.allOf ?? []) pending.push([this.#book.of(branch), hops + 1]);
    }
    expanded = [...found];
    this.#expanded.set(plan, expanded);
    return expanded;
  }
}

/** Keywords through which a schema without `type` may accept an array. */
const ARRAY_ROUTES = ["items", "prefixItems", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf"];

/** Whether `schema` might accept an array, as its own keywords say (conservative: a reference or applicator may). */
function mayAcceptArray(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return schema === true;
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined) return type === "array" || (Array.isArray(type) && type.includes("array"));
  return ARRAY_ROUTES.some((keyword) => Object.hasOwn(schema, keyword));
}

const schemaPlans = new WeakMap<object, SchemaPlans>();

/** The plan sets of a schema (a registered tool's frozen snapshot), made once and shared. */
export function plansOf(schema: object): SchemaPlans {
  let plans = schemaPlans.get(schema);
  if (plans === undefined) {
    plans = new SchemaPlans(schema);
    schemaPlans.set(schema, plans);
  }
  return plans;
}

/** The linear-time tester of a pattern, as the validator and the explanation run it; one that cannot run safely matches nothing. */
function patternTester(pattern: string): PatternTester {
  const compiled = compilePattern(pattern);
  return compiled.ok ? compiled.tester : NO_MATCH;
}

const NO_MATCH: PatternTester = { test: () => false };
