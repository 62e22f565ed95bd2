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
 * flattened), found once per schema: a string is then told apart from a literal with one lookup,
 * however many alternatives there are.
 */
export interface LiteralPlan {
  /** Whether an alternative may accept any string (its type admits strings, with no `const` or `enum`). */
  readonly anyString: boolean;
  /** The `const` and `enum` values of the alternatives whose type admits strings: a text among them is accepted as it is. */
  readonly strings: ReadonlySet<unknown>;
  /** The alternatives whose type says number, integer or boolean: the only ones a literal may be converted for. */
  readonly convertible: readonly Schema[];
}

/** The {@link LiteralPlan} of `alternatives`. */
export function literalPlan(alternatives: readonly Schema[]): LiteralPlan {
  let anyString = false;
  const strings = new Set<unknown>();
  const convertible: Schema[] = [];
  for (const alternative of alternatives) {
    const types = typesOf(alternative);
    if (types === undefined || types.includes("string")) {
      if ("const" in alternative) strings.add(alternative.const);
      else if (Array.isArray(alternative.enum)) for (const value of alternative.enum) strings.add(value);
      else anyString = true;
    }
    if (types !== undefined && types.some((type) => type === "number" || type === "integer" || type === "boolean")) convertible.push(alternative);
  }
  return { anyString, strings, convertible };
}

/**
 * The number or boolean `text` stands for, given the plan of the alternatives a value at its
 * pointer may match: converted only when no alternative may accept the text as a string and
 * exactly one value results from the alternatives that say a number or boolean type (and whose
 * `const` or `enum` would hold it).
 */
export function repairLiteral(plan: LiteralPlan, text: string): unknown {
  if (plan.anyString || plan.strings.has(text)) return NOT_CONVERTED;
  const results: unknown[] = [];
  for (const alternative of plan.convertible) {
    const converted = convert(alternative, text);
    if (converted !== NOT_CONVERTED && !results.some((result) => Object.is(result, converted))) results.push(converted);
  }
  return results.length === 1 ? results[0] : NOT_CONVERTED;
}

/** The number or boolean `text` stands for under `schema`, if the schema says that type and would hold it. */
function convert(schema: Schema, text: string): unknown {
  const types = typesOf(schema) ?? [];
  let converted: unknown = NOT_CONVERTED;
  if (types.includes("boolean") && (text === "true" || text === "false")) converted = text === "true";
  if (NUMBER_TEXT.test(text) && (types.includes("number") || types.includes("integer"))) {
    const number = Number(text);
    // An integer beyond 2^53 (`"9007199254740993"`, or spelt `"9007199254740993.0"` or with an
    // exponent) is not the number written: most likely an id, whose digits a number would lose.
    const exact = Number.isFinite(number) && (!Number.isInteger(number) || Number.isSafeInteger(number));
    if (exact && (types.includes("number") || Number.isInteger(number))) converted = number;
  }
  if (converted === NOT_CONVERTED) return NOT_CONVERTED;
  if ("const" in schema && !Object.is(schema.const, converted)) return NOT_CONVERTED;
  if (Array.isArray(schema.enum) && !schema.enum.includes(converted)) return NOT_CONVERTED;
  return converted;
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return undefined;
}
