import { Format } from "typebox/format";
import { beginCheck, checkIdentities, endCheck, jsonEqual } from "../schema/equality.js";
import { MAX_REF_HOPS, MAX_VALUE_DEPTH } from "../schema/keywords.js";
import { compilePattern, type PatternTester } from "../schema/patterns.js";
import { isMultipleOf } from "../schema/multiple-of.js";
import { codePointCount } from "../schema/string-length.js";
import { pointerOf } from "../schema/pointer.js";
import type { Issue } from "../text/issues.js";
import { SchemaReferences } from "../schema/references.js";
import { type ApplicatorPlan, type ArrayPlan, type NodePlan, type NumberPlan, type ObjectPlan, PlanBook, type StringPlan } from "./plan.js";
import { typeTest } from "../schema/json-types.js";
import { describeAllowed, describeNames, describeSchemaFragment, describeTypes } from "../text/shapes.js";

export type { Issue } from "../text/issues.js";

/** How much one explanation may find and do. */
export interface ExplainLimits {
  /** The most issues reported; the walk stops once it has them. */
  readonly maxIssues: number;
  /** Steps the walk may take, beyond one per node of the value; then it stops with what it found. */
  readonly extraSteps?: number;
}



/** Steps of the walk per node of the value: one visit each, and room for `contains`, `uniqueItems` and a union's second look. */
const STEPS_PER_NODE = 4;

type Schema = Readonly<Record<string, unknown>>;
/** Explain (report every failure) or test (decide at the first failure, report nothing). */
type Mode = 0 | 1;
const EXPLAIN: Mode = 0;
const TEST: Mode = 1;

/** What a budget's value becomes once its last steps are granted: the next step past them ends the walks. */
const SPENT = Symbol("spent");

/**
 * The steps one or more walks may take: `extraSteps`, and once those are spent, a few steps per
 * node of a value (counted then, so that a small value is never counted). Walks that share a
 * budget (the tests of one repair) share its bound.
 */
export class StepBudget {
  #steps: number;
  #value: unknown;

  /** @param value the value the walks are about: its size sets the budget beyond `extraSteps` */
  constructor(extraSteps: number, value: unknown) {
    this.#steps = extraSteps;
    this.#value = value;
  }

  /** Adds a few steps per node of `value`, a value that joins the walks (the parse of a JSON text). */
  grant(value: unknown): void {
    this.#steps += STEPS_PER_NODE * countNodes(value);
  }

  /** Whether every step is spent (until a {@link StepBudget.grant}): the walks that share this budget have ended. */
  get spent(): boolean {
    return this.#value === SPENT && this.#steps < 0;
  }

  /** Spends `count` steps (one by default); false once the budget is spent (and from then on, until a grant covers the steps overspent). */
  spend(count = 1): boolean {
    this.#steps -= count;
    if (this.#steps >= 0) return true;
    if (this.#value === SPENT) return false;
    this.#steps = STEPS_PER_NODE * countNodes(this.#value);
    this.#value = SPENT;
    return true;
  }
}

/**
 * The state of one explanation: where it is in the value, what it found, what it may still do.
 * A walk ends (`ended`) once it holds `maxIssues` issues or its budget is spent: from then on each
 * visit returns at once, each loop over a value's items stops, and nothing more is reported. (A
 * flag, not a throw: a throw from deep in the walk costs microseconds, more than the walk of a
 * small value.) What a visit answers after the end means nothing: an explanation keeps only its
 * issues, and a test whose budget was spent answers `undefined`.
 */
class Walk {
  readonly issues: Issue[] = [];
  /** The segments from the root to the value being visited; a pointer is written only when reported. */
  readonly path: Array<string | number> = [];
  ended = false;

  constructor(
    readonly maxIssues: number,
    readonly budget: StepBudget,
  ) {}

  /** Takes one step of the budget; false once the walk has ended. */
  step(): boolean {
    if (this.ended) return false;
    if (this.budget.spend()) return true;
    this.ended = true;
    return false;
  }

  /** Reports an issue at the current path, or at its `child`; always false, for `valid = walk.fail(…)`. */
  fail(message: string, child?: string | number): false {
    this.report(message, child);
    return false;
  }

  /** Reports an issue at the current path, or at its `child`, unless the walk has ended. */
  report(message: string, child?: string | number): void {
    if (this.ended) return;
    this.issues.push({ pointer: pointerOf(this.path, child), message });
    if (this.issues.length >= this.maxIssues) this.ended = true;
  }
}

/**
 * A walk and its budget kept for the life of the module: V8 drops a class's object layouts once no
 * instance of it is left, and with them the optimized code built on them (see `keepLayouts` in the
 * streaming parser), so that the first refusals after a full garbage collection would be explained
 * by unoptimized code.
 */
export const WALK_LAYOUT_KEEPER: object = new Walk(1, new StepBudget(0, undefined));

/**
 * Finds why a value fails a JSON Schema, at a cost bounded by the value's size: one walk down
 * the schema and the value together, in schema order, that stops once it holds `maxIssues`
 * issues or has spent its step budget (a few steps per node of the value). It never asks
 * TypeBox's `Errors()`, whose cost can be quadratic or walk the whole value per failure. Each
 * schema node is read once into a {@link NodePlan}; visits then touch only the keywords it has.
 *
 * It explains and never decides: the compiled validator's verdict is final, and an explanation
 * that finds nothing (a budget spent, a keyword it does not model) gives one generic issue. Its
 * messages come from the schema (types, limits, allowed values, patterns, cut to a bounded
 * length), never from the value; pointers name the value's keys and indices.
 *
 * Semantics follow JSON Schema where TypeBox 1.4 departs from it in ways this library corrects:
 * own properties only (never inherited ones such as `toString`), JSON equality for `enum`,
 * `const` and `uniqueItems` (an array never equals an object), exact decimal `multipleOf`.
 */
export class SchemaExplainer {
  readonly #root: unknown;
  readonly #plans: PlanBook;

  constructor(root: unknown) {
    this.#root = root;
    this.#plans = new PlanBook(new SchemaReferences(root), patternTester);
  }

  /** Why `value` fails the schema, in schema order: at most `limits.maxIssues` issues, and at least one. */
  explain(value: unknown, limits: ExplainLimits): Issue[] {
    const walk = new Walk(Math.max(1, limits.maxIssues), new StepBudget(limits.extraSteps ?? 10_000, value));
    beginCheck();
    try {
      this.#visit(this.#plans.of(this.#root), value, 0, walk, EXPLAIN);
    } finally {
      endCheck();
    }
    return walk.issues.length > 0 ? walk.issues : [{ pointer: "", message: "arguments do not match the schema" }];
  }

  /**
   * Whether `value` matches the schema, by the same reading as {@link SchemaExplainer.explain}
   * and within the same step budget; `undefined` when the budget ran out before it could tell.
   */
  matches(value: unknown, extraSteps = 10_000): boolean | undefined {
    return this.matchesNode(this.#root, value, new StepBudget(extraSteps, value));
  }

  /**
   * Whether `value` matches `node`, a subschema of this schema document (its `$ref`s resolve in
   * the document), by the same reading as {@link SchemaExplainer.matches}, spending from `budget`;
   * `undefined` once the budget is spent.
   */
  matchesNode(node: unknown, value: unknown, budget: StepBudget): boolean | undefined {
    // A test reports nothing: only a spent budget ends its walk, and then its answer is unknown.
    let matches: boolean;
    beginCheck();
    try {
      matches = this.#visit(this.#plans.of(node), value, 0, new Walk(1, budget), TEST);
    } finally {
      endCheck();
    }
    return budget.spent ? undefined : matches;
  }

  /**
   * Whether `value` matches the node. In explain mode each failure is reported and the walk goes
   * on; in test mode nothing is reported and the first failure decides.
   */
  #visit(plan: NodePlan, value: unknown, hops: number, walk: Walk, mode: Mode): boolean {
    if (!walk.step()) return false;
    if (plan.typeOnly) {
      if (plan.typeTest!(value)) return true;
      return mode === TEST ? false : walk.fail(plan.typeMessage);
    }
    if (plan.acceptsAll) return true;
    if (plan.rejectsAll) return fail(walk, mode, "is not allowed");
    if (walk.path.length > MAX_VALUE_DEPTH) return fail(walk, mode, "does not match the schema (nested too deeply to explain)");
    let valid = true;
    for (const target of plan.references) {
      if (target === undefined || hops >= MAX_REF_HOPS) valid = fail(walk, mode, "does not match the schema");
      else valid = this.#visit(this.#plans.of(target), value, hops + 1, walk, mode) && valid;
      if (!valid && mode === TEST) return false;
    }
    if (walk.ended) return false;
    if (plan.typeTest !== undefined && !plan.typeTest(value)) {
      if (mode === TEST) return false;
      valid = walk.fail(plan.typeMessage);
    }
    if (plan.hasConst && !jsonEqual(value, plan.constValue)) {
      if (mode === TEST) return false;
      valid = walk.fail(describeAllowed([plan.constValue]));
    }
    if (plan.enumHas !== undefined && !plan.enumHas(value)) {
      if (mode === TEST) return false;
      valid = walk.fail(plan.enumMessage);
    }
    // Once the walk has ended, nothing more is read: not the rest of the value, not a refinement.
    if (walk.ended) return false;
    if (typeof value === "object" && value !== null) {
      if (Array.isArray(value)) {
        if (plan.array !== undefined) valid = this.#visitArray(plan.array, value, walk, mode) && valid;
      } else if (plan.object !== undefined) {
        valid = this.#visitObject(plan.object, value as Readonly<Record<string, unknown>>, walk, mode) && valid;
      }
    } else if (typeof value === "string") {
      if (plan.string !== undefined) valid = visitString(plan.string, value, walk, mode) && valid;
    } else if (typeof value === "number") {
      if (plan.number !== undefined) valid = visitNumber(plan.number, value, walk, mode) && valid;
    }
    if (!valid && mode === TEST) return false;
    if (plan.applicators !== undefined) valid = this.#visitApplicators(plan.applicators, value, walk, mode) && valid;
    // A refinement is asked last, and only of a value the rest of its node accepts, as TypeBox asks
    // it: it was written for values of its node's shape.
    if (valid && !walk.ended) {
      for (const refinement of plan.refinements) {
        if (!refinement(value)) return fail(walk, mode, "does not pass the schema's refinement");
      }
    }
    return valid;
  }

  /** Visits the value at one child of the current path. */
  #visitChild(plan: NodePlan, value: unknown, segment: string | number, walk: Walk, mode: Mode): boolean {
    walk.path.push(segment);
    const valid = this.#visit(plan, value, 0, walk, mode);
    walk.path.pop();
    return valid;
  }

  #visitArray(array: ArrayPlan, items: readonly unknown[], walk: Walk, mode: Mode): boolean {
    let valid = true;
    if (array.minItems !== undefined && items.length < array.minItems) valid = fail(walk, mode, () => `must not have fewer than ${array.minItems} items`);
    if (array.maxItems !== undefined && items.length > array.maxItems) valid = fail(walk, mode, () => `must not have more than ${array.maxItems} items`);
    if (!valid && mode === TEST) return false;
    const prefixLength = Math.min(array.prefix.length, items.length);
    for (let index = 0; index < prefixLength && !walk.ended; index++) {
      valid = this.#visitChild(this.#plans.of(array.prefix[index]), items[index], index, walk, mode) && valid;
      if (!valid && mode === TEST) return false;
    }
    if (array.rest !== undefined) {
      const rest = this.#plans.of(array.rest);
      for (let index = prefixLength; index < items.length && !walk.ended; index++) {
        valid = this.#visitChild(rest, items[index], index, walk, mode) && valid;
        if (!valid && mode === TEST) return false;
      }
    }
    if (array.hasContains) {
      const contains = this.#plans.of(array.contains);
      let matches = 0;
      for (let index = 0; index < items.length && !walk.ended; index++) if (this.#visitChild(contains, items[index], index, walk, TEST)) matches++;
      if (matches < array.minContains) valid = fail(walk, mode, () => `must contain at least ${array.minContains} ${array.minContains === 1 ? "item" : "items"} matching ${describeSchemaFragment(array.contains)}`);
      if (array.maxContains !== undefined && matches > array.maxContains) valid = fail(walk, mode, () => `must contain at most ${array.maxContains} items matching ${describeSchemaFragment(array.contains)}`);
      if (!valid && mode === TEST) return false;
    }
    if (array.uniqueItems) {
      const duplicate = firstDuplicate(items, walk);
      if (duplicate !== undefined) {
        if (mode === TEST) return false;
        valid = walk.fail(`must not have duplicate items (item ${duplicate[1]} repeats item ${duplicate[0]})`);
      }
    }
    return valid;
  }

  #visitObject(object: ObjectPlan, value: Readonly<Record<string, unknown>>, walk: Walk, mode: Mode): boolean {
    let valid = true;
    // In schema order: each declared property, missing or present, then the required names it does not declare.
    for (const property of object.properties) {
      if (walk.ended) return false;
      const name = property.name;
      if (!Object.hasOwn(value, name)) {
        if (property.required) valid = fail(walk, mode, () => missingMessage(name), name);
      } else if (property.required || value[name] !== undefined) {
        // An optional property present as undefined counts as absent, as TypeBox and TypeScript read it.
        valid = this.#visitChild((property.plan ??= this.#plans.of(property.schema)), value[name], name, walk, mode) && valid;
      }
      if (!valid && mode === TEST) return false;
    }
    for (const name of object.undeclaredRequired) {
      if (!Object.hasOwn(value, name)) {
        valid = fail(walk, mode, () => missingMessage(name), name);
        if (mode === TEST) return false;
      }
    }
    const keys = object.patterns.length > 0 || object.hasAdditional || object.hasPropertyNames || object.minProperties !== undefined || object.maxProperties !== undefined ? Object.keys(value) : [];
    if (object.patterns.length > 0 || object.hasAdditional) {
      const additional = object.hasAdditional && object.additional !== false ? this.#plans.of(object.additional) : undefined;
      for (const key of keys) {
        if (walk.ended) return false;
        let described = object.declared.has(key);
        for (const [tester, subschema] of object.patterns) {
          if (!tester.test(key)) continue;
          described = true;
          valid = this.#visitChild(this.#plans.of(subschema), value[key], key, walk, mode) && valid;
        }
        if (!described && object.hasAdditional) {
          if (additional === undefined) valid = fail(walk, mode, () => notAllowedMessage(object), key);
          else valid = this.#visitChild(additional, value[key], key, walk, mode) && valid;
        }
        if (!valid && mode === TEST) return false;
      }
    }
    if (object.hasPropertyNames) {
      const names = this.#plans.of(object.propertyNames);
      for (const key of keys) {
        // The names come from the arguments: never shown, never used as a pointer.
        if (!this.#visit(names, key, 0, walk, TEST)) {
          valid = fail(walk, mode, () => `property names are invalid (each must be ${describeSchemaFragment(object.propertyNames)})`);
          break;
        }
      }
    }
    if (object.minProperties !== undefined && keys.length < object.minProperties) valid = fail(walk, mode, () => `must not have fewer than ${object.minProperties} properties`);
    if (object.maxProperties !== undefined && keys.length > object.maxProperties) valid = fail(walk, mode, () => `must not have more than ${object.maxProperties} properties`);
    if (!valid && mode === TEST) return false;
    for (const [trigger, dependency] of object.dependencies) {
      if (!Object.hasOwn(value, trigger)) continue;
      if (Array.isArray(dependency)) {
        const missing = dependency.filter((name): name is string => typeof name === "string" && !Object.hasOwn(value, name));
        if (missing.length > 0) valid = fail(walk, mode, () => `must have properties ${missing.join(", ")} when property ${trigger} is present`);
      } else {
        valid = this.#visit(this.#plans.of(dependency), value, 0, walk, mode) && valid;
      }
      if (!valid && mode === TEST) return false;
    }
    return valid;
  }

  /** `anyOf` (`exactlyOne` false) or `oneOf` (true). */
  #visitUnion(branches: readonly unknown[], exactlyOne: boolean, value: unknown, walk: Walk, mode: Mode): boolean {
    let matching = 0;
    for (const branch of this.#plans.list(branches)) {
      if (this.#visit(branch, value, 0, walk, TEST)) matching++;
      if (exactlyOne ? matching > 1 : matching > 0) break;
    }
    if (walk.ended) return false;
    if (matching === 1 || (!exactlyOne && matching > 0)) return true;
    if (mode === TEST) return false;
    if (matching > 1) return fail(walk, mode, "must match exactly one of the allowed shapes, and matches more than one");
    // Explain the one branch meant for a value of this kind; otherwise say what is allowed.
    const meant = branchesMeantFor(branches, value);
    if (meant.length === 1) this.#visit(this.#plans.of(meant[0]), value, 0, walk, EXPLAIN);
    else fail(walk, mode, () => describeBranches(branches));
    return false;
  }

  /** `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`. */
  #visitApplicators(applicators: ApplicatorPlan, value: unknown, walk: Walk, mode: Mode): boolean {
    let valid = true;
    for (const branch of applicators.allOf) {
      valid = this.#visit(this.#plans.of(branch), value, 0, walk, mode) && valid;
      if (!valid && mode === TEST) return false;
    }
    if (applicators.anyOf.length > 0) valid = this.#visitUnion(applicators.anyOf, false, value, walk, mode) && valid;
    if (!valid && mode === TEST) return false;
    if (applicators.oneOf.length > 0) valid = this.#visitUnion(applicators.oneOf, true, value, walk, mode) && valid;
    if (!valid && mode === TEST) return false;
    if (applicators.hasNot && this.#visit(this.#plans.of(applicators.not), value, 0, walk, TEST)) {
      valid = fail(walk, mode, () => `must not match ${describeSchemaFragment(applicators.not)}`);
      if (mode === TEST) return false;
    }
    if (applicators.hasIf) {
      const branch = this.#visit(this.#plans.of(applicators.if), value, 0, walk, TEST) ? applicators.then : applicators.else;
      if (branch !== undefined) valid = this.#visit(this.#plans.of(branch), value, 0, walk, mode) && valid;
    }
    return valid;
  }
}

/**
 * `must have required properties b`: the line the contract (issue 2) gives a missing property, word
 * for word. It names no shape: code compares it whole, and the model has the tool's schema.
 */
function missingMessage(name: string): string {
  return `must have required properties ${name}`;
}

/** `is not an allowed property (allowed: "a", "b")`: the declared names, when they are all that is allowed. */
export function notAllowedMessage(object: ObjectPlan): string {
  if (object.properties.length === 0 || object.patterns.length > 0) return "is not an allowed property";
  return `is not an allowed property (allowed: ${describeNames(object.properties.map((property) => property.name))})`;
}

/**
 * Reports a failure in explain mode (at the current path, or at its `child`); always false.
 * A message that takes work to write is a function, called only when it is reported: test mode
 * (a union's branches, `contains`) fails often and writes nothing.
 */
function fail(walk: Walk, mode: Mode, message: string | (() => string), child?: string | number): false {
  if (mode === EXPLAIN && !walk.ended) walk.report(typeof message === "string" ? message : message(), child);
  return false;
}

function visitString(string: StringPlan, text: string, walk: Walk, mode: Mode): boolean {
  let valid = true;
  if (string.minLength !== undefined || string.maxLength !== undefined) {
    const length = codePointCount(text);
    if (string.minLength !== undefined && length < string.minLength) valid = fail(walk, mode, () => `must not have fewer than ${string.minLength} characters`);
    if (string.maxLength !== undefined && length > string.maxLength) valid = fail(walk, mode, () => `must not have more than ${string.maxLength} characters`);
  }
  if (string.tester !== undefined && !string.tester.test(text)) valid = fail(walk, mode, () => `must match pattern ${describeSchemaFragment(string.pattern)}`);
  if (string.format !== undefined && !Format.Test(string.format, text)) valid = fail(walk, mode, () => `must match format ${describeSchemaFragment(string.format)}`);
  return valid;
}

function visitNumber(number: NumberPlan, value: number, walk: Walk, mode: Mode): boolean {
  let valid = true;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = number;
  if (minimum !== undefined && !(value >= minimum)) valid = fail(walk, mode, () => `must be >= ${minimum}`);
  if (maximum !== undefined && !(value <= maximum)) valid = fail(walk, mode, () => `must be <= ${maximum}`);
  if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) valid = fail(walk, mode, () => `must be > ${exclusiveMinimum}`);
  if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) valid = fail(walk, mode, () => `must be < ${exclusiveMaximum}`);
  if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) valid = fail(walk, mode, () => `must be a multiple of ${multipleOf}`);
  return valid;
}

/** The branches of a union written for a value of this JSON type (and, for objects, whose `const` properties it matches). */
function branchesMeantFor(branches: readonly unknown[], value: unknown): unknown[] {
  const ofType = branches.filter((branch) => !isObject(branch) || branch.type === undefined || typeTest(Array.isArray(branch.type) ? branch.type : [branch.type])(value));
  if (ofType.length <= 1 || typeof value !== "object" || value === null || Array.isArray(value)) return ofType;
  // A discriminated union: the branch whose constant-valued properties the object matches.
  const discriminated = ofType.filter((branch) => {
    const properties = isObject(branch) && isObject(branch.properties) ? branch.properties : {};
    return Object.keys(properties).every((name) => {
      const property = properties[name];
      return !(isObject(property) && Object.hasOwn(property, "const")) || jsonEqual((value as Record<string, unknown>)[name], property.const);
    });
  });
  return discriminated.length >= 1 ? discriminated : ofType;
}

function describeBranches(branches: readonly unknown[]): string {
  const types = branches.map((branch) => (isObject(branch) && Object.keys(branch).every((key) => key === "type" || key === "description" || key === "title") ? branch.type : undefined));
  if (types.every((type) => typeof type === "string")) return `must be ${describeTypes(types as string[])}`;
  const constants = branches.map((branch) => (isObject(branch) && Object.hasOwn(branch, "const") ? [branch.const] : isObject(branch) && Array.isArray(branch.enum) ? branch.enum : undefined));
  if (constants.every((values) => values !== undefined)) return describeAllowed(constants.flat());
  return `must match one of the ${branches.length} allowed shapes: ${branches.map(describeSchemaFragment).join("; ")}`;
}

/**
 * The linear-time tester of a schema pattern (the one the compiled validator runs), so that
 * explaining a refusal can never take longer than checking; a pattern with no safe tester
 * (which `register` refuses) matches nothing.
 */
function patternTester(pattern: string): PatternTester {
  const compiled = compilePattern(pattern);
  return compiled.ok ? compiled.tester : NO_MATCH;
}

const NO_MATCH: PatternTester = { test: () => false };


/**
 * The first pair of equal items (JSON equality), as `[first, repeat]` indices. Numbers and
 * strings are keyed as themselves (no text is built for them), everything else by its JSON key.
 */
function firstDuplicate(items: readonly unknown[], walk: Walk): [number, number] | undefined {
  if (items.length < 2) return undefined;
  // Shared with the walk's other arrays: nested unique arrays are read once in all.
  const identities = checkIdentities();
  const seen = new Map<number, number>();
  for (let index = 0; index < items.length; index++) {
    if (!walk.step()) return undefined;
    const identity = identities.of(items[index]);
    const first = seen.get(identity);
    if (first !== undefined) return [first, index];
    seen.set(identity, index);
  }
  return undefined;
}

/** Nodes of a value (objects, arrays and primitives), counted without recursion; only containers wait on the stack. */
function countNodes(value: unknown): number {
  let count = 1;
  const pending: object[] = typeof value === "object" && value !== null ? [value] : [];
  // Each object once: a value that shares objects, or holds a cycle (a copy keeps both), is as
  // large as what it holds, and a cycle would otherwise be counted for ever.
  const seen = new Set<object>(pending);
  while (pending.length > 0) {
    const node = pending.pop()!;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (typeof child === "object" && child !== null && !seen.has(child)) {
        seen.add(child);
        pending.push(child);
      }
    }
  }
  return count;
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
