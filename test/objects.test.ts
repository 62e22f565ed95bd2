import { describe, expect, it } from "vitest";
import { defineOwnGetter, hiddenLink } from "../src/objects.js";

describe("hiddenLink", () => {
  it("finds the value linked to an object, and to an object that inherits from it", () => {
    const link = hiddenLink<string>();
    const target = { a: 1 };
    link.link(target, "linked");
    expect(link.find(target)).toBe("linked");
    expect(link.find(Object.create(target))).toBe("linked");
  });

  it("leaves no trace that enumeration, JSON or reflection sees", () => {
    const target = { a: 1 };
    hiddenLink<number>().link(target, 5);
    expect(Object.keys(target)).toEqual(["a"]);
    expect(Reflect.ownKeys(target)).toEqual(["a"]);
    expect(JSON.stringify(target)).toBe('{"a":1}');
  });

  it("finds nothing on an object it did not link, through a Proxy, or on what is not an object", () => {
    const link = hiddenLink<string>();
    const target = {};
    link.link(target, "linked");
    expect(link.find({})).toBeUndefined();
    expect(link.find(new Proxy(target, {}))).toBeUndefined();
    expect(link.find(null)).toBeUndefined();
    expect(link.find("text")).toBeUndefined();
  });

  it("keeps links of two kinds apart: one never finds the other's value", () => {
    const first = hiddenLink<string>();
    const second = hiddenLink<string>();
    const target = {};
    first.link(target, "first");
    expect(second.find(target)).toBeUndefined();
    second.link(target, "second");
    expect([first.find(target), second.find(target)]).toEqual(["first", "second"]);
  });
});

describe("defineOwnGetter", () => {
  it("defines an own getter that a spread, Object.keys and JSON see, read each time", () => {
    let reads = 0;
    const target = {};
    defineOwnGetter(target, "value", () => ++reads);
    expect(Object.keys(target)).toEqual(["value"]);
    expect({ ...target }).toEqual({ value: 1 });
    expect(JSON.stringify(target)).toBe('{"value":2}');
    expect(Object.getOwnPropertyDescriptor(target, "value")).toMatchObject({ enumerable: true, configurable: true, set: undefined });
  });
});
