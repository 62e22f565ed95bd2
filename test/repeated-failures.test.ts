import { describe, expect, it } from "vitest";
import { failureContent, ToolArgumentsValidationError, ToolRegistry, Type, type ToolFailure } from "../src/index.js";
import { fingerprintText, fingerprintValue } from "../src/validation/fingerprint.js";
import { rejectionOf, toolCall } from "./support/fixtures.js";

const add = { name: "add", description: "Add two numbers", parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }) };

function calculator(options: { maxArgumentBytes?: number } = {}) {
  return new ToolRegistry(options)
    .register(add, ({ a, b }) => a + b)
    .register({ name: "echo", description: "Echo", parameters: Type.Object({ text: Type.String() }) }, ({ text }) => text);
}

async function failure(registry: ToolRegistry, args: Record<string, unknown> | string, name = "add"): Promise<ToolFailure> {
  const [result] = await registry.dispatchAll([toolCall(name, args)]);
  if (!result!.isError) throw new Error("expected a failure");
  return result!;
}

describe("a repeated failure", () => {
  it("tells the model it is repeating itself, and what to change, when the same arguments fail the same way a second time in a row", async () => {
    const registry = calculator();
    const first = await failure(registry, '{"a":2.5}');
    const second = await failure(registry, '{"a":2.5}');
    expect(first.content).toBe(
      'Invalid arguments for tool "add":\n  - /a: must be integer\n  - /b: must have required properties b (expected integer)\nCorrect the arguments to match the tool\'s parameters and call it again.',
    );
    expect(second.content).toBe(
      'Invalid arguments for tool "add":\n  - /a: must be integer\n  - /b: must have required properties b (expected integer)\n' +
        'These are the same arguments, refused for the same reasons, as in the last call of "add" (2 times in a row): sending them again will fail again. ' +
        'Change each value the lines above name, as they say, before calling "add" again.',
    );
    expect((first.error as ToolArgumentsValidationError).repeats).toBe(0);
    expect((second.error as ToolArgumentsValidationError).repeats).toBe(1);
    const third = await failure(registry, '{"a":2.5}');
    expect(third.content).toContain("as in the last 2 calls of \"add\" (3 times in a row)");
  });

  it("is counted in failureStats(), and cacheStats() keeps its five figures", async () => {
    const registry = calculator();
    for (let round = 0; round < 3; round++) await failure(registry, { a: "1", b: 2 });
    await failure(registry, { a: 1 });
    expect(registry.failureStats()).toEqual({ argumentFailures: 4, repeatedFailures: 2 });
    expect(Object.keys(registry.cacheStats())).toEqual(["size", "max", "hits", "misses", "evictions"]);
  });

  it("is the same arguments: an equal object counts, a different value with the same issues does not", async () => {
    const registry = calculator();
    await failure(registry, { a: "x", b: 1 });
    expect((await failure(registry, { a: "x", b: 1 })).content).toContain("2 times in a row");
    expect((await failure(registry, { a: "y", b: 1 })).content).not.toContain("in a row");
  });

  it("is in a row: a call of the tool accepted in between starts the count again, another tool's failure does not", async () => {
    const registry = calculator();
    await failure(registry, '{"a":1}');
    await failure(registry, { text: 1 }, "echo");
    expect((await failure(registry, '{"a":1}')).content).toContain("2 times in a row");
    expect(await registry.dispatch(toolCall("add", { a: 1, b: 2 }))).toBe(3);
    expect((await failure(registry, '{"a":1}')).content).not.toContain("in a row");
  });

  it("is recognised for text that is not JSON and for text over maxArgumentBytes, the loops a model falls into when its JSON breaks", async () => {
    const registry = calculator({ maxArgumentBytes: 64 });
    await failure(registry, '{"a":1,"b":');
    expect((await failure(registry, '{"a":1,"b":')).content).toContain("2 times in a row");
    const large = JSON.stringify({ a: 1, b: 2, pad: "x".repeat(100) });
    await failure(registry, large);
    expect((await failure(registry, large)).content).toContain("2 times in a row");
  });

  it("reaches code that catches dispatch's error: failureContent writes the same stronger text", async () => {
    const registry = calculator();
    await rejectionOf(registry.dispatch(toolCall("add", { a: 1 })));
    const error = await rejectionOf(registry.dispatch(toolCall("add", { a: 1 })));
    expect(failureContent(error)).toContain("2 times in a row");
    expect((error as Error).message).toBe('Invalid arguments for tool "add":\n  - /b: must have required properties b (expected integer)');
  });

  it("never puts an argument value in the text", async () => {
    const registry = calculator();
    await failure(registry, { a: "secret-42", b: 1 });
    expect((await failure(registry, { a: "secret-42", b: 1 })).content).not.toContain("secret");
  });
});

describe("the fingerprint of arguments", () => {
  it("keeps short JSON text as it is, and hashes longer text into a few characters", () => {
    expect(fingerprintText('{"a":1}', 1024)).toBe('t{"a":1}');
    const long = JSON.stringify({ list: Array.from({ length: 100_000 }, (_, index) => index) });
    expect(fingerprintText(long, 16_777_216).length).toBeLessThan(20);
    expect(fingerprintText(long, 16_777_216)).not.toBe(fingerprintText(long.replace("99999", "99998"), 16_777_216));
  });

  it("tells text over the limit apart by its length and its first characters only", () => {
    const text = `{"pad":"${"x".repeat(100_000)}"}`;
    expect(fingerprintText(text, 1000)).toBe(fingerprintText(`${text.slice(0, -3)}y"}`, 1000));
    expect(fingerprintText(text, 1000)).not.toBe(fingerprintText(`${text}  `, 1000));
  });

  it("gives equal objects one fingerprint, and tells types, keys, order and values apart", () => {
    expect(fingerprintValue({ a: [1, "2", null, true] })).toBe(fingerprintValue({ a: [1, "2", null, true] }));
    const variants = [{ a: [1, "2", null, true] }, { a: [1, 2, null, true] }, { a: [1, "2", null, false] }, { b: [1, "2", null, true] }, { a: [1, "2", true, null] }, { a: { 0: 1 } }];
    expect(new Set(variants.map(fingerprintValue)).size).toBe(variants.length);
  });

  it("walks a value with a cycle or deep nesting within its bounds", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    cyclic.again = cyclic;
    expect(fingerprintValue(structuredClone(cyclic))).toMatch(/^v\d+$/);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(fingerprintValue(deep)).toMatch(/^v\d+$/);
  });
});
