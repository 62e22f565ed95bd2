// The tools of the browser test, shared by the page (through the import map) and by
// run.mjs (which generates precompiled validators for exactly these schemas).
import { Type } from "../dist/index.js";

export const read = {
  name: "read",
  description: "Read a text file, optionally from a character offset",
  parameters: Type.Object({
    path: Type.String({ pattern: "^[a-z./]+$" }),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
};

export const notify = {
  name: "notify",
  description: "Send a notification",
  parameters: Type.Object(
    {
      to: Type.String({ format: "email" }),
      level: Type.Union([Type.Literal("info"), Type.Literal("warn")]),
      tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 3 })),
    },
    { additionalProperties: false },
  ),
};

export const definitions = [read, notify];
