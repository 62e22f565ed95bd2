import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { ToolDefinitionError, ToolRegistry, Type, type TSchema } from "../src/index.js";
import { openAIChat, openAIResponses, ProviderSchemaError } from "../src/providers/index.js";
import { thrownBy } from "./support/fixtures.js";

function registryWith(parameters: TSchema, name = "tool"): ToolRegistry {
  return new ToolRegistry().register({ name, description: "", parameters }, () => "ok");
}

function strictParameters(parameters: TSchema): Record<string, unknown> {
  return openAIChat(registryWith(parameters), { strict: true }).tools()[0]!.function.parameters;
}

function strictError(parameters: TSchema): ProviderSchemaError {
  const error = thrownBy(() => openAIChat(registryWith(parameters, "search"), { strict: true }).tools());
  expect(error).toBeInstanceOf(ProviderSchemaError);
  return error as ProviderSchemaError;
}

const nested = Type.Object({
  query: Type.String({ description: "What to look for" }),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 10 })),
  mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("deep")])),
  filter: Type.Optional(Type.Object({ tag: Type.String(), since: Type.Optional(Type.String({ format: "date" })) })),
  sort: Type.Array(Type.Object({ field: Type.String(), descending: Type.Optional(Type.Boolean()) })),
  cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

describe("OpenAI strict mode", () => {
  it("requires every property and forbids additional properties on every object, nested ones too", () => {
    const schema = strictParameters(nested);
    expect(schema).toMatchObject({ required: ["query", "limit", "mode", "filter", "sort", "cursor"], additionalProperties: false });
    expect(schema).toMatchObject({
      properties: {
        filter: { anyOf: [{ type: "object", required: ["tag", "since"], additionalProperties: false }, { type: "null" }] },
        sort: { type: "array", items: { type: "object", required: ["field", "descending"], additionalProperties: false } },
      },
    });
  });

  it("makes optional properties nullable: a type list for primitives, anyOf for the rest, nothing for what accepts null already", () => {
    const properties = strictParameters(nested).properties as Record<string, unknown>;
    expect(properties.query).toEqual({ type: "string", description: "What to look for" });
    expect(properties.limit).toEqual({ type: ["integer", "null"], minimum: 1 });
    expect(properties.mode).toEqual({ anyOf: [{ anyOf: [{ type: "string", const: "fast" }, { type: "string", const: "deep" }] }, { type: "null" }] });
    expect(properties.cursor).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
  });

  it("drops annotations strict mode refuses (default, examples) without changing what is valid", () => {
    const schema = strictParameters(Type.Object({ n: Type.Integer({ default: 1, examples: [1, 2] }) }));
    expect(schema.properties).toEqual({ n: { type: "integer" } });
  });

  it("accepts exactly the original's valid arguments once omitted optional properties are sent as null (Ajv as oracle)", () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    const original = ajv.compile(JSON.parse(JSON.stringify(nested)));
    const strict = ajv.compile(strictParameters(nested));
    const valid = { query: "q", sort: [{ field: "date" }] };
    const asStrict = { query: "q", limit: null, mode: null, filter: null, sort: [{ field: "date", descending: null }], cursor: null };
    expect(original(valid)).toBe(true);
    expect(strict(asStrict)).toBe(true);
    expect(strict(valid)).toBe(false); // strict mode: every property present
    expect(strict({ ...asStrict, extra: 1 })).toBe(false);
    expect(strict({ ...asStrict, limit: 0 })).toBe(false);
  });

  it("turns the nulls back into omissions for the registry's schema in a strict adapter's call()", async () => {
    const registry = registryWith(nested, "search");
    const args = '{"query":"q","limit":null,"mode":null,"filter":{"tag":"t","since":null},"sort":[{"field":"date","descending":null}],"cursor":null}';
    const chat = openAIChat(registry, { strict: true }).call({ id: "c", type: "function", function: { name: "search", arguments: args } });
    const responses = openAIResponses(registry, { strict: true }).call({ type: "function_call", call_id: "c", name: "search", arguments: args });
    const expected = { query: "q", filter: { tag: "t" }, sort: [{ field: "date" }], cursor: null };
    expect(chat.arguments).toEqual(expected);
    expect(responses.arguments).toEqual(expected);
    await expect(registry.dispatch(chat)).resolves.toBe("ok");
  });

  it("keeps a null sent for a required property, so dispatch reports it", async () => {
    const registry = registryWith(nested, "search");
    const call = openAIChat(registry, { strict: true }).call({ id: "c", type: "function", function: { name: "search", arguments: '{"query":null,"sort":[]}' } });
    expect(call.arguments).toEqual({ query: null, sort: [] });
    await expect(registry.dispatch(call)).rejects.toMatchObject({ issues: ["/query: must be string"] });
  });

  it("follows references to drop nulls: a JSON Pointer, and a bare name as TypeBox writes it", () => {
    const filter = Type.Object({ tag: Type.String(), since: Type.Optional(Type.String()) });
    const cursor = Type.Union([Type.String(), Type.Null()]);
    for (const ref of ["#/$defs/Filter", "Filter"]) {
      const parameters = Type.Object(
        { filter: Type.Optional(Type.Ref(ref)), cursor: Type.Optional(Type.Ref(ref === "Filter" ? "Cursor" : "#/$defs/Cursor")) },
        // A bare name resolves by `$id`, as TypeBox's own check resolves it.
        { $defs: ref === "Filter" ? { Filter: { ...filter, $id: "Filter" }, Cursor: { ...cursor, $id: "Cursor" } } : { Filter: filter, Cursor: cursor } },
      );
      const chat = openAIChat(registryWith(parameters, "search"), { strict: true });
      const read = (args: string) => chat.call({ id: "c", type: "function", function: { name: "search", arguments: args } }).arguments;
      expect(read('{"filter":{"tag":"t","since":null}}')).toEqual({ filter: { tag: "t" } });
      expect(read('{"filter":null}')).toEqual({});
      // The cursor's own schema accepts null, through its reference: that null is the model's answer, kept.
      expect(read('{"cursor":null}')).toEqual({ cursor: null });
    }
  });

  it("drops every annotation strict mode refuses, as the shared table of annotations lists them", () => {
    const annotated = Type.String({ $comment: "c", deprecated: true, readOnly: true, contentMediaType: "text/plain", title: "kept", description: "kept" });
    expect(strictParameters(Type.Object({ s: annotated })).properties).toEqual({ s: { type: "string", title: "kept", description: "kept" } });
  });

  it("writes a control character in a property name escaped in the pointer, so the message stays one line", () => {
    const error = strictError(Type.Object({ "a\nb": Type.String({ minLength: 1 }) }));
    expect(error.pointer).toBe("/properties/a\\u000ab/minLength");
    expect(error.message).not.toContain("\n");
  });

  it("reports each construct strict mode cannot express with the tool and its JSON Pointer", () => {
    const cases: Array<[TSchema, string]> = [
      [Type.Object({ name: Type.String({ minLength: 1 }) }), "/properties/name/minLength"],
      [Type.Object({ a: Type.String() }, { additionalProperties: true }), "/additionalProperties"],
      [Type.Object({ tags: Type.Record(Type.String(), Type.Number()) }), "/properties/tags/patternProperties"],
      [Type.Object({ pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } }), "/properties/pair/prefixItems"],
      [Type.Object({ url: Type.String({ format: "uri" }) }), "/properties/url/format"],
      [Type.Object({ value: Type.Any() }), "/properties/value"],
      [Type.Object({ "a/b": Type.Array(Type.String(), { uniqueItems: true }) }), "/properties/a~1b/uniqueItems"],
      [Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]), "/anyOf"],
    ];
    for (const [schema, pointer] of cases) {
      const error = strictError(schema);
      expect(error.toolName).toBe("search");
      expect(error.pointer).toBe(pointer);
      expect(error.message).toContain('Tool "search"');
      expect(error.message).toContain(pointer);
    }
  });

  it("applies to the Responses API too", () => {
    expect(thrownBy(() => openAIResponses(registryWith(Type.Object({ s: Type.String({ maxLength: 3 }) })), { strict: true }).tools())).toBeInstanceOf(ProviderSchemaError);
  });
});

describe("schemas that cannot be sent in any mode", () => {
  it("never sees a root that is not an object schema: register refuses it first", () => {
    expect(thrownBy(() => registryWith(Type.String()))).toBeInstanceOf(ToolDefinitionError);
  });

  it("refuses a schema that is not plain JSON, naming the root", () => {
    const unserializable = { type: "object", toJSON: () => { throw new Error("secret"); } } as TSchema;
    const error = thrownBy(() => openAIChat(registryWith(unserializable)).tools());
    expect(error).toBeInstanceOf(ProviderSchemaError);
    expect((error as ProviderSchemaError).pointer).toBe("/");
    expect((error as Error).message).not.toContain("secret");
  });

  it("adds type object to a root that has none", () => {
    expect(openAIChat(registryWith({ properties: { a: { type: "string" } } })).tools()[0]?.function.parameters).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });
});
