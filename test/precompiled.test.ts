import { Guard } from "typebox/guard";
import { CheckContext } from "typebox/schema";
import { Hashing } from "typebox/system";
import { afterEach, describe, expect, it, vi } from "vitest";
import { precompileValidators, Type } from "../src/index.js";
import * as runtime from "../src/precompiled-runtime.js";

const schemas = [
  Type.Object({ path: Type.String({ pattern: "^[a-z]+$" }), tags: Type.Array(Type.String(), { uniqueItems: true }) }),
  { type: "object", properties: { where: { const: { x: 1 } } }, unevaluatedProperties: false },
  Type.Object({ id: Type.Integer() }),
];

afterEach(() => {
  vi.doUnmock("typebox/compile");
  vi.resetModules();
});

describe("precompileValidators", () => {
  it("writes a module that imports from typebox-tool-registry/precompiled only", () => {
    const imports = precompileValidators(schemas)
      .split("\n")
      .filter((line) => line.startsWith("import "));
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatch(/^import \{ [\w, ]+ \} from "typebox-tool-registry\/precompiled";$/);
  });

  it("imports only what its checks call", () => {
    expect(precompileValidators([Type.Object({ id: Type.Integer() })])).not.toContain("import ");
    expect(precompileValidators([schemas[1]!])).toContain('import { Guard, CheckContext } from "typebox-tool-registry/precompiled";');
  });

  it("re-exports from typebox-tool-registry/precompiled the very objects TypeBox's generated code imports", () => {
    expect(runtime).toMatchObject({ Guard, Hashing, CheckContext });
  });

  it("refuses to write a module that would import something typebox-tool-registry/precompiled does not re-export", async () => {
    vi.doMock("typebox/compile", () => ({ Code: () => ({ Code: 'import { Novelty } from "typebox/novelty"\nexport function Check(value) { return true }', External: {} }) }));
    const { precompileValidators: withNewTypeBox } = await import("../src/precompiled.js");
    expect(() => withNewTypeBox([Type.Object({})])).toThrow('precompileValidators does not know this import of TypeBox\'s generated code: import { Novelty } from "typebox/novelty"');
  });
});
