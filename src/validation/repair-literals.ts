/**
 * Rule 1 of repair: a string that spells a JSON number or boolean where the schema says `number`,
 * `integer` or `boolean`. Exact literals only: no whitespace, no `"yes"`, no `"1"` for a boolean.
 */

type Schema = Readonly<Record<string, unknown>>;

/** What {@link repairLiteral} returns when nothing is converted. */
export const NOT_CONVERTED: unique symbol = Symbol("not converted");

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * What rule 1 needs of the alternatives a value at one pointer may match (a union's branches,
 * flattened), found once per schema: a string is then converted, or left, with a few lookups,
 * however many alternatives there are.
 */
export interface LiteralPlan {
  /** Whether an alternative may accept any string (its type admits strings, with no `const` or `enum`). */
  readonly anyString: boolean;
  /** The `const` and `enum` values of the alternatives whose type admits strings: a text among them is accepted as it is. */
  readonly strings: ReadonlySet<unknown>;
  /** Whether an alternative takes any number, any integer, any boolean (its type says so, with no `const` or `enum`). */
  readonly anyNumber: boolean;
  readonly anyInteger: boolean;
  readonly anyBoolean: boolean;
  /** The numbers and booleans the alternatives with a `const` or `enum` take (an integer type's integers only). */
  readonly values: ReadonlySet<unknown>;
}

/** The {@link LiteralPlan} of `alternatives`. */
export function literalPlan(alternatives: readonly Schema[]): LiteralPlan {
  let anyString = false;
  let anyNumber = false;
  let anyInteger = false;
  let anyBoolean = false;
  const strings = new Set<unknown>();
  const values = new Set<unknown>();
  for (const alternative of alternatives) {
    const types = typesOf(alternative);
    const listed = "const" in alternative ? [alternative.const] : Array.isArray(alternative.enum) ? (alternative.enum as unknown[]) : undefined;
    if (types === undefined || types.includes("string")) {
      if (listed === undefined) anyString = true;
      else for (const value of listed) strings.add(value);
    }
    if (types === undefined) continue;
    const number = types.includes("number");
    const integer = types.includes("integer");
    const boolean = types.includes("boolean");
    if (listed === undefined) {
      anyNumber ||= number;
      anyInteger ||= integer;
      anyBoolean ||= boolean;
      continue;
    }
    for (const value of listed) {
      if ((typeof value === "boolean" && boolean) || (typeof value === "number" && (number || (integer && Number.isInteger(value))))) values.add(value);
    }
  }
  return { anyString, strings, anyNumber, anyInteger, anyBoolean, values };
}

/**
 * The number or boolean `text` stands for, given the plan of the alternatives a value at its
 * pointer may match: converted only when no alternative may accept the text as a string, and an
 * alternative that says a number or boolean type takes the value (its `const` or `enum` holding it,
 * if it has one). A text spells at most one value, so at most one value results.
 */
export function repairLiteral(plan: LiteralPlan, text: string): unknown {
  if (plan.anyString || plan.strings.has(text)) return NOT_CONVERTED;
  if (text === "true" || text === "false") {
    const value = text === "true";
    return plan.anyBoolean || plan.values.has(value) ? value : NOT_CONVERTED;
  }
  if (!NUMBER_TEXT.test(text)) return NOT_CONVERTED;
  const number = Number(text);
  // An integer beyond 2^53 (`"9007199254740993"`, or spelt `"9007199254740993.0"` or with an
  // exponent) is not the number written: most likely an id, whose digits a number would lose.
  if (!Number.isFinite(number) || (Number.isInteger(number) && !Number.isSafeInteger(number))) return NOT_CONVERTED;
  return plan.anyNumber || (plan.anyInteger && Number.isInteger(number)) || plan.values.has(number) ? number : NOT_CONVERTED;
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return undefined;
}
