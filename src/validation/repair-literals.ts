/**
 * Rule 1 of repair: a string that spells a JSON number or boolean where the schema says `number`,
 * `integer` or `boolean`. Exact literals only: no whitespace, no `"yes"`, no `"1"` for a boolean.
 */

type Schema = Readonly<Record<string, unknown>>;

/** What {@link repairLiteral} returns when nothing is converted. */
export const NOT_CONVERTED: unique symbol = Symbol("not converted");

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * The number or boolean `text` stands for, given the alternatives a value at its pointer may match
 * (a union's branches, flattened): converted only when no alternative may accept the text as a
 * string and exactly one value results from the alternatives that say a number or boolean type
 * (and whose `const` or `enum` would hold it).
 */
export function repairLiteral(alternatives: readonly Schema[], text: string): unknown {
  if (alternatives.some((alternative) => acceptsAsString(alternative, text))) return NOT_CONVERTED;
  const results: unknown[] = [];
  for (const alternative of alternatives) {
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
  const numeric = NUMBER_TEXT.exec(text);
  if (numeric !== null && (types.includes("number") || types.includes("integer"))) {
    const number = Number(text);
    const written = numeric[1] === undefined && numeric[2] === undefined;
    const exact = Number.isFinite(number) && (!written || Number.isSafeInteger(number));
    if (exact && (types.includes("number") || Number.isInteger(number))) converted = number;
  }
  if (converted === NOT_CONVERTED) return NOT_CONVERTED;
  if ("const" in schema && !Object.is(schema.const, converted)) return NOT_CONVERTED;
  if (Array.isArray(schema.enum) && !schema.enum.includes(converted)) return NOT_CONVERTED;
  return converted;
}

/** Whether `schema` may accept `text` as the string it is (type, const and enum only: conservative). */
function acceptsAsString(schema: Schema, text: string): boolean {
  const types = typesOf(schema);
  if (types !== undefined && !types.includes("string")) return false;
  if ("const" in schema) return schema.const === text;
  if (Array.isArray(schema.enum)) return schema.enum.includes(text);
  return true;
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return undefined;
}
