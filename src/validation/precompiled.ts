import type { TSchema } from "typebox";
import { Code } from "typebox/compile";
import { describeOption } from "../options.js";
import { canonicalJson, declaredOrderJson } from "../schema/canonical.js";
import type { ToolDefinition } from "../types.js";
import { type FusedCopy, fusedSource } from "./fused.js";
import { FUSED_HELPERS } from "./fused-runtime.js";
import { type JsonReader, jsonReaderSource, READER_HELPERS } from "./json-reader.js";
import { transformSchema } from "./transform.js";

/** One generated validator, as emitted by {@link precompileValidators}. */
export interface PrecompiledValidator {
  /** Hands the generated code the regular expressions and format checks it refers to. */
  SetExternal(external: unknown): void;
  /** The generated check. */
  Check(value: unknown): boolean;
  /**
   * The generated fused copy-and-check, made from the helpers and its externals; absent for a schema
   * without one. The function it makes takes a plain object only (see `FusedCopy`), as the registry gives it.
   */
  Fused?: (helpers: unknown, externals: readonly unknown[]) => FusedCopy;
  /**
   * A digest of `Fused`'s source: it reads its externals by position, so it is used only where
   * this version generates the very same source for the schema (absent in modules of earlier versions, whose `Fused` is then not used).
   */
  FusedKey?: string;
  /** The generated JSON reader, made from its helpers; absent for a schema without one. */
  Reader?: (helpers: unknown) => JsonReader;
  /** A digest of `Reader`'s source: used only where this version generates the very same source (absent in modules of earlier versions). */
  ReaderKey?: string;
}

/** The `validators` export of a module written by {@link precompileValidators}: keyed by canonical schema JSON. */
export type PrecompiledValidators = Readonly<Record<string, PrecompiledValidator>>;

// What TypeBox's generated code imports, and where `typebox-tool-registry/precompiled` re-exports it from.
const RUNTIME_IMPORTS = new Map([
  ["Guard", "typebox/guard"],
  ["Hashing", "typebox/system"],
  ["CheckContext", "typebox/schema"],
]);
const TYPEBOX_IMPORT = /^import \{ (\w+) \} from ["'](typebox\/[\w/]+)["'];?$/;

/**
 * Writes the source of an ES module that exports `validators`: generated
 * TypeBox checks for the given tools' schemas. Save it as a file at build
 * time, import it where code generation is forbidden (a Content-Security-Policy
 * without `unsafe-eval`), and pass it as `new ToolRegistry({ precompiled: validators })`.
 * A schema is matched by its canonical JSON, so a changed schema is never
 * checked by a stale validator: it falls back to TypeBox's interpreter.
 *
 * The module imports from `typebox-tool-registry/precompiled` only (never
 * `typebox`, which pnpm does not make reachable from an application), and is
 * valid as JavaScript and as TypeScript: save it as `.ts` in a TypeScript
 * project (tsc type-checks and emits it like any source file), or as `.js`.
 * @throws TypeError for `tools` that is not iterable, an entry that is not an object, or a schema that is not plain JSON
 */
export function precompileValidators(tools: Iterable<ToolDefinition | TSchema>): string {
  if (typeof (tools as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] !== "function") throw new TypeError(`precompileValidators needs an iterable of tool definitions or schemas, got ${describeOption(tools)}`);
  const imported = new Set<string>();
  const entries = new Map<string, string>();
  for (const tool of tools) {
    if (typeof tool !== "object" || tool === null) throw new TypeError(`precompileValidators needs tool definitions or schema objects, got ${tool === null ? "null" : typeof tool}`);
    const schema = isDefinition(tool) ? tool.parameters : tool;
    const form = precompiledForm(schema);
    if (form === undefined) throw new TypeError("precompileValidators needs schemas that are plain JSON");
    if (entries.has(form.key)) continue;
    const key = form.key;
    const body: string[] = [];
    for (const line of Code(form.compiled as TSchema).Code.split("\n")) {
      if (line.startsWith("import ")) runtimeImport(line);
      else body.push(line.replace(/^export function /, "function "));
    }
    const code = body.join("\n");
    // Import only what some check calls: a TypeScript project may refuse unused imports.
    for (const name of RUNTIME_IMPORTS.keys()) if (new RegExp(`\\b${name}\\b`).test(code)) imported.add(name);
    const fused = fusedSource(form.declared);
    // The fused copy-and-check as source too: the same speed where code generation is forbidden.
    const fusedMember = fused === undefined ? "" : `, FusedKey: ${JSON.stringify(sourceKey(fused.body))}, Fused: (H, X) => {\n${fused.body}\n  }`;
    // And the JSON reader: JSON text read as fast as where code generation is allowed.
    const reader = jsonReaderSource(form.declared);
    const readerMember = reader === undefined ? "" : `, ReaderKey: ${JSON.stringify(sourceKey(reader))}, Reader: (H) => {\n${reader}\n  }`;
    entries.set(key, `  ${JSON.stringify(key)}: (() => {\n${code}\n  return { SetExternal, Check${fusedMember}${readerMember} };\n  })(),`);
  }
  const names = [...RUNTIME_IMPORTS.keys()].filter((name) => imported.has(name));
  return [
    // Generated code is JavaScript whose functions take untyped parameters: as TypeScript it is left unchecked.
    ...(entries.size > 0 ? ["// @ts-nocheck"] : []),
    "// Generated by typebox-tool-registry precompileValidators(). Do not edit; generate again when a schema changes.",
    ...(names.length === 0 ? [] : [`import { ${names.join(", ")} } from "typebox-tool-registry/precompiled";`]),
    "",
    "export const validators = {",
    ...entries.values(),
    "};",
    "",
  ].join("\n");
}

/** Checks one import line of TypeBox's generated code against what `typebox-tool-registry/precompiled` re-exports. */
function runtimeImport(line: string): void {
  const match = TYPEBOX_IMPORT.exec(line.trim());
  if (match === null || RUNTIME_IMPORTS.get(match[1]!) !== match[2]) {
    // A TypeBox release that imports something new: generating a module that cannot load would be worse.
    throw new Error(`precompileValidators does not know this import of TypeBox's generated code: ${line.slice(0, 200)}`);
  }
}

/**
 * What a precompiled validator is generated from, and matched by: the schema's canonical JSON
 * (keys sorted), parsed back and transformed as every compiled schema is. Generating the check from
 * the canonical form, at build time and at run time alike, makes its code and its external table
 * (the regular expressions, refinements and format checks it refers to by position) the same
 * whatever order the schema's keys were written in. The fused copy-and-check is generated from the
 * same JSON with each `properties` keyword's names in their declared order (`declared`). `undefined`
 * for a schema that is not plain JSON (a refinement, an `undefined` value), which no module can hold.
 */
function precompiledForm(schema: object): { key: string; canonical: object; declared: object; compiled: object } | undefined {
  const key = canonicalJson(schema);
  if (key === undefined) return undefined;
  let canonical: object;
  try {
    canonical = JSON.parse(key) as object;
  } catch {
    // The canonical text of a schema holding `undefined` is not JSON.
    return undefined;
  }
  // The fused copy-and-check expects each object's properties in their declared order: it is
  // generated from that form, and used at run time only for a schema declaring them in that order.
  const declared = JSON.parse(declaredOrderJson(schema)!) as object;
  return { key, canonical, declared, compiled: transformSchema(canonical) };
}

/** A validator for `schema` from precompiled code, or `undefined` if the module has none for it. */
export function fromPrecompiled(
  precompiled: PrecompiledValidators,
  schema: TSchema,
): { Check(value: unknown): boolean; IsAccelerated(): boolean; fused: FusedCopy | undefined; reader: JsonReader | undefined } | undefined {
  const form = precompiledForm(schema);
  const generated = form === undefined || !Object.hasOwn(precompiled, form.key) ? undefined : precompiled[form.key];
  if (form === undefined || generated === undefined) return undefined;
  // Building the external tables generates code as text only; nothing is evaluated.
  generated.SetExternal(Code(form.compiled as TSchema).External);
  const fused = typeof generated.Fused === "function" && typeof generated.FusedKey === "string" ? fusedSource(form.declared) : undefined;
  // Another version's fused source may read its externals in another order: then the check alone.
  const sameSource = fused !== undefined && generated.FusedKey === sourceKey(fused.body);
  // Another version's reader may read otherwise: then JSON.parse.
  const reader = typeof generated.Reader === "function" && typeof generated.ReaderKey === "string" ? jsonReaderSource(form.declared) : undefined;
  return {
    Check: (value) => generated.Check(value),
    IsAccelerated: () => true,
    fused: sameSource ? generated.Fused!(FUSED_HELPERS, fused.externals) : undefined,
    reader: reader !== undefined && generated.ReaderKey === sourceKey(reader) ? generated.Reader!(READER_HELPERS) : undefined,
  };
}

/** A digest of a generated function's source (FNV-1a, 32 bits, with its length): tells two generators' sources apart. */
function sourceKey(body: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < body.length; index++) hash = Math.imul(hash ^ body.charCodeAt(index), 0x01000193);
  return `${body.length.toString(36)}-${(hash >>> 0).toString(36)}`;
}

function isDefinition(value: ToolDefinition | TSchema): value is ToolDefinition {
  return typeof (value as ToolDefinition).name === "string" && typeof (value as ToolDefinition).parameters === "object";
}
