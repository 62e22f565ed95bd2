import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import {
  ToolArgumentsValidationError,
  ToolRegistry,
  Type,
  toolContent,
  validateToolArguments,
  parseToolArguments,
  type ApprovalRequest,
  type ArgumentRepair,
  type FailureStats,
  type JsonTypeName,
  type ReuseKind,
  type Static,
  type ToolDefinition,
  type ToolContext,
} from "../src/index.js";

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

  it("refuses a schema object of another library as parameters, and accepts its JSON Schema", () => {
    const weather = z.object({ city: z.string() });
    // @ts-expect-error a Zod 4 schema is not JSON Schema: pass z.toJSONSchema(weather)
    new ToolRegistry().register({ name: "zod4", description: "", parameters: weather }, () => 1);
    // @ts-expect-error a Zod 3 schema is not JSON Schema either
    new ToolRegistry().register({ name: "zod3", description: "", parameters: z3.object({ city: z3.string() }) }, () => 1);
    const valibotLike = { kind: "schema", type: "object", "~standard": { version: 1, vendor: "valibot" }, "~run": (input: unknown) => input } as const;
    // @ts-expect-error a Valibot schema (it has ~run) is not JSON Schema
    new ToolRegistry().register({ name: "valibot", description: "", parameters: valibotLike }, () => 1);
    const arkTypeLike = Object.assign((input: unknown) => input, { "~standard": { version: 1, vendor: "arktype" } as const });
    // @ts-expect-error an ArkType type (callable, with ~standard) is not JSON Schema
    new ToolRegistry().register({ name: "arktype", description: "", parameters: arkTypeLike }, () => 1);
    new ToolRegistry().register({ name: "json", description: "", parameters: z.toJSONSchema(weather) }, () => 1);
    new ToolRegistry().register({ name: "typebox", description: "", parameters }, (args) => expectTypeOf(args.path).toEqualTypeOf<string>());
  });
});

describe("governed execution types", () => {
  const output = Type.Object({ celsius: Type.Number() });

  it("types the handler's return value from outputSchema, rich results and promises included", () => {
    const registry = new ToolRegistry();
    registry.register({ name: "w", description: "", parameters, outputSchema: output }, () => ({ celsius: 1 }));
    registry.register({ name: "w2", description: "", parameters, outputSchema: output }, async () => ({ celsius: 1 }));
    registry.register({ name: "w3", description: "", parameters, outputSchema: output }, () => toolContent([], { structuredContent: { celsius: 1 } }));
    // @ts-expect-error a result that does not match outputSchema
    registry.register({ name: "w4", description: "", parameters, outputSchema: output }, () => ({ celsius: "warm" }));
  });

  it("leaves the return value free without an outputSchema", () => {
    new ToolRegistry().register({ name: "free", description: "", parameters }, () => Symbol("anything"));
  });

  it("types needsApproval's arguments from the schema", () => {
    new ToolRegistry({ approvalSecret: "x".repeat(32) }).register({ name: "read", description: "", parameters }, () => 1, {
      needsApproval: (args, context) => {
        expectTypeOf(args.path).toEqualTypeOf<string>();
        expectTypeOf(context.toolCallId).toEqualTypeOf<string>();
        return args.mode === "binary";
      },
      effects: "once",
    });
  });

  it("narrows results by status", async () => {
    const [result] = await new ToolRegistry().dispatchAll([]);
    if (result?.status === "approval-required") expectTypeOf(result.request).toEqualTypeOf<ApprovalRequest>();
    if (result?.status === "ok") expectTypeOf(result.reused).toEqualTypeOf<ReuseKind | undefined>();
  });

  it("reads a result by isError alone, as code written before approvals did: the value of any result that is not an error", async () => {
    const [result] = await new ToolRegistry().dispatchAll([]);
    if (result === undefined) return;
    const answer = result.isError ? result.content : result.value;
    expectTypeOf(answer).toEqualTypeOf<unknown>();
    if (result.status === "denied") expectTypeOf(result.value).toEqualTypeOf<undefined>();
  });
});

describe("repair reports and failure figures", () => {
  it("names JSON types in a repair, and omitted as what a null became", () => {
    expectTypeOf<ArgumentRepair["from"]>().toEqualTypeOf<JsonTypeName>();
    expectTypeOf<ArgumentRepair["to"]>().toEqualTypeOf<JsonTypeName | "omitted">();
    // @ts-expect-error "undefined" is not a JSON type
    const wrong: ArgumentRepair = { pointer: "/a", from: "undefined", to: "omitted" };
    void wrong;
  });

  it("gives failureStats its two figures, and repeats on the validation error", () => {
    expectTypeOf(new ToolRegistry().failureStats()).toEqualTypeOf<FailureStats>();
    expectTypeOf<ToolArgumentsValidationError["repeats"]>().toEqualTypeOf<number>();
  });
});
