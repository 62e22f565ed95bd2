import type { PatternTester } from "../schema/patterns.js";

/** Thrown by the RegExp methods a {@link LinearPattern} does not run (only `test` is used by validation). */
export class LinearPatternError extends Error {
  override readonly name = "LinearPatternError";
}

/**
 * A schema's `pattern` for TypeBox when it needs the linear-time engine: TypeBox takes any
 * `RegExp` as a pattern and calls its `test`, which runs the linear-time tester here. `source`
 * stays the schema's pattern, for messages. Nothing but `test` runs: `exec` (and so `match`,
 * `replace`, …) would run the backtracking engine on the original pattern, so it refuses.
 */
export class LinearPattern extends RegExp {
  readonly #tester: PatternTester;

  constructor(source: string, tester: PatternTester) {
    super(source, "u");
    this.#tester = tester;
  }

  /** Whether `text` contains a match, in time linear in the text. */
  override test(text: string): boolean {
    return this.#tester.test(text);
  }

  /** @throws LinearPatternError always: only `test` runs in linear time. */
  override exec(_text: string): RegExpExecArray | null {
    throw new LinearPatternError("a linear-time schema pattern answers only test()");
  }
}
