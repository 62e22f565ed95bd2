import { describe, expect, it } from "vitest";
import { parseToolArguments, ToolArgumentsValidationError, ToolDefinitionError, Type, validateToolArguments } from "../src/index.js";
import { readTool, thrownBy } from "./support/fixtures.js";

function issuesOf(run: () => unknown): readonly string[] {
  const error = thrownBy(run);
  expect(error).toBeInstanceOf(ToolArgumentsValidationError);
  return (error as ToolArgumentsValidationError).issues;
}

describe("validateToolArguments", () => {
  it("returns arguments that match the schema", () => {
    expect(validateToolArguments(readTool, { path: "a.txt", offset: 3 })).toEqual({ path: "a.txt", offset: 3 });
  });

  it("returns a private deep copy that later mutations of the caller's object do not reach", () => {
    const nested = Type.Object({ options: Type.Object({ tags: Type.Array(Type.String()) }) });
    const tool = { name: "tag", description: "", parameters: nested };
    const input = { options: { tags: ["a"] } };
    const result = validateToolArguments(tool, input);
    input.options.tags.push("b");
    input.options = { tags: [] };
    expect(result).toEqual({ options: { tags: ["a"] } });
    expect(result).not.toBe(input);
  });

  describe("rule 1: the root must be a plain object", () => {
    const notPlain: Array<[string, unknown]> = [
      ["null", null],
      ["an array", [{ path: "a" }]],
      ["a Date", new Date(0)],
      ["a Map", new Map([["path", "a"]])],
      ["a class instance", new (class Arguments { path = "a"; })()],
      ["a string", '{"path":"a"}'],
      ["a number", 20],
      ["undefined", undefined],
    ];
    it.each(notPlain)("refuses %s with the single root issue", (_label, value) => {
      expect(issuesOf(() => validateToolArguments(readTool, value))).toEqual(["/: arguments must be a plain object"]);
    });

    it("accepts an object with a null prototype", () => {
      const input = Object.assign(Object.create(null) as object, { path: "a" });
      expect(validateToolArguments(readTool, input)).toEqual({ path: "a" });
    });
  });

  describe("rule 2: values that cannot be copied are refused", () => {
    it.each([
      ["a function", { path: "a", extra: () => 1 }],
      ["a symbol", { path: "a", extra: Symbol("s") }],
      ["a nested function", { path: "a", extra: { deeper: [() => 1] } }],
    ])("refuses %s with the structured-clone issue", (_label, value) => {
      expect(issuesOf(() => validateToolArguments(readTool, value))).toEqual([
        "/: arguments must contain only structured-clone-compatible values",
      ]);
    });

    it("never lets a native error escape, even from a throwing getter", () => {
      const input = { path: "a" };
      Object.defineProperty(input, "offset", { enumerable: true, get: () => { throw new Error("boom"); } });
      expect(issuesOf(() => validateToolArguments(readTool, input))).toEqual([
        "/: arguments must contain only structured-clone-compatible values",
      ]);
    });
  });

  describe("rule 3: strict, with no coercion and no defaults", () => {
    it("rejects the string \"20\" where the schema says integer", () => {
      expect(issuesOf(() => validateToolArguments(readTool, { path: "a", offset: "20" }))).toEqual(["/offset: must be integer (>= 0)"]);
    });

    it("rejects \"true\" where the schema says boolean", () => {
      const tool = { name: "flag", description: "", parameters: Type.Object({ on: Type.Boolean() }) };
      expect(issuesOf(() => validateToolArguments(tool, { on: "true" }))).toEqual(["/on: must be boolean"]);
    });

    it("does not fill in defaults", () => {
      const tool = { name: "page", description: "", parameters: Type.Object({ size: Type.Optional(Type.Integer({ default: 10 })) }) };
      expect(validateToolArguments(tool, {})).toEqual({});
    });
  });

  describe("rule 4: text that is not JSON", () => {
    it.each(["", "{", "{path: 'a'}", "undefined", '{"path":"a"} trailing'])("refuses %j with the JSON issue", (text) => {
      expect(issuesOf(() => parseToolArguments(readTool, text))).toEqual(["/: arguments must be valid JSON"]);
    });

    it("refuses JSON text whose root is not an object", () => {
      expect(issuesOf(() => parseToolArguments(readTool, '["a"]'))).toEqual(["/: arguments must be a plain object"]);
      expect(issuesOf(() => parseToolArguments(readTool, "null"))).toEqual(["/: arguments must be a plain object"]);
    });

    it("parses and checks valid JSON text", () => {
      expect(parseToolArguments(readTool, '{"path":"a","offset":1}')).toEqual({ path: "a", offset: 1 });
    });

    it("checks parsed text as strictly as objects", () => {
      expect(issuesOf(() => parseToolArguments(readTool, '{"path":"a","offset":"20"}'))).toEqual(["/offset: must be integer (>= 0)"]);
    });
  });

  describe("rule 5: issues are JSON Pointers with messages", () => {
    it("reports a missing required property at its own pointer", () => {
      expect(issuesOf(() => validateToolArguments(readTool, {}))).toEqual(["/path: must have required properties path"]);
    });

    it("reports one issue per missing property", () => {
      const tool = { name: "move", description: "", parameters: Type.Object({ from: Type.String(), to: Type.String() }) };
      expect(issuesOf(() => validateToolArguments(tool, {}))).toEqual([
        "/from: must have required properties from",
        "/to: must have required properties to",
      ]);
    });

    it("reports missing properties of nested objects at their full pointer", () => {
      const tool = { name: "nested", description: "", parameters: Type.Object({ options: Type.Object({ mode: Type.String() }) }) };
      expect(issuesOf(() => validateToolArguments(tool, { options: {} }))).toEqual(["/options/mode: must have required properties mode"]);
    });

    it("escapes ~ as ~0 and / as ~1 in pointer segments", () => {
      const tool = { name: "odd", description: "", parameters: Type.Object({ "a/b~c": Type.Number() }) };
      expect(issuesOf(() => validateToolArguments(tool, { "a/b~c": "x" }))).toEqual(["/a~1b~0c: must be number"]);
      expect(issuesOf(() => validateToolArguments(tool, {}))).toEqual(["/a~1b~0c: must have required properties a/b~c"]);
    });

    it("points into arrays by index", () => {
      const tool = { name: "tags", description: "", parameters: Type.Object({ tags: Type.Array(Type.String()) }) };
      expect(issuesOf(() => validateToolArguments(tool, { tags: ["a", 2] }))).toEqual(["/tags/1: must be string"]);
    });
  });

  describe("rule 6: the message", () => {
    it("is the header line followed by one indented line per issue", () => {
      const error = thrownBy(() => validateToolArguments(readTool, { offset: -1 })) as ToolArgumentsValidationError;
      expect(error.message).toBe('Invalid arguments for tool "read":\n  - /path: must have required properties path\n  - /offset: must be >= 0');
      expect(error.name).toBe("ToolArgumentsValidationError");
      expect(error.toolName).toBe("read");
    });
  });

  describe("rule 7: argument values never appear in messages or issues", () => {
    it("keeps a secret string out of every issue and the message", () => {
      const secret = "sk-live-SECRET-0123456789";
      const tool = {
        name: "pay",
        description: "",
        parameters: Type.Object(
          {
            amount: Type.Number(),
            currency: Type.Union([Type.Literal("EUR"), Type.Literal("USD")]),
            note: Type.String({ maxLength: 4, pattern: "^[a-z]+$" }),
          },
          { additionalProperties: false },
        ),
      };
      const error = thrownBy(() => validateToolArguments(tool, { amount: secret, currency: secret, note: secret })) as ToolArgumentsValidationError;
      expect(error.issues.length).toBeGreaterThan(2);
      expect(error.message).not.toContain(secret);
      for (const issue of error.issues) expect(issue).not.toContain(secret);
    });

    it("keeps invalid JSON text out of the message", () => {
      const error = thrownBy(() => parseToolArguments(readTool, '{"path": "sk-live-SECRET",')) as ToolArgumentsValidationError;
      expect(error.message).not.toContain("SECRET");
    });
  });

  describe("rule 8: a schema that cannot compile", () => {
    it("is a definition error, never a validation error", () => {
      const broken = { name: "broken", description: "", parameters: Type.Object({ code: Type.String({ pattern: "(" }) }) };
      const error = thrownBy(() => validateToolArguments(broken, {}));
      if (error instanceof ToolArgumentsValidationError) throw new Error("a broken schema was reported as bad arguments");
      expect(error).toBeInstanceOf(ToolDefinitionError);
    });
  });

  describe("rule 9: the schema is snapshot on its first use", () => {
    it("ignores a type changed after the first call, so a value the schema refused stays refused", () => {
      const parameters = { type: "object", properties: { s: { type: "string" } } } as Record<string, any>;
      const tool = { name: "t", description: "", parameters };
      expect(validateToolArguments(tool, { s: "x" })).toEqual({ s: "x" });
      parameters.properties.s.type = "nonsense";
      expect(issuesOf(() => validateToolArguments(tool, { s: 5 }))).toEqual(["/s: must be string"]);
      expect(issuesOf(() => parseToolArguments(tool, '{"s":5}'))).toEqual(["/s: must be string"]);
    });

    it("never runs an unsafe pattern added after the first call", () => {
      const parameters = { type: "object", properties: { s: { type: "string" } } } as Record<string, any>;
      const tool = { name: "t", description: "", parameters };
      validateToolArguments(tool, { s: "x" });
      parameters.properties.s.pattern = "^(a+)+$";
      const started = performance.now();
      // Checked against the snapshot, which has no pattern: accepted at once, not after seconds of backtracking.
      expect(validateToolArguments(tool, { s: `${"a".repeat(28)}!` })).toEqual({ s: `${"a".repeat(28)}!` });
      expect(parseToolArguments(tool, `{"s":"${"a".repeat(28)}!"}`)).toEqual({ s: `${"a".repeat(28)}!` });
      expect(performance.now() - started).toBeLessThan(500);
    });

    it("checks a schema that was broken on its first use again on its next use", () => {
      const parameters = { type: "object", properties: { s: { type: "nonsense" } } } as Record<string, any>;
      const tool = { name: "t", description: "", parameters };
      expect(thrownBy(() => validateToolArguments(tool, {}))).toBeInstanceOf(ToolDefinitionError);
      expect(thrownBy(() => validateToolArguments(tool, {}))).toBeInstanceOf(ToolDefinitionError);
      parameters.properties.s.type = "string";
      expect(validateToolArguments(tool, { s: "x" })).toEqual({ s: "x" });
    });

    it("refuses boolean schemas, as register does, with a definition error", () => {
      for (const parameters of [true, false]) {
        const tool = { name: "t", description: "", parameters } as never;
        expect(thrownBy(() => validateToolArguments(tool, {}))).toBeInstanceOf(ToolDefinitionError);
        expect(thrownBy(() => parseToolArguments(tool, "{}"))).toBeInstanceOf(ToolDefinitionError);
      }
    });
  });
});
