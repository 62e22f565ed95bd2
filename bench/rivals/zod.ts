import type { Subject } from "./subject.js";

/** Zod's `parse` on the Zod schema, then the handler. It takes objects. */
export const zod: Subject = {
  id: "zod",
  label: "zod parse",
  packageName: "zod",
  calls: "handler(zodSchema.parse(args))",
  connect: async (schemas, handler) => ({ object: async (args) => handler(schemas.zod.parse(args)) }),
};
