/**
 * What modules written by `precompileValidators` import, as
 * `typebox-tool-registry/precompiled`: the parts of TypeBox that generated
 * checks call. Re-exported here so that generated code depends on this
 * package alone; under pnpm (no hoisting) an application cannot import
 * `typebox` itself unless it depends on it. Not meant for hand-written code.
 * @module
 */
export { Guard } from "typebox/guard";
export { Hashing } from "typebox/system";
export { CheckContext } from "typebox/schema";
export type { PrecompiledValidators, PrecompiledValidator } from "../validation/precompiled.js";
