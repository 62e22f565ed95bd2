/** A non-null object that is not an array. Never throws: a revoked proxy (which `Array.isArray` throws on) is not one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    return !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * A plain object: prototype `Object.prototype` or `null`. Never throws: a
 * revoked proxy or a throwing `getPrototypeOf` trap is simply not one.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** Sets `key` as an own data property, so that a `__proto__` key stays a key and never becomes a prototype. */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
