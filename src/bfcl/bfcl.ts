import { defineOwn, isRecord } from "../objects.js";
import { oneOf } from "../options.js";
import { MAX_SCHEMA_DEPTH, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "../schema/keywords.js";
import type { ToolDefinition } from "../types.js";

/**
 * A function definition in the Berkeley Function Calling Leaderboard (BFCL)
 * dialect: JSON-Schema-like parameters written for Python tooling.
 */
export interface BfclFunction {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** Options of {@link fromBfclFunction}. */
export interface BfclOptions {
  /**
   * How `default: null` (Python's `None`) on an optional parameter reads:
   * - `"nullable"`: the parameter accepts `null` as well (its `type` gains `"null"`, its `enum`
   *   gains `null`), as the Python function it describes does;
   * - `"strict"`: as JSON Schema reads it, an annotation only: `null` is refused unless the type allows it.
   * @default "nullable"
   */
  defaultNull?: "nullable" | "strict" | undefined;
}

/** BFCL's Python type names that JSON Schema spells differently; `any` means no type constraint. */
const BFCL_TYPES: Readonly<Record<string, string>> = { dict: "object", float: "number", tuple: "array" };

/**
 * A tool definition from a BFCL function: the name and description as they
 * are, and the parameters mapped to JSON Schema (`dict` to `object`, `float`
 * to `number`, `tuple` to `array`, `any` to no type constraint), recursively
 * through `properties`, `items` and the other subschema keywords. Two habits
 * of the dialect are read as the Python functions mean them:
 * - an `enum` written on an array (`type: "array", enum: ["a", "b"]`) lists
 *   the values of its items: it moves to `items` (unless its values are
 *   arrays, or `items` has an `enum` of its own);
 * - `default: null` on an optional parameter (one its object does not
 *   require) means it accepts `null`: its `type` gains `"null"` (and its
 *   `enum`, if any, `null`). `options.defaultNull: "strict"` keeps JSON
 *   Schema's reading, where `default` constrains nothing.
 *
 * Every other keyword (`description`, `enum`, `default`, `required`…) is kept
 * as is. The input is not modified. The name is kept even where a provider
 * would refuse it (`uber.ride`): a provider adapter made with `names: "map"`
 * maps such names.
 * @throws TypeError when `fn` is not an object with a string `name`, or `options.defaultNull` is neither reading
 * @example
 * ```ts
 * for (const entry of parseJsonLines(await readFile("BFCL_v4_simple_python.json", "utf8"))) {
 *   for (const fn of (entry as { function: BfclFunction[] }).function) registry.register(fromBfclFunction(fn), handler);
 * }
 * ```
 */
export function fromBfclFunction(fn: BfclFunction, options: BfclOptions = {}): ToolDefinition<Record<string, unknown>> {
  if (typeof fn !== "object" || fn === null || typeof fn.name !== "string") throw new TypeError("a BFCL function must be an object with a string name");
  const defaultNull = oneOf("defaultNull", options?.defaultNull ?? "nullable", ["nullable", "strict"]);
  const parameters = fn.parameters === undefined ? { type: "object", properties: {} } : fromBfclSchema(fn.parameters, 0, defaultNull === "nullable");
  return { name: fn.name, description: typeof fn.description === "string" ? fn.description : "", parameters };
}

/** One BFCL schema as JSON Schema (a new object; the input is not modified). */
function fromBfclSchema(schema: unknown, depth: number, nullableDefaults: boolean): Record<string, unknown> {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  // Deeper than any schema the registry registers: left as written, for `register` to refuse.
  if (depth > MAX_SCHEMA_DEPTH) return schema as Record<string, unknown>;
  const required = Array.isArray((schema as Record<string, unknown>).required) ? ((schema as Record<string, unknown>).required as unknown[]) : [];
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === "type") {
      const type = mapType(value);
      if (type !== undefined) result.type = type;
    } else if ((SUBSCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isRecord(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, subschema] of Object.entries(value)) {
        let mapped = Array.isArray(subschema) ? subschema : fromBfclSchema(subschema, depth + 1, nullableDefaults);
        // Python's `param=None`: an optional parameter whose default is None accepts None.
        if (key === "properties" && nullableDefaults && !required.includes(name) && isRecord(subschema) && Object.hasOwn(subschema, "default") && subschema.default === null) {
          mapped = nullable(mapped as Record<string, unknown>);
        }
        defineOwn(map, name, mapped);
      }
      result[key] = map;
    } else if ((SUBSCHEMA_KEYWORDS as readonly string[]).includes(key) && isRecord(value)) {
      result[key] = fromBfclSchema(value, depth + 1, nullableDefaults);
    } else if ((SUBSCHEMA_LIST_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      result[key] = value.map((item) => fromBfclSchema(item, depth + 1, nullableDefaults));
    } else {
      defineOwn(result, key, value);
    }
  }
  return enumOfItems(result);
}

/**
 * An array schema whose `enum` lists item values (`type: "array", enum: ["a", "b"]`, which no
 * array can equal) with the enum moved to its items; any other schema as it is.
 */
function enumOfItems(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type !== "array" || !Array.isArray(schema.enum) || schema.enum.every(Array.isArray)) return schema;
  if (schema.items !== undefined && !(isRecord(schema.items) && !Object.hasOwn(schema.items, "enum"))) return schema;
  const { enum: values, ...rest } = schema;
  return { ...rest, items: { ...(isRecord(schema.items) ? schema.items : {}), enum: values } };
}

/** A mapped schema that accepts `null` as well: `null` added to its `type` and its `enum`. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const result = { ...schema };
  if (typeof schema.type === "string" && schema.type !== "null") result.type = [schema.type, "null"];
  else if (Array.isArray(schema.type) && !schema.type.includes("null")) result.type = [...schema.type, "null"];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
  if (Object.hasOwn(schema, "const") && schema.const !== null) return { anyOf: [schema, { type: "null" }] };
  return result;
}

/** The JSON Schema type for a BFCL type (or list of types); `undefined` for no constraint. */
function mapType(type: unknown): unknown {
  if (typeof type === "string") return type === "any" ? undefined : (BFCL_TYPES[type] ?? type);
  if (Array.isArray(type)) {
    if (type.includes("any")) return undefined;
    return type.map((item) => (typeof item === "string" ? (BFCL_TYPES[item] ?? item) : item));
  }
  return type;
}

/**
 * The values of JSON Lines text: one JSON value per non-blank line. A missing
 * trailing newline (as in the BFCL files) and `\r\n` line ends are fine.
 * @throws SyntaxError naming the (1-based) line that is not valid JSON
 */
export function parseJsonLines(text: string): unknown[] {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      throw new SyntaxError(`line ${index + 1} is not valid JSON`, { cause: error });
    }
  }
  return values;
}
