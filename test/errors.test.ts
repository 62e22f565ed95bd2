import { types } from "node:util";
import { describe, expect, it } from "vitest";
import { ToolArgumentsValidationError, ToolNotAllowedError, ToolRegistryError, UnknownToolError } from "../src/index.js";

describe("ToolArgumentsValidationError", () => {
  it("is a native Error whose stack is its message, with no frames", () => {
    const error = new ToolArgumentsValidationError("read", ["/offset: must be integer"]);
    expect(types.isNativeError(error)).toBe(true);
    expect(error).toBeInstanceOf(ToolRegistryError);
    expect(error.stack).toBe(`ToolArgumentsValidationError: ${error.message}`);
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(Object.keys(error)).toEqual(["name", "toolName", "issues", "repeats"]);
  });

  it("leaves Error.stackTraceLimit as it found it", () => {
    const before = Error.stackTraceLimit;
    new ToolArgumentsValidationError("read", []);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error("after").stack).toMatch(/\n\s+at /);
  });

  it("is still made where Error.stackTraceLimit cannot be changed (a hardened runtime)", () => {
    const descriptor = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit")!;
    Object.defineProperty(Error, "stackTraceLimit", { ...descriptor, writable: false });
    try {
      const error = new ToolArgumentsValidationError("read", ["/offset: must be integer"]);
      expect(error.issues).toEqual(["/offset: must be integer"]);
      expect(error.stack).toBe(`ToolArgumentsValidationError: ${error.message}`);
    } finally {
      Object.defineProperty(Error, "stackTraceLimit", descriptor);
    }
    expect(Error.stackTraceLimit).toBe(descriptor.value);
  });

  it("names each tool in its own message when tools alternate", () => {
    const names = ["read", "write", "read", 'say "hi"\n', "read"];
    const messages = names.map((name) => new ToolArgumentsValidationError(name, ["/: x"]).message);
    expect(messages.map((message) => message.split(":")[0])).toEqual([
      'Invalid arguments for tool "read"',
      'Invalid arguments for tool "write"',
      'Invalid arguments for tool "read"',
      'Invalid arguments for tool "say \\"hi\\"\\n"',
      'Invalid arguments for tool "read"',
    ]);
  });
});

describe("the errors of a model's call", () => {
  it("carry their message as their stack, with no frames: an unknown tool and one outside the turn's allow-list too", () => {
    for (const error of [new UnknownToolError("reed", ["read"], ["read"]), new ToolNotAllowedError("write", ["read"])]) {
      expect(types.isNativeError(error)).toBe(true);
      expect(error.stack).toBe(`${error.name}: ${error.message}`);
    }
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  });
});

describe("ToolRegistryError", () => {
  it("has its name on its prototype, and each subclass its own name on its instances", () => {
    expect(new ToolRegistryError("x").name).toBe("ToolRegistryError");
    const unknown = new UnknownToolError("reed", ["read"]);
    expect(Object.keys(unknown)).toContain("name");
    expect(JSON.parse(JSON.stringify(unknown))).toMatchObject({ name: "UnknownToolError", toolName: "reed" });
  });
});
