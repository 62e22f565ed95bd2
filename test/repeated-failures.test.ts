import { describe, expect, it } from "vitest";
import { failureContent, ToolArgumentsValidationError, ToolRegistry, Type, type ToolFailure } from "../src/index.js";
import { RepeatedFailures } from "../src/dispatch/repeated-failures.js";
import { textHash, valueHash } from "../src/validation/argument-hash.js";
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
      'Invalid arguments for tool "add":\n  - /a: must be integer\n  - /b: must have required properties b\nCorrect the arguments to match the tool\'s parameters and call it again.',
    );
    expect(second.content).toBe(
      'Invalid arguments for tool "add":\n  - /a: must be integer\n  - /b: must have required properties b\n' +
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

  it("is the same value, however it was sent: as an object or as JSON text, spaced or written another way", async () => {
    const registry = calculator();
    await failure(registry, '{"a": 2.5}');
    expect((await failure(registry, '{"a":2.50}')).error).toMatchObject({ repeats: 1 });
    expect((await failure(registry, { a: 2.5 })).error).toMatchObject({ repeats: 2 });
    expect((await failure(registry, '{ "a" : 2.5 }')).error).toMatchObject({ repeats: 3 });
    expect((await failure(registry, '{"a":3.5}')).error).toMatchObject({ repeats: 0 });
  });

  it("is never arguments that could not be read or copied, which nothing tells apart: a call's null, array or function", async () => {
    const registry = calculator();
    const unreadable = [null, [], 5, { a: () => 1 }, { a: Symbol("s") }, new Date(0)];
    const repeats: number[] = [];
    for (const args of [...unreadable, ...unreadable]) repeats.push(((await failure(registry, args as Record<string, unknown>)).error as ToolArgumentsValidationError).repeats);
    expect(repeats).toEqual(unreadable.flatMap(() => [0, 0]));
    expect(registry.failureStats()).toEqual({ argumentFailures: 12, repeatedFailures: 0 });
  });

  it("tells dates apart by their time", async () => {
    const registry = calculator();
    await failure(registry, { a: new Date(0) });
    expect((await failure(registry, { a: new Date(1) })).error).toMatchObject({ repeats: 0 });
    expect((await failure(registry, { a: new Date(1) })).error).toMatchObject({ repeats: 1 });
  });

  it("is the same value with its keys in another order, as an object or as JSON text", async () => {
    const registry = calculator();
    await failure(registry, { a: 2.5, b: "x" });
    expect((await failure(registry, { b: "x", a: 2.5 })).error).toMatchObject({ repeats: 1 });
    expect((await failure(registry, '{"b":"x","a":2.50}')).error).toMatchObject({ repeats: 2 });
    expect(registry.failureStats()).toEqual({ argumentFailures: 3, repeatedFailures: 2 });
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

  it("never calls arguments that could not be read the same arguments: nothing tells two such calls apart", async () => {
    const registry = calculator();
    const unreadable = (): Record<string, unknown> => ({ type: "tool_call", id: "c", name: "add", get arguments(): never { throw new Error("gone"); } });
    const uncopyable = { type: "tool_call" as const, id: "c", name: "add", arguments: { a: 1, b: () => 2 } };
    const issuesOf = async (call: unknown) => (await registry.dispatchAll([call as never]))[0]! as ToolFailure;
    expect((await issuesOf(unreadable())).error).toMatchObject({ repeats: 0 });
    expect((await issuesOf(unreadable())).error).toMatchObject({ repeats: 0 });
    const copied = await issuesOf(uncopyable);
    expect(copied.error).toMatchObject({ repeats: 0 });
    expect((copied.error as ToolArgumentsValidationError).issues).not.toEqual(["/: arguments must be a plain object"]);
  });

  it("reaches code that catches dispatch's error: its message says so, and failureContent writes the same stronger text once", async () => {
    const registry = calculator();
    await rejectionOf(registry.dispatch(toolCall("add", { a: 1 })));
    const error = await rejectionOf(registry.dispatch(toolCall("add", { a: 1 })));
    expect(failureContent(error)).toContain("2 times in a row");
    expect((error as Error).message).toBe(
      'Invalid arguments for tool "add":\n  - /b: must have required properties b\n' +
        'These are the same arguments, refused for the same reasons, as in the last call of "add" (2 times in a row): sending them again will fail again. ' +
        'Change each value the lines above name, as they say, before calling "add" again.',
    );
    expect((error as Error).stack).toBe(`ToolArgumentsValidationError: ${(error as Error).message}`);
    expect(failureContent(error).match(/These are the same arguments/g)).toHaveLength(1);
  });

  it("never puts an argument value in the text", async () => {
    const registry = calculator();
    await failure(registry, { a: "secret-42", b: 1 });
    expect((await failure(registry, { a: "secret-42", b: 1 })).content).not.toContain("secret");
  });
});

describe("the memory of refusals", () => {
  const refusal = () => ["/a: must be integer"];
  const text = (length: number, middle = "x") => `{"a":"${"x".repeat(length / 2)}${middle}${"x".repeat(length / 2)}"}`;

  it("compares kept texts exactly: a one-character change in the middle of a long text is another call", () => {
    const memory = new RepeatedFailures();
    const tool = { lastRefusal: undefined };
    memory.refused(tool, text(100_000), undefined, refusal());
    expect(memory.refused(tool, text(100_000), undefined, refusal())).toBe(1);
    expect(memory.refused(tool, text(100_000, "y"), undefined, refusal())).toBe(0);
  });

  it("keeps at most 2^20 characters of long texts in all, then hashes a text's length and a sample of it, and a kept text still matches its hash", () => {
    const memory = new RepeatedFailures();
    const [big, other] = [{ lastRefusal: undefined }, { lastRefusal: undefined }];
    memory.refused(big, text(1_040_000), undefined, refusal());
    // No room left: this text is hashed, and a change the sample does not read goes unseen.
    memory.refused(other, text(100_000), undefined, refusal());
    expect(memory.refused(other, text(100_000, "y"), undefined, refusal())).toBe(1);
    // Once the big text is forgotten (its tool's arguments passed), there is room again: texts are kept and compared whole.
    memory.forget(big);
    expect(memory.refused(other, text(100_000, "y"), undefined, refusal())).toBe(2);
    expect(memory.refused(other, text(100_000), undefined, refusal())).toBe(0);
  });

  it("counts a repeat of a hashed text or value only when its issues are the same too: a hash can collide", () => {
    const memory = new RepeatedFailures();
    const [big, other, dated] = [{ lastRefusal: undefined }, { lastRefusal: undefined }, { lastRefusal: undefined }];
    memory.refused(big, text(1_040_000), undefined, refusal());
    memory.refused(other, text(100_000), undefined, refusal());
    // The sample does not read the middle: the two texts hash alike, and their issues tell them apart.
    const elsewhere = ["/a: must not have more than 10 characters"];
    expect(memory.refused(other, text(100_000, "y"), undefined, elsewhere)).toBe(0);
    // A Date is hashed by its kind: two dates hash alike.
    memory.refused(dated, undefined, { at: new Date(1) }, refusal());
    expect(memory.refused(dated, undefined, { at: new Date(2) }, elsewhere)).toBe(0);
  });

  it("forgets a tool's refusal when the tool is unregistered, so that its text no longer counts", async () => {
    const registry = new ToolRegistry().register(add, () => 1);
    // Texts cut short (no closing brace): they cannot be parsed, and are kept as they are.
    await failure(registry, text(1_040_000).slice(0, -1));
    registry.unregister("add");
    registry.register(add, () => 1).register({ name: "other", description: "", parameters: Type.Object({ a: Type.Integer() }) }, () => 1);
    await failure(registry, text(100_000).slice(0, -1), "other");
    expect((await failure(registry, text(100_000, "y").slice(0, -1), "other")).content).not.toContain("in a row");
  });
});

describe("the hashes of arguments", () => {
  it("hashes a text by its length and a sample: its first and last 1,024 characters, and 1,024 spread between", () => {
    const long = `[${"1,".repeat(50_000)}1]`;
    expect(textHash(long)).toBe(textHash(`${long}`));
    expect(textHash(long)).not.toBe(textHash(`[2${long.slice(2)}`));
    expect(textHash(long)).not.toBe(textHash(`${long.slice(0, -2)}2]`));
    expect(textHash(long)).not.toBe(textHash(`${long} `));
    const short = '{"a":1,"b":2}';
    expect(textHash(short)).not.toBe(textHash('{"a":1,"b":3}'));
  });

  it("tells apart every list of three small integers of either sign, which a product's low bits alone cannot", () => {
    const integers = Array.from({ length: 41 }, (_, index) => index - 20);
    const hashes = new Set<number>();
    for (const a of integers) for (const b of integers) for (const c of integers) hashes.add(valueHash({ ids: [a, b, c] }));
    expect(hashes.size).toBe(41 ** 3);
  });

  it("never tells the model that different arguments are the same ones it sent before", async () => {
    const registry = new ToolRegistry().register({ name: "tag", description: "", parameters: Type.Object({ ids: Type.Array(Type.String()) }) }, () => "ok");
    await rejectionOf(registry.dispatch(toolCall("tag", '{"ids":[-3,-1,3]}', "1")));
    const second = (await rejectionOf(registry.dispatch(toolCall("tag", '{"ids":[-3,1,-3]}', "2")))) as ToolArgumentsValidationError;
    expect(second.repeats).toBe(0);
  });

  it("gives equal objects one hash, and tells types, keys, an array's order and values apart", () => {
    expect(valueHash({ a: [1, "2", null, true] })).toBe(valueHash({ a: [1, "2", null, true] }));
    const variants = [
      { a: [1, "2", null, true] },
      { a: [1, 2, null, true] },
      { a: [1, "2", null, false] },
      { b: [1, "2", null, true] },
      { a: [1, "2", true, null] },
      { a: { 0: 1 } },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
      { a: 1, b: 1 },
      { a: { b: 1 }, c: 2 },
      { a: { c: 2 }, b: 1 },
      { ab: 1 },
      { a: "b1" },
    ];
    expect(new Set(variants.map(valueHash)).size).toBe(variants.length);
  });

  it("gives an object one hash whatever the order of its keys, at every depth", () => {
    const value = { path: "a.txt", options: { mode: "fast", depth: 2, tags: ["x", { k: 1, j: 2 }] }, offset: 4 };
    const reordered = { offset: 4, options: { tags: ["x", { j: 2, k: 1 }], depth: 2, mode: "fast" }, path: "a.txt" };
    expect(valueHash(reordered)).toBe(valueHash(value));
    expect(valueHash({ ...reordered, offset: 5 })).not.toBe(valueHash(value));
  });

  it("walks a value with a cycle or deep nesting within its bounds", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    cyclic.again = cyclic;
    expect(Number.isSafeInteger(valueHash(structuredClone(cyclic)))).toBe(true);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(Number.isSafeInteger(valueHash(deep))).toBe(true);
  });
});
