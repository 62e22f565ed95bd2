/**
 * A test for a value's type, as TypeBox reads type names: JSON Schema's (`number` is a finite
 * number, `integer` an integral one, `object` a non-array object), and TypeBox's extended ones.
 */
export function typeTest(types: readonly unknown[]): (value: unknown) => boolean {
  const tests = types.map(singleTypeTest);
  return tests.length === 1 ? tests[0]! : (value) => tests.some((test) => test(value));
}

function singleTypeTest(type: unknown): (value: unknown) => boolean {
  switch (type) {
    case "object":
      return (value) => typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray;
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return Number.isFinite as (value: unknown) => boolean;
    case "integer":
      return Number.isInteger as (value: unknown) => boolean;
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "bigint":
      return (value) => typeof value === "bigint";
    case "symbol":
      return (value) => typeof value === "symbol";
    case "function":
    case "constructor":
      return (value) => typeof value === "function";
    case "undefined":
    case "void":
      return (value) => value === undefined;
    default:
      // As TypeBox reads it: a type name it does not know constrains nothing.
      return () => true;
  }
}

