import { Ajv } from "ajv";
import type { Subject } from "./subject.js";

/** Ajv's compiled `validate` on the JSON Schema, no copy, then the handler. It takes objects. */
export const ajv: Subject = {
  id: "ajv",
  label: "Ajv validate (no copy)",
  packageName: "ajv",
  calls: "new Ajv({ strict: false }).compile(schema); validate(args) then handler(args)",
  connect: async (schemas, handler) => {
    const instance = new Ajv({ strict: false });
    const validate = instance.compile(schemas.typebox);
    return {
      object: async (args) => {
        if (!validate(args)) throw new AjvValidationError(instance.errorsText(validate.errors));
        return handler(args);
      },
    };
  },
};

/** What a user of Ajv throws with `errorsText`: the errors as Ajv words them. */
export class AjvValidationError extends Error {
  override readonly name = "AjvValidationError";
}
