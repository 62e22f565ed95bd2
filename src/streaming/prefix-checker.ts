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
   * reported about a `null` then, nor that a closed object does not allow a property whose value
   * is `null` and that no object node there requires.
   */
  readonly nullsMayBeDropped: boolean;
  /**
   * Whether the registry's opt-in repair runs before the final check gives up. It may turn a
   * string into what it spells (`"20"` into 20, JSON text into its object or array), drop a `null`
   * given for an optional property, and wrap a lone value where an array of it is wanted. So
   * nothing is reported about a string; about a `null` for a property no object node there
   * requires (nor that a closed object does not allow that property); or about a value, or
   * anything inside it, where an array whose items may be of its kind is allowed.
   */
  readonly mayBeRepaired: boolean;
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
 * still too short, too few items; nor anything a step before the final check may still change
 * (see {@link PrefixCheckerOptions}).
 */
export class PrefixChecker implements ValueObserver<PlanSet> {
  readonly #plans: SchemaPlans;
  readonly #sink: IssueSink;
  readonly #ignoreNulls: boolean;
  readonly #mayBeRepaired: boolean;
  /** Set by `member` for the value that follows: a `null` there may be dropped before the final check. */
  #nullMayBeDropped = false;
  /** Set by `member` for the value that follows: that a closed object does not allow it, held back until the value is not such a `null`. */
  #heldBack: string | undefined;

  constructor(plans: SchemaPlans, sink: IssueSink, options: PrefixCheckerOptions) {
    this.#plans = plans;
    this.#sink = sink;
    this.#ignoreNulls = options.nullsMayBeDropped;
    this.#mayBeRepaired = options.mayBeRepaired;
  }

  rootPlans(): PlanSet {
    // The root is always looked at: it must be an object, whatever the schema says.
    return this.#plans.root ?? this.#plans.none;
  }

  item(parent: PlanSet, index: number, depth: number): PlanSet | undefined {
    this.#nullMayBeDropped = false;
    this.#heldBack = undefined;
    if (depth > MAX_CHECKED_DEPTH || this.#sink.full) return undefined;
    return parent.item(index);
  }

  member(parent: PlanSet, key: string, depth: number, at: PointerSource): PlanSet | undefined {
    this.#nullMayBeDropped = false;
    this.#heldBack = undefined;
    // An object that repair may wrap in an array: nothing about its members is certain.
    if (this.#mayBecomeItem(parent, ValueKind.Object, depth - 1)) return undefined;
    const member = parent.member(key);
    const nullMayBeDropped = (this.#ignoreNulls || this.#mayBeRepaired) && !member.required;
    if (member.notAllowed !== undefined && !nullMayBeDropped) this.#sink.add(at.pointer(), member.notAllowed);
    if (depth > MAX_CHECKED_DEPTH || this.#sink.full) return undefined;
    this.#nullMayBeDropped = nullMayBeDropped;
    if (member.notAllowed === undefined || !nullMayBeDropped) return member.plans;
    this.#heldBack = member.notAllowed;
    // `begin` must hear of the value to tell whether it is a `null`, even with nothing to check it against.
    return member.plans ?? this.#plans.none;
  }

  begin(plans: PlanSet, kind: ValueKind, depth: number, at: PointerSource): boolean {
    const nullMayBeDropped = this.#nullMayBeDropped;
    const heldBack = this.#heldBack;
    this.#nullMayBeDropped = false;
    this.#heldBack = undefined;
    if (depth === 0) {
      if (kind !== ValueKind.Object) this.#sink.replaceAll(ROOT_ISSUES.notPlainObject);
      return false;
    }
    if (kind === ValueKind.Null && (this.#ignoreNulls || nullMayBeDropped)) return false;
    if (heldBack !== undefined) this.#sink.add(at.pointer(), heldBack);
    if ((kind === ValueKind.String && this.#mayBeRepaired) || this.#mayBecomeItem(plans, kind, depth)) return false;
    // A value whose kind no type here allows: certain from its first character.
    const messages = plans.kindMessages[kind];
    if (messages !== undefined) for (const message of messages) this.#sink.add(at.pointer(), message);
    return plans.wantsValue[kind]!;
  }

  /** Whether repair is on and may wrap a value of `kind` at `depth` in an array (the root only if its schema may accept one). */
  #mayBecomeItem(plans: PlanSet, kind: ValueKind, depth: number): boolean {
    if (!this.#mayBeRepaired || (depth === 0 && !this.#plans.rootMayAcceptArray)) return false;
    return plans.mayBecomeItem(kind);
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
      { nullsMayBeDropped: false, mayBeRepaired: false },
    ),
  ),
);
