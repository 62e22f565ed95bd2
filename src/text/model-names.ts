/**
 * The names a model knows the registry's tools by, when they were sent
 * through a name map (`ToolNameMap` of `typebox-tool-registry/providers` is one).
 */
export interface ModelNames {
  /** The name the model was sent for a registry tool name (mapped now if it is new). */
  toProviderName(name: string): string;
  /** The name the model was sent for a registry tool name, or `undefined` if it was never sent one. */
  providerNameOf(name: string): string | undefined;
}

// Calls read from a provider through a name map, and that map: text for the model names tools as
// the model knows them. A WeakMap, so that nothing is added to the call object and nothing is kept alive.
const namesOfCalls = new WeakMap<object, ModelNames>();

/** Records that `call` came through `names`, so that text for the model about it uses the model's names. */
export function rememberModelNames(call: object, names: ModelNames): void {
  namesOfCalls.set(call, names);
}

/** The name map a call came through, if any. */
export function modelNamesOf(call: unknown): ModelNames | undefined {
  return typeof call === "object" && call !== null ? namesOfCalls.get(call) : undefined;
}
