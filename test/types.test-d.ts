import { describe, expectTypeOf, it } from "vitest";
import { ToolRegistry, Type, validateToolArguments, parseToolArguments, type Static, type ToolDefinition, type ToolContext } from "../src/index.js";

// These tests run in the type checker (`tsc` in `npm test`); a wrong inference fails the build.
const parameters = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Integer()),
  mode: Type.Union([Type.Literal("text"), Type.Literal("binary")]),
});

describe("types", () => {
  it("infers handler arguments from an inline definition's schema", () => {
    new ToolRegistry().register({ name: "read", description: "", parameters }, (args, context) => {
      expectTypeOf(args).toEqualTypeOf<{ path: string; offset?: number; mode: "text" | "binary" }>();
      expectTypeOf(context).toEqualTypeOf<ToolContext>();
      expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
    });
  });

  it("infers handler arguments from a definition written with satisfies", () => {
    const read = { name: "read", description: "Read a file", parameters } satisfies ToolDefinition<typeof parameters>;
    new ToolRegistry().register(read, (args) => {
      expectTypeOf(args).toEqualTypeOf<Static<typeof parameters>>();
      expectTypeOf(args.path).toEqualTypeOf<string>();
    });
  });

  it("fails to compile a handler whose argument type does not match the schema", () => {
    const read = { name: "read", description: "", parameters } satisfies ToolDefinition<typeof parameters>;
    // @ts-expect-error path is a string in the schema, not a number
    new ToolRegistry().register(read, (args: { path: number }) => args.path);
    // @ts-expect-error the schema has no property "missing"
    new ToolRegistry().register(read, (args) => args.missing);
  });

  it("types validateToolArguments and parseToolArguments from the schema", () => {
    const read = { name: "read", description: "", parameters };
    expectTypeOf(() => validateToolArguments(read, {})).returns.toEqualTypeOf<Static<typeof parameters>>();
    expectTypeOf(() => parseToolArguments(read, "{}")).returns.toEqualTypeOf<Static<typeof parameters>>();
  });
});
