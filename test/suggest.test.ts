import { describe, expect, it } from "vitest";
import { suggestNames } from "../src/text/suggest.js";

const tools = ["read", "write", "list_files", "search_web", "uber.ride"];

describe("suggestNames", () => {
  it.each([
    ["reed", ["read"]],
    ["raed", ["read"]],
    ["Read", ["read"]],
    ["wirte", ["write"]],
    ["list_file", ["list_files"]],
    ["files", ["list_files"]],
    ["uber_ride", ["uber.ride"]],
  ])("suggests a close name for %j", (typo, expected) => {
    expect(suggestNames(typo, tools)).toEqual(expected);
  });

  it("suggests nothing for a name unlike any tool", () => {
    expect(suggestNames("launch_rocket", tools)).toEqual([]);
    expect(suggestNames("", tools)).toEqual([]);
  });

  it("lists at most three names, closest first", () => {
    expect(suggestNames("tool", ["tool1", "tool12", "tool123", "toolx", "tool_"])).toHaveLength(3);
    expect(suggestNames("get", ["gets", "get_all_things"])).toEqual(["gets", "get_all_things"]);
  });
});
