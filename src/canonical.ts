/**
 * The canonical JSON text of a schema: object keys sorted, no white space.
 * Two schemas with the same text validate the same way, so the text can key
 * a shared validator. Returns `undefined` for a schema that is not plain JSON
 * (functions, cycles, non-finite numbers), which must then be keyed by identity.
 */
export function canonicalJson(schema: unknown): string | undefined {
  try {
    return write(schema, 0);
  } catch {
    return undefined;
  }
}

const MAX_DEPTH = 512;

function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new RangeError("schema nested too deeply");
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => write(item, depth + 1)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      parts.push(`${JSON.stringify(key)}:${write(item, depth + 1)}`);
    }
    return `{${parts.join(",")}}`;
  }
  throw new TypeError(`a schema cannot hold a ${typeof value}`);
}
