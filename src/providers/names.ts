import type { ToolDefinition } from "../types.js";
import { type ProviderName, ProviderNameError } from "./errors.js";

/** Names every provider accepts: a letter or `_` first, then letters, digits, `_` and `-`; at most 64. */
const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX_PROVIDER_NAME = 64;

/** Anything with the registry's `list()`: a `ToolRegistry`. */
interface ToolLister {
  list(): readonly ToolDefinition[];
}

/**
 * A reversible map between registry tool names and names every provider
 * accepts, for registries with names such as `uber.ride` that OpenAI and
 * Anthropic refuse (they accept only `^[a-zA-Z0-9_-]{1,64}$`).
 *
 * Names that are already safe everywhere (a letter or `_` first, then letters,
 * digits, `_` and `-`, at most 64 characters) map to themselves. Any other
 * name gets its unsafe characters replaced by `_` (`uber.ride` becomes
 * `uber_ride`), a leading `_` if it starts with a digit or `-`, is cut to 64
 * characters, and gets a `_2`, `_3`… suffix if that is taken. Safe names are
 * claimed first, so a mapped name never takes the name of a tool mapped with
 * it. Names first seen later are mapped on first use, and a mapping never changes.
 *
 * An adapter made with `names: "map"` builds one from its registry and keeps
 * it for both directions: its `tools()` sends the mapped names, its `call()`
 * maps them back. The adapter's `nameMap` is that map.
 */
export class ToolNameMap {
  readonly #toProvider = new Map<string, string>();
  readonly #fromProvider = new Map<string, string>();

  /**
   * @param tools a registry (its current tools are mapped now) or tool names
   * @throws TypeError for a single string instead of a list of names
   */
  constructor(tools: ToolLister | Iterable<string> = []) {
    if (typeof tools === "string") throw new TypeError("ToolNameMap takes a registry or a list of names, not one name");
    const names = isLister(tools) ? tools.list().map((definition) => definition.name) : Array.from(tools, String);
    this.toProviderNames(names);
  }

  /**
   * The provider names of registry tool names, in order, mapping new ones now:
   * the names that are safe everywhere first, so that none of them is taken by
   * a mapped name of the same list.
   */
  toProviderNames(names: readonly string[]): string[] {
    for (const name of names) if (SAFE_NAME.test(name)) this.toProviderName(name);
    return names.map((name) => this.toProviderName(name));
  }

  /** The provider name of a registry tool name, mapping it now if it is new. */
  toProviderName(name: string): string {
    const known = this.#toProvider.get(name);
    if (known !== undefined) return known;
    const base = SAFE_NAME.test(name) ? name : sanitize(name);
    let candidate = base;
    for (let suffix = 2; this.#fromProvider.has(candidate); suffix++) {
      const tail = `_${suffix}`;
      candidate = `${base.slice(0, MAX_PROVIDER_NAME - tail.length)}${tail}`;
    }
    this.#assign(name, candidate);
    return candidate;
  }

  /** The provider name of a registry tool name if it has been mapped, else `undefined`. */
  providerNameOf(name: string): string | undefined {
    return this.#toProvider.get(name);
  }

  /**
   * The registry name behind a provider name. A name this map never handed
   * out is returned unchanged, so that dispatch reports it as an unknown tool
   * with suggestions (or runs the tool whose own registry name it is).
   */
  fromProviderName(providerName: string): string {
    return this.#fromProvider.get(providerName) ?? providerName;
  }

  /** Every mapping so far, as `[registryName, providerName]` pairs. */
  entries(): Array<[string, string]> {
    return [...this.#toProvider];
  }

  #assign(name: string, providerName: string): void {
    this.#toProvider.set(name, providerName);
    this.#fromProvider.set(providerName, name);
  }
}

function sanitize(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9_-]/g, "_");
  const started = /^[A-Za-z_]/.test(replaced) ? replaced : `_${replaced}`;
  return started.slice(0, MAX_PROVIDER_NAME);
}

function isLister(value: unknown): value is ToolLister {
  return typeof value === "object" && value !== null && typeof (value as { list?: unknown }).list === "function";
}

/** A provider's rule for tool names, as a test and as text for messages. */
export interface NameRule {
  readonly provider: ProviderName;
  readonly pattern: RegExp;
  readonly text: string;
}

/** OpenAI's rule (Chat Completions and Responses): `^[a-zA-Z0-9_-]{1,64}$`. */
export const OPENAI_NAMES = { pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "^[a-zA-Z0-9_-]{1,64}$" } as const;
/** Anthropic's rule: `^[a-zA-Z0-9_-]{1,64}$`. */
export const ANTHROPIC_NAMES = { pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "^[a-zA-Z0-9_-]{1,64}$" } as const;
/** Gemini's rule: a letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`; at most 64. */
export const GEMINI_NAMES = { pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, text: "^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$" } as const;

/**
 * The provider names of registry tool names: mapped through `map`, or with no
 * map (`names: "strict"`) the names themselves, each checked against the provider's rule.
 * @throws ProviderNameError for a name the provider rejects (with no map)
 */
export function providerNames(names: readonly string[], map: ToolNameMap | undefined, rule: NameRule): string[] {
  if (map !== undefined) return map.toProviderNames(names);
  for (const name of names) if (!rule.pattern.test(name)) throw new ProviderNameError(name, rule.provider, rule.text);
  return [...names];
}
