import type { z } from "zod";
import type { TSchema } from "../../src/index.js";

/** One tool's schema, written for each kind of library: TypeBox (which is JSON Schema) and Zod. */
export interface SchemaPair {
  readonly typebox: TSchema;
  readonly zod: z.ZodObject;
}

/** The handler every subject runs: it gets the arguments as the library hands them over. */
export type BenchHandler = (args: unknown) => unknown;

/**
 * One tool set up in a library, ready to take calls. Each method runs one
 * call through the library's own path, up to and including the handler, and
 * resolves to what the library gives back; it rejects where the library
 * throws. A method is missing where the library does not take that form.
 */
export interface Invoker {
  /** A call whose arguments are an object. */
  readonly object?: (args: Record<string, unknown>) => Promise<unknown>;
  /** A call whose arguments are the JSON text a provider delivered. */
  readonly text?: (text: string) => Promise<unknown>;
  /** Releases what the set-up holds (a connected transport). */
  readonly close?: () => Promise<void>;
}

/** A library that can run a tool call, as the bench races it and the behaviour probe tries it. */
export interface Subject {
  /** Stable key, used in results.json and in ratios. */
  readonly id: string;
  /** What the tables show: the library and the path taken. */
  readonly label: string;
  /** The npm package whose installed version the tables show. */
  readonly packageName: string;
  /** The calls the bench makes, in a few words, for the documentation and the report. */
  readonly calls: string;
  /** Sets up one tool with `schemas` and `handler`. */
  connect(schemas: SchemaPair, handler: BenchHandler): Promise<Invoker>;
}
