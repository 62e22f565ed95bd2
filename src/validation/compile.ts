import { Compile, type Validator } from "typebox/compile";
import { findCompileProblems } from "../schema/compile-problems.js";
import { transformSchema, UnsafeSchemaError } from "./transform.js";

/**
 * Compiles a tool's schema into a TypeBox validator that is safe on every input: the validator
 * of the schema's private transformed copy (see `transformSchema`), after the same checks
 * `register` makes (see `findCompileProblems`), so that a schema registered without them fails
 * here with a message rather than deep inside TypeBox or on its first hostile input.
 * `Check`, `Errors` and `IsAccelerated` are TypeBox's own.
 * @param found whether the schema was already found sound (`assertSoundSchema`), its compile problems included
 * @throws UnsafeSchemaError naming each problem's location
 */
export function compileSchema(schema: object, found = false): Validator {
  const problems = found ? [] : findCompileProblems(schema);
  if (problems.length > 0) throw new UnsafeSchemaError(problems);
  return Compile(transformSchema(schema) as never) as Validator;
}
