/**
 * BFCL's ground-truth answers, read by their conventions: each parameter lists every accepted
 * value; `""` among them means the parameter may be left out; a `dict` parameter's accepted
 * value is again a map of option lists (so is each `dict` item of an array); an empty list
 * accepts nothing.
 */

/** A parameter's option lists, as a ground-truth call holds them. */
export type OptionMap = Record<string, unknown>;

/** One concrete set of arguments an answer accepts, with where it differs from the first-listed one. */
export interface AnswerVariant {
  readonly args: Record<string, unknown>;
  /** `""` for the first-listed answer; else the path of the option that replaced the first one (`/unit`, `/stay/nights`). */
  readonly varies: string;
}

/** What the reading of one call found wrong with the answer itself, before any schema is asked. */
export interface AnswerDefects {
  /** Parameters whose option list is empty: no value is accepted, and none is sent. */
  readonly emptyOptionLists: string[];
}

/** Marks a parameter left out (`""` among its options). */
const OMITTED: unique symbol = Symbol("omitted");
type Concrete = unknown | typeof OMITTED;

/**
 * Every concrete set of arguments that together uses each listed option at least once: the
 * first-listed answer (each parameter's first option, nested maps read the same way), then one
 * variant per other option of each parameter, at any depth, with everything else first-listed.
 * @param parameters the function's BFCL `parameters` (its `properties` say which parameters are `dict`s)
 */
export function answerVariants(params: OptionMap, parameters: unknown): { variants: AnswerVariant[]; defects: AnswerDefects } {
  const defects: AnswerDefects = { emptyOptionLists: [] };
  const variants = mapVariants(params, parameters, "", defects).map(({ value, varies }) => ({ args: value as Record<string, unknown>, varies }));
  return { variants, defects };
}

interface Choice {
  readonly value: Concrete;
  readonly varies: string;
}

/** The concrete values of an option map: the first-listed object, then one per other choice. */
function mapVariants(map: OptionMap, schema: unknown, path: string, defects: AnswerDefects): Choice[] {
  const properties = propertiesOf(schema);
  const choices = Object.entries(map).map(([name, options]): [string, Choice[]] => {
    const list = Array.isArray(options) ? options : [options];
    if (list.length === 0) defects.emptyOptionLists.push(`${path}/${name}`);
    return [name, list.flatMap((option) => optionValues(option, properties[name], `${path}/${name}`, defects))];
  });
  const first = (): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (const [name, list] of choices) if (list.length > 0 && list[0]!.value !== OMITTED) object[name] = list[0]!.value;
    return object;
  };
  const result: Choice[] = [{ value: first(), varies: "" }];
  for (const [name, list] of choices) {
    for (const choice of list.slice(1)) {
      const object = first();
      if (choice.value === OMITTED) delete object[name];
      else object[name] = choice.value;
      result.push({ value: object, varies: choice.varies });
    }
  }
  return result;
}

/** The concrete values one listed option stands for (more than one when it holds nested option lists). */
function optionValues(option: unknown, schema: unknown, path: string, defects: AnswerDefects): Choice[] {
  if (option === "") return [{ value: OMITTED, varies: path }];
  if (isDict(schema) && isOptionMap(option)) return mapVariants(option, schema, path, defects).map((choice, index) => ({ value: choice.value, varies: index === 0 ? path : choice.varies }));
  const items = isRecord(schema) ? schema.items : undefined;
  if (Array.isArray(option) && isDict(items) && option.length > 0 && option.every(isOptionMap)) {
    // An array of dicts: each item is again a map of option lists.
    const perItem = option.map((item, index) => mapVariants(item as OptionMap, items, `${path}/${index}`, defects));
    const firsts = perItem.map((list) => list[0]!.value);
    const result: Choice[] = [{ value: firsts, varies: path }];
    perItem.forEach((list, index) => {
      for (const choice of list.slice(1)) result.push({ value: firsts.map((value, at) => (at === index ? choice.value : value)), varies: choice.varies });
    });
    return result;
  }
  return [{ value: option, varies: path }];
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
}

function isDict(schema: unknown): boolean {
  return isRecord(schema) && (schema.type === "dict" || (Array.isArray(schema.type) && schema.type.includes("dict")));
}

/** An answer object whose every value is an option list (an empty object counts). */
function isOptionMap(value: unknown): value is OptionMap {
  return isRecord(value) && Object.values(value).every(Array.isArray);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
