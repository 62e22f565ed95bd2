import { jsonEqual } from "../schema/equality.js";
import { describeAllowed } from "../text/shapes.js";
import { ROOT_ISSUES } from "../text/issues.js";
import { IncrementalJsonParser, keepLayouts, type PointerSource, type ValueObserver, ValueKind } from "./incremental-json.js";
import { MAX_CHECKED_DEPTH, PlanSet, SchemaPlans } from "./plan-sets.js";

/** Where a prefix checker puts what it finds. */
export interface IssueSink {
  /** A problem at a JSON Pointer, in the words the final check's explanation uses there. */
  add(pointer: string, message: string): void;
  /** A problem with the arguments as a whole (`/: arguments must be a plain object`): it replaces every other. */
  replaceAll(line: string): void;
  /** Whether it holds as many issues as it shows: checking may stop. */
  readonly full: boolean;
}

/** Options of a {@link PrefixChecker}. */
export interface PrefixCheckerOptions {
  /**
   * Whether a `null` may yet be removed before the final check (OpenAI strict mode: the model
   * sends `null` for an optional property it leaves out, and the adapter drops it): nothing is
   * reported about a `null` then.
   */
  readonly nullsMayBeDropped: boolean;
  /**
   * Whether a string may yet be converted before the final check (the registry's opt-in repair
   * turns `"20"` into 20 where the schema says number): nothing is reported about a string then.
   */
  readonly stringsMayBeRepaired: boolean;
}


/**
 * Reports, as a JSON text is read, only the problems that are certain from what has been read:
 * a value whose kind (object, array, string, boolean, null) no type allowed there admits, as soon
 * as its first character arrives; a complete number of the wrong type; a complete string, number,
 * boolean or null outside a `const` or `enum`; a property that a closed object does not describe,
 * as soon as its key is complete; a root that is not an object. Each is checked only against the
 * schema nodes that certainly apply there ({@link PlanSet}), with the messages those nodes'
 * plans give the final check's explanation, so that once the text is complete (as JSON, within
 * the size limit, naming each key once per object) the final check reports the same problem.
 * Nothing depending on what is still to come is reported: a missing required property, a string
 * still too short, too few items.
 */
export class PrefixChecker implements ValueObserver<PlanSet> {
  readonly #plans: SchemaPlans;
  readonly #sink: IssueSink;
  readonly #ignoreNulls: boolean;
  readonly #ignoreStrings: boolean;

  constructor(plans: SchemaPlans, sink: IssueSink, options: PrefixCheckerOptions) {
    this.#plans = plans;
    this.#sink = sink;
    this.#ignoreNulls = options.nullsMayBeDropped;
    this.#ignoreStrings = options.stringsMayBeRepaired;
  }

  rootPlans(): PlanSet {
    // The root is always looked at: it must be an object, whatever the schema says.
    return this.#plans.root ?? new PlanSet([], this.#plans);
  }

  item(parent: PlanSet, index: number, depth: number): PlanSet | undefined {
    if (depth > MAX_CHECKED_DEPTH || this.#sink.full) return undefined;
    return parent.item(index);
  }

  member(parent: PlanSet, key: string, depth: number, at: PointerSource): PlanSet | undefined {
    const member = parent.member(key);
    if (member.notAllowed !== undefined) this.#sink.add(at.pointer(), member.notAllowed);
    if (depth > MAX_CHECKED_DEPTH || this.#sink.full) return undefined;
    return member.plans;
  }

  begin(plans: PlanSet, kind: ValueKind, depth: number, at: PointerSource): boolean {
    if (depth === 0) {
      if (kind !== ValueKind.Object) this.#sink.replaceAll(ROOT_ISSUES.notPlainObject);
      return false;
    }
    if ((kind === ValueKind.Null && this.#ignoreNulls) || (kind === ValueKind.String && this.#ignoreStrings)) return false;
    // A value whose kind no type here allows: certain from its first character.
    const messages = plans.kindMessages[kind];
    if (messages !== undefined) for (const message of messages) this.#sink.add(at.pointer(), message);
    return plans.wantsValue[kind]!;
  }

  complete(plans: PlanSet, value: unknown, at: PointerSource): void {
    // Whether a number is an integer (or finite) is known only once it is complete.
    if (typeof value === "number") for (const plan of plans.numberTyped) if (!plan.typeTest!(value)) this.#sink.add(at.pointer(), plan.typeMessage);
    for (const plan of plans.valued) {
      if (plan.hasConst && !jsonEqual(value, plan.constValue)) this.#sink.add(at.pointer(), describeAllowed([plan.constValue]));
      if (plan.enumHas !== undefined && !plan.enumHas(value)) this.#sink.add(at.pointer(), plan.enumMessage);
    }
  }
}


/** A checker, and a parser it watches, kept for the life of the module: see `keepLayouts`. */
export const CHECKER_LAYOUT_KEEPER: IncrementalJsonParser<PlanSet> = keepLayouts(
  new IncrementalJsonParser<PlanSet>(
    false,
    new PrefixChecker(
      new SchemaPlans({ type: "object", properties: { k: { type: "string", enum: ["plain"] }, n: { type: "array", items: { type: "integer" } } }, additionalProperties: { type: "object" } }),
      { full: false, add: () => undefined, replaceAll: () => undefined },
      { nullsMayBeDropped: false, stringsMayBeRepaired: false },
    ),
  ),
);
