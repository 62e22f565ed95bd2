/**
 * The replay's oracle: BFCL's dialect read into JSON Schema by code written apart from the
 * library's loader (`src/bfcl/`), from the dialect's documentation, for an independent validator
 * (Ajv) to judge the answers by. Python's types: `dict` is `object`, `float` is `number` (which
 * takes integers, as Python's float parameters do), `tuple` is `array`, `any` is anything; an
 * optional parameter whose default is `None` accepts `null`; an `enum` on an array lists its
 * items' values.
 */

const PYTHON_TYPES: Readonly<Record<string, string | undefined>> = { dict: "object", float: "number", tuple: "array", any: undefined };

/**
 * The JSON Schema of a BFCL `parameters` object as the dialect means it.
 * @param defaultNull `"strict"` reads `default: null` as JSON Schema does (an annotation)
 */
export function referenceSchema(parameters: unknown, defaultNull: "nullable" | "strict" = "nullable"): Record<string, unknown> {
  return read(parameters, defaultNull === "nullable");
}

function read(node: unknown, nullableDefaults: boolean): Record<string, unknown> {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return {};
  const source = node as Record<string, unknown>;
  const schema: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (key === "type") {
      const types = (Array.isArray(value) ? value : [value]).map((type) => (typeof type === "string" && type in PYTHON_TYPES ? PYTHON_TYPES[type] : type));
      if (!types.includes(undefined)) Object.defineProperty(schema, "type", { value: types.length === 1 ? types[0] : types, enumerable: true, writable: true, configurable: true });
    } else if (key === "properties" && typeof value === "object" && value !== null) {
      const required = Array.isArray(source.required) ? source.required : [];
      const properties: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        const raw = (value as Record<string, unknown>)[name];
        let property = read(raw, nullableDefaults);
        const defaultsToNone = typeof raw === "object" && raw !== null && (raw as Record<string, unknown>).default === null && "default" in raw;
        if (nullableDefaults && defaultsToNone && !required.includes(name)) property = { anyOf: [property, { type: "null" }] };
        Object.defineProperty(properties, name, { value: property, enumerable: true, writable: true, configurable: true });
      }
      schema.properties = properties;
    } else if (key === "items" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      schema.items = read(value, nullableDefaults);
    } else {
      Object.defineProperty(schema, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  // An enum written on an array lists what its items may be.
  if (schema.type === "array" && Array.isArray(schema.enum) && !schema.enum.every(Array.isArray)) {
    const items = (schema.items ?? {}) as Record<string, unknown>;
    if (!("enum" in items)) {
      schema.items = { allOf: [items, { enum: schema.enum }] };
      delete schema.enum;
    }
  }
  return schema;
}
