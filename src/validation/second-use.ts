import { Compile } from "typebox/compile";
import { Check as interpretedCheck } from "typebox/schema";

/** What the registry asks of a TypeBox validator (TypeBox's `Validator`, or a precompiled one). */
export interface TypeBoxCheck {
  Check(value: unknown): boolean;
  IsAccelerated(): boolean;
}

/**
 * The most nodes (objects, arrays and values together) of a first value that TypeBox's interpreter
 * checks: about 0.7 µs a node there against a few nanoseconds compiled, so that at worst the
 * interpreted first check costs about what compiling would (100 to 300 µs). A larger first value
 * compiles the check at once.
 */
export const MAX_INTERPRETED_NODES = 128;

/**
 * A schema's TypeBox check, compiled on its second use. Compiling costs 100 to 300 µs a schema
 * (TypeBox's `Compile`, then V8 compiling the generated function on its first run), where TypeBox's
 * interpreter checks a typical first call's arguments in a few microseconds: so the first value, when
 * it is small ({@link MAX_INTERPRETED_NODES}), is checked by the interpreter, and every later one by
 * the compiled check. A tool called once never pays for compiling, and a new tool's first call
 * costs its `register` and little more. The interpreter is TypeBox's own `Check` of the same
 * (transformed) schema, which TypeBox's `Compile` itself falls back to where code generation is
 * forbidden: the two decide alike (a property test holds them to it).
 *
 * Made only where code generation is allowed: elsewhere TypeBox's validator is the interpreter anyway.
 */
export class CompiledOnSecondUse implements TypeBoxCheck {
  readonly #schema: object;
  readonly #compiling: CompileHooks;
  #compiled: TypeBoxCheck | undefined;
  /** The error of a compile that failed: every later use throws it at once. */
  #failure: Error | undefined;
  #checked = false;

  /**
   * @param schema the schema as TypeBox is to compile it (transformed: see `transformSchema`)
   * @param compiling what to do with the time compiling takes, and with an error it throws
   */
  constructor(schema: object, compiling: CompileHooks) {
    this.#schema = schema;
    this.#compiling = compiling;
  }

  /** Whether the check was compiled (on a second use, or a first value too large to interpret). */
  get compiled(): boolean {
    return this.#compiled !== undefined;
  }

  /**
   * Whether `value` matches the schema.
   * @throws Error the error `compiling.failed` makes, when the schema cannot compile (on the use that compiles it, and every use after)
   */
  Check(value: unknown): boolean {
    const compiled = this.#compiled;
    if (compiled !== undefined) return compiled.Check(value);
    if (!this.#checked && hasAtMostNodes(value, MAX_INTERPRETED_NODES)) {
      this.#checked = true;
      return interpretedCheck(this.#schema as never, value);
    }
    return this.#compile().Check(value);
  }

  /** True: the check runs generated code from its second use on. */
  IsAccelerated(): boolean {
    return true;
  }

  /**
   * Compiles the check now, if it was not yet (`compileAll`).
   * @throws Error the error `compiling.failed` made, when the schema cannot compile (the same error each time)
   */
  compile(): void {
    if (this.#compiled === undefined) this.#compile();
  }

  #compile(): TypeBoxCheck {
    // Compiling again would fail again, after as long (a stack overflow takes a quarter of a second).
    if (this.#failure !== undefined) throw this.#failure;
    const started = performance.now();
    try {
      this.#compiled = Compile(this.#schema as never);
      return this.#compiled;
    } catch (error) {
      this.#failure = this.#compiling.failed(error);
      throw this.#failure;
    } finally {
      this.#compiling.took(performance.now() - started);
    }
  }
}

/** What a {@link CompiledOnSecondUse} tells its cache when it compiles. */
export interface CompileHooks {
  /** Told how long compiling took, in milliseconds. */
  took(milliseconds: number): void;
  /** The error to throw for what TypeBox's `Compile` threw. */
  failed(error: unknown): Error;
}

/**
 * Whether `value` has at most `max` nodes (itself, and every object, array and value inside),
 * found without going past the first `max` of them (an object's values are listed whole). Never
 * throws: a value that cannot be read through is not small.
 */
export function hasAtMostNodes(value: unknown, max: number): boolean {
  const pending: unknown[] = [value];
  let nodes = 1;
  try {
    while (pending.length > 0) {
      const node = pending.pop();
      if (typeof node !== "object" || node === null) continue;
      const children = Array.isArray(node) ? (node as unknown[]) : Object.values(node);
      nodes += children.length;
      if (nodes > max) return false;
      for (const child of children) pending.push(child);
    }
    return true;
  } catch {
    return false;
  }
}
