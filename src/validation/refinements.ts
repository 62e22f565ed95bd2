import { checkIdentities, jsonEqual, jsonMembership } from "../schema/equality.js";
import { isMultipleOf } from "../schema/multiple-of.js";
import { isRecord } from "../objects.js";

/**
 * The checks the validator transform puts in TypeBox's `~refine` in place of keywords that TypeBox
 * decides differently from JSON Schema. TypeBox runs a refinement on every value its node sees, so
 * each check first looks at the value's type, as the keyword it replaces would. Messages name
 * schema facts only, never the value.
 */

/** One entry of TypeBox's `~refine`. */
export interface Refinement {
  /** Whether `value` satisfies the replaced keyword. */
  check(value: unknown): boolean;
  /** The message when it does not (never the value). */
  error(value: unknown): string;
}

/** `enum` by JSON Schema equality: primitives in a Set, objects and arrays by their text keys (so an array-like object never equals an array). */
export function enumRefinement(values: readonly unknown[]): Refinement {
  return { check: jsonMembership(values), error: () => "must be equal to one of the allowed values" };
}

/** `const` of an object or array, by JSON Schema equality. */
export function constRefinement(expected: unknown): Refinement {
  return { check: (value) => jsonEqual(value, expected), error: () => "must be equal to constant" };
}

/** `multipleOf` in exact decimal arithmetic (see {@link isMultipleOf}). */
export function multipleOfRefinement(divisor: number): Refinement {
  return { check: (value) => typeof value !== "number" || isMultipleOf(value, divisor), error: () => `must be multiple of ${divisor}` };
}

/**
 * `uniqueItems: true` by JSON Schema equality, in linear time: by the items' identities (`JsonIdentities`),
 * which one check shares among all its arrays, so nested unique arrays are read once in all.
 */
export const UNIQUE_ITEMS_REFINEMENT: Refinement = {
  check: (value) => {
    if (!Array.isArray(value) || value.length < 2) return true;
    const identities = checkIdentities();
    const seen = new Set<number>();
    for (const item of value) seen.add(identities.of(item));
    return seen.size === value.length;
  },
  error: () => "must NOT have duplicate items",
};

/** `dependentRequired` (and the list form of `dependencies`) by own properties only: `toString` is never present by inheritance. */
export function dependentRequiredRefinement(dependencies: ReadonlyMap<string, readonly string[]>): Refinement {
  const entries = [...dependencies];
  return {
    check: (value) => {
      if (!isRecord(value)) return true;
      for (const [trigger, names] of entries) {
        if (!Object.hasOwn(value, trigger)) continue;
        for (const name of names) if (!Object.hasOwn(value, name)) return false;
      }
      return true;
    },
    error: () => "must have the properties that its present properties depend on",
  };
}
