import { describe, expect, it } from "vitest";
import { ToolRegistry, Type, type TSchema } from "../src/index.js";
import { prepareCall, type RegisteredTool } from "../src/dispatch/prepare.js";
import { RepeatedFailures } from "../src/dispatch/repeated-failures.js";
import { FUSED_FROM_USE, ValidatorCache, type ValidatorSlot, validatorSlot } from "../src/validation/cache.js";
import { readTool, toolCall } from "./support/fixtures.js";
import { collectGarbage, nextTurn } from "./support/garbage.js";

function schemaWithId(id: number): TSchema {
  return Type.Object({ [`field${id}`]: Type.Integer() });
}

describe("the validator cache of a registry", () => {
  it("compiles a schema on its first dispatch and reuses it afterwards", async () => {
    const registry = new ToolRegistry().register(readTool, () => 1);
    expect(registry.cacheStats()).toMatchObject({ size: 0, misses: 0, hits: 0 });
    await registry.dispatch(toolCall("read", { path: "a" }));
    expect(registry.cacheStats()).toMatchObject({ size: 1, misses: 1, hits: 0 });
    await registry.dispatch(toolCall("read", '{"path":"b"}'));
    await registry.dispatch(toolCall("read", { path: 1 })).catch(() => undefined);
    expect(registry.cacheStats()).toMatchObject({ size: 1, misses: 1, hits: 2 });
  });

  it("shares one validator between tools that share one schema object", async () => {
    const registry = new ToolRegistry().register(readTool, () => 1).register({ ...readTool, name: "cat" }, () => 2);
    await registry.dispatch(toolCall("read", { path: "a" }));
    await registry.dispatch(toolCall("cat", { path: "a" }));
    expect(registry.cacheStats()).toMatchObject({ size: 1, misses: 1, hits: 1 });
  });

  it("keys by identity by default, so an equal copy of a schema compiles again", async () => {
    const registry = new ToolRegistry()
      .register(readTool, () => 1)
      .register({ ...readTool, name: "cat", parameters: JSON.parse(JSON.stringify(readTool.parameters)) as TSchema }, () => 2);
    await registry.dispatch(toolCall("read", { path: "a" }));
    await registry.dispatch(toolCall("cat", { path: "a" }));
    expect(registry.cacheStats()).toMatchObject({ size: 2, misses: 2 });
  });

  it("stays within cacheSize, evicting the least recently used validator", async () => {
    const registry = new ToolRegistry({ cacheSize: 2 });
    for (const id of [1, 2, 3]) registry.register({ name: `t${id}`, description: "", parameters: schemaWithId(id) }, () => id);
    const run = (id: number) => registry.dispatch(toolCall(`t${id}`, { [`field${id}`]: id }));
    await run(1);
    await run(2);
    await run(1); // t1 is now more recent than t2
    await run(3); // evicts t2, the least recently used
    expect(registry.cacheStats()).toMatchObject({ size: 2, max: 2, misses: 3, hits: 1, evictions: 1 });
    await run(1); // still cached
    expect(registry.cacheStats()).toMatchObject({ misses: 3, hits: 2 });
    await run(2); // was evicted: compiles again
    expect(registry.cacheStats()).toMatchObject({ misses: 4, evictions: 2 });
  });

  it("stays correct after eviction: a recompiled validator still accepts and rejects", async () => {
    const registry = new ToolRegistry({ cacheSize: 1 });
    for (const id of [1, 2]) registry.register({ name: `t${id}`, description: "", parameters: schemaWithId(id) }, () => id);
    for (let round = 0; round < 3; round++) {
      expect(await registry.dispatch(toolCall("t1", { field1: 1 }))).toBe(1);
      expect(await registry.dispatch(toolCall("t2", { field2: 2 }))).toBe(2);
      await expect(registry.dispatch(toolCall("t1", { field1: "1" }))).rejects.toThrow("/field1: must be integer");
      await expect(registry.dispatch(toolCall("t2", { field2: 2.5 }))).rejects.toThrow("/field2: must be integer");
    }
    expect(registry.cacheStats().size).toBe(1);
    expect(registry.cacheStats().evictions).toBeGreaterThan(5);
  });

  it("reports exactly the contract's figures: size, max, hits, misses, evictions", async () => {
    const registry = new ToolRegistry().register(readTool, () => 1);
    await registry.dispatch(toolCall("read", { path: "a" }));
    expect(registry.cacheStats()).toEqual({ size: 1, max: 1024, hits: 0, misses: 1, evictions: 0 });
  });

  it("defaults to a bound of 1024 and accepts Infinity for no bound", () => {
    expect(new ToolRegistry().cacheStats().max).toBe(1024);
    expect(new ToolRegistry({ cacheSize: Infinity }).cacheStats().max).toBe(Infinity);
  });

  it.each([0, -1, 2.5, Number.NaN])("refuses the cacheSize %s, naming the option", (cacheSize) => {
    expect(() => new ToolRegistry({ cacheSize })).toThrow(`cacheSize must be a positive integer or Infinity, got ${cacheSize}`);
  });

  it("generates a schema's fused copy-and-check only on its 64th use, so a tool called a few times never pays for it", () => {
    const entry = new ValidatorCache().get("read", Type.Object({ path: Type.String() }));
    expect(FUSED_FROM_USE).toBe(64);
    for (let use = 1; use < FUSED_FROM_USE; use++) expect(entry.fused).toBeUndefined();
    const fused = entry.fused;
    expect(fused).toBeTypeOf("function");
    expect(fused!({ path: "a" }, { invalid: false, unchecked: false })).toEqual({ path: "a" });
    expect(entry.fused).toBe(fused);
  });

  it("counts only calls with object arguments as uses of the fused copy-and-check, never JSON text, which is parsed", () => {
    const parameters = Type.Object({ path: Type.String() });
    const entry = new ValidatorCache().get("read", parameters);
    const tool: RegisteredTool = { name: "read", definition: { name: "read", description: "", parameters }, handler: () => 1, timeoutMs: undefined, policy: undefined, options: {}, lastRefusal: undefined, validatorSlot: validatorSlot() };
    const context = { tools: new Map([["read", tool]]), validator: () => entry, maxArgumentBytes: 1024, onRepair: undefined, failures: new RepeatedFailures() };
    for (let call = 0; call < 2 * FUSED_FROM_USE; call++) expect(prepareCall({ name: "read", shownName: "read", id: "c", arguments: '{"path":"a"}' }, context).args).toEqual({ path: "a" });
    for (let use = 1; use < FUSED_FROM_USE; use++) expect(entry.fused).toBeUndefined();
    expect(entry.fused).toBeTypeOf("function");
  });

  it("counts only calls with JSON text as uses of the JSON reader, and reads the 64th call's text with it", () => {
    const parameters = Type.Object({ path: Type.String() });
    const entry = new ValidatorCache().get("read", parameters);
    const tool: RegisteredTool = { name: "read", definition: { name: "read", description: "", parameters }, handler: () => 1, timeoutMs: undefined, policy: undefined, options: {}, lastRefusal: undefined, validatorSlot: validatorSlot() };
    const context = { tools: new Map([["read", tool]]), validator: () => entry, maxArgumentBytes: 1024, onRepair: undefined, failures: new RepeatedFailures() };
    for (let call = 0; call < 2 * FUSED_FROM_USE; call++) expect(prepareCall({ name: "read", shownName: "read", id: "c", arguments: { path: "a" } }, context).args).toEqual({ path: "a" });
    for (let use = 1; use < FUSED_FROM_USE; use++) expect(entry.reader).toBeUndefined();
    const reader = entry.reader;
    expect(reader).toBeTypeOf("function");
    expect(reader!('{"path":"a"}')).toEqual({ path: "a" });
    expect(entry.reader).toBe(reader);
  });

  it("gives the handler what JSON.parse makes of the text, through the JSON reader or past it, and refuses as before", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry({ maxArgumentBytes: 64 }).register(readTool, (args) => {
      seen.push(args);
      return 1;
    });
    const texts = ['{"path":"a","offset":2}', '{ "offset" : 2 , "path" : "b" }', '{"path":"\u0063"}', '{"path":"d","extra":true}'];
    for (let call = 0; call < 2 * FUSED_FROM_USE; call++) {
      const text = texts[call % texts.length]!;
      seen.length = 0;
      await registry.dispatch(toolCall("read", text));
      expect(seen).toEqual([JSON.parse(text)]);
    }
    // Refused before anything reads it: over maxArgumentBytes, not JSON, not an object, not matching.
    for (const [text, issue] of [
      [`{"path":"${"a".repeat(64)}"}`, "/: arguments must not be larger than 64 bytes"],
      ['{"path":"a",}', "/: arguments must be valid JSON"],
      ['{"path":1}', "/path: must be string"],
    ] as const) {
      const error = await registry.dispatch(toolCall("read", text)).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ issues: [issue] });
    }
  });

  it("adds up compile time", async () => {
    const registry = new ToolRegistry().register(readTool, () => 1);
    await registry.dispatch(toolCall("read", { path: "a" }));
    expect(registry.compileStats().compileMs).toBeGreaterThan(0);
    expect(registry.compileStats()).toMatchObject({ codeGeneration: true, interpreted: 0 });
  });
});

describe("a tool's validator slot", () => {
  const schemas = { a: schemaWithId(1), b: schemaWithId(2), c: schemaWithId(3) };

  it("gives the tool's later uses the validator it holds, each counted as a hit", () => {
    const cache = new ValidatorCache(4);
    const slot = validatorSlot();
    const first = cache.getFor(slot, "a", schemas.a);
    expect(cache.getFor(slot, "a", schemas.a)).toBe(first);
    expect(cache.getFor(slot, "a", schemas.a)).toBe(first);
    expect(slot.validator).toBe(first);
    expect(cache.stats()).toMatchObject({ size: 1, misses: 1, hits: 2 });
  });

  it("lets the cache evict what it would have had every use been a lookup, in the order of the uses", () => {
    const cache = new ValidatorCache(2);
    const slots = { a: validatorSlot(), b: validatorSlot(), c: validatorSlot() };
    const use = (name: "a" | "b" | "c") => cache.getFor(slots[name], name, schemas[name]);
    // a then b enter the cache; then uses through the slots alone: a, b, a. The least recent is b,
    // though a was first used through its slot before b was.
    use("a");
    use("b");
    use("a");
    use("b");
    use("a");
    use("c");
    expect(cache.stats()).toMatchObject({ size: 2, misses: 3, evictions: 1 });
    expect(slots.b.validator).toBeUndefined();
    expect(slots.a.validator).toBeDefined();
    use("a");
    expect(cache.stats()).toMatchObject({ misses: 3 });
    use("b");
    expect(cache.stats()).toMatchObject({ misses: 4, evictions: 2 });
  });

  it("counts a use after a lookup of another schema (an output schema's, say) as the latest", () => {
    const cache = new ValidatorCache(2);
    const slot = validatorSlot();
    cache.getFor(slot, "a", schemas.a);
    cache.get("b", schemas.b);
    cache.getFor(slot, "a", schemas.a);
    cache.get("c", schemas.c);
    expect(slot.validator).toBeDefined();
    cache.get("b", schemas.b);
    expect(cache.stats()).toMatchObject({ misses: 4, evictions: 2 });
  });

  it("is emptied when its validator leaves the cache, so that no tool keeps an evicted validator", () => {
    const cache = new ValidatorCache(1);
    const slots = [validatorSlot(), validatorSlot()];
    cache.getFor(slots[0]!, "a", schemas.a);
    cache.getFor(slots[1]!, "b", schemas.b);
    expect(slots[0]!.validator).toBeUndefined();
    expect(slots[1]!.validator).toBeDefined();
  });

  it("fills every slot of a shared schema, and empties them all at its eviction", () => {
    const cache = new ValidatorCache(1);
    const slots = [validatorSlot(), validatorSlot()];
    const shared = cache.getFor(slots[0]!, "a", schemas.a);
    expect(cache.getFor(slots[1]!, "cat", schemas.a)).toBe(shared);
    cache.get("b", schemas.b);
    expect(slots.map((slot) => slot.validator)).toEqual([undefined, undefined]);
  });

  it("once released, is not kept by the cache, whose validator stays cached for the tools that share it", async () => {
    const cache = new ValidatorCache(2);
    let slot: ValidatorSlot | undefined = validatorSlot();
    cache.getFor(slot, "a", schemas.a);
    cache.getFor(validatorSlot(), "b", schemas.b);
    // A use after another tool's: waiting to be replayed into the cache's order when released.
    cache.getFor(slot, "a", schemas.a);
    const released = new WeakRef(slot);
    cache.release(slot);
    slot = undefined;
    await nextTurn();
    collectGarbage();
    expect(released.deref()).toBeUndefined();
    cache.get("a", schemas.a);
    expect(cache.stats()).toMatchObject({ size: 2, misses: 2 });
  });

  it("is filled in for every structurally equal copy of a schema under the content key, and emptied with them at eviction", () => {
    const cache = new ValidatorCache(1, { key: "content" });
    const slots = [validatorSlot(), validatorSlot()];
    const copy = JSON.parse(JSON.stringify(schemas.a)) as TSchema;
    const shared = cache.getFor(slots[0]!, "a", schemas.a);
    expect(cache.getFor(slots[1]!, "copy", copy)).toBe(shared);
    expect(cache.stats()).toMatchObject({ size: 1, misses: 1, hits: 1 });
    cache.get("b", schemas.b);
    expect(slots.map((slot) => slot.validator)).toEqual([undefined, undefined]);
  });

  it("once released, is no longer filled in, and the uses made before count in the cache's order", () => {
    const cache = new ValidatorCache(2);
    const slots = { a: validatorSlot(), b: validatorSlot() };
    cache.getFor(slots.a, "a", schemas.a);
    cache.getFor(slots.b, "b", schemas.b);
    cache.getFor(slots.a, "a", schemas.a);
    cache.release(slots.a);
    expect(slots.a).toMatchObject({ validator: undefined, key: undefined });
    // a was used after b: c evicts b, and a (another tool may share its schema) stays cached.
    cache.get("c", schemas.c);
    expect(slots.b.validator).toBeUndefined();
    cache.get("a", schemas.a);
    expect(cache.stats()).toMatchObject({ size: 2, misses: 3, evictions: 1 });
  });
});

describe("ValidatorCache with the content key", () => {
  it("compiles N structurally identical copies of a schema once", () => {
    const cache = new ValidatorCache(16, { key: "content" });
    const text = JSON.stringify(readTool.parameters);
    for (let copy = 0; copy < 50; copy++) {
      const validator = cache.get("read", JSON.parse(text) as TSchema);
      expect(validator.Check({ path: "a" })).toBe(true);
      expect(validator.Check({ path: 1 })).toBe(false);
    }
    expect(cache.stats()).toMatchObject({ size: 1, misses: 1, hits: 49 });
  });

  it("does not depend on key order", () => {
    const cache = new ValidatorCache(16, { key: "content" });
    cache.get("a", { type: "object", properties: { x: { type: "string" } }, required: ["x"] } as TSchema);
    cache.get("b", { required: ["x"], properties: { x: { type: "string" } }, type: "object" } as TSchema);
    expect(cache.stats().misses).toBe(1);
  });

  it("keeps schemas that differ apart", () => {
    const cache = new ValidatorCache(16, { key: "content" });
    const integer = cache.get("a", { type: "object", properties: { x: { type: "integer" } } } as TSchema);
    const text = cache.get("b", { type: "object", properties: { x: { type: "string" } } } as TSchema);
    expect(integer.Check({ x: 1 })).toBe(true);
    expect(text.Check({ x: 1 })).toBe(false);
    expect(cache.stats().misses).toBe(2);
  });

  it("keeps apart schemas that differ only by a property set to undefined", () => {
    const cache = new ValidatorCache(16, { key: "content" });
    const nothing = cache.get("a", { type: "object", properties: { x: { const: undefined } } } as TSchema);
    const anything = cache.get("b", { type: "object", properties: { x: {} } } as TSchema);
    expect(anything.Check({ x: 1 })).toBe(true);
    expect(nothing.Check({ x: 1 })).toBe(false);
    expect(cache.stats().misses).toBe(2);
  });

  it("never shares a validator between a refined schema and the same schema without its refinement", () => {
    const cache = new ValidatorCache(16, { key: "content" });
    const refined = cache.get("a", Type.Object({ x: Type.Refine(Type.String(), (text) => text.length > 3) }));
    const plain = cache.get("b", Type.Object({ x: Type.String() }));
    expect(plain.Check({ x: "ab" })).toBe(true);
    expect(refined.Check({ x: "ab" })).toBe(false);
    expect(cache.stats().misses).toBe(2);
  });

  it("is what a registry uses with cacheKey \"content\"", async () => {
    const registry = new ToolRegistry({ cacheKey: "content" })
      .register(readTool, () => 1)
      .register({ ...readTool, name: "cat", parameters: JSON.parse(JSON.stringify(readTool.parameters)) as TSchema }, () => 2);
    await registry.dispatch(toolCall("read", { path: "a" }));
    await registry.dispatch(toolCall("cat", { path: "a" }));
    expect(registry.cacheStats()).toMatchObject({ size: 1, misses: 1, hits: 1 });
  });
});
