import { type Static, type TSchema, Type } from "../src/index.js";

/** One streamed call's arguments for the streaming benchmark: a tool schema, and JSON text of about the asked size. */
export interface StreamingPayload {
  /** What the tables call it. */
  readonly name: string;
  readonly schema: TSchema;
  /** The arguments' JSON text. */
  readonly text: string;
}

const record = Type.Object(
  {
    id: Type.Integer({ minimum: 0 }),
    sku: Type.String({ pattern: "^[A-Z]{3}-[0-9]+$" }),
    name: Type.String({ maxLength: 80 }),
    price: Type.Number({ minimum: 0 }),
    quantity: Type.Integer({ minimum: 0 }),
    status: Type.Union([Type.Literal("active"), Type.Literal("archived"), Type.Literal("draft")]),
    tags: Type.Array(Type.String(), { maxItems: 5 }),
    inStock: Type.Boolean(),
    dimensions: Type.Object({ width: Type.Number(), height: Type.Number(), unit: Type.Union([Type.Literal("cm"), Type.Literal("in")]) }),
  },
  { additionalProperties: false },
);

/** A batch upsert: `{ table, records: [...] }`, structured data of every JSON kind. */
const upsertSchema = Type.Object({ table: Type.String(), records: Type.Array(record) }, { additionalProperties: false });

/** A file write: a path and the file's content, one long string with escapes. */
const writeSchema = Type.Object({ path: Type.String(), content: Type.String(), createDirectories: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const WORDS = "alpha beta gamma delta lamp chair table desk shelf cable adapter screen paper ink box frame glass steel oak pine".split(" ");

/** A fixed pseudo-random sequence, so that every run measures the same text. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

/** A batch upsert of about `bytes` of JSON text. */
export function upsertPayload(bytes: number): StreamingPayload {
  const next = random(11);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const records: Array<Static<typeof record>> = [];
  let text = "";
  for (let index = 0; text.length < bytes; index++) {
    records.push({
      id: index,
      sku: `${["ABC", "DEF", "XYZ"][index % 3]}-${1000 + index}`,
      name: `${pick()} ${pick()} "${pick()}" ${pick()}`,
      price: Math.round(next() * 100_000) / 100,
      quantity: Math.floor(next() * 500),
      status: (["active", "archived", "draft"] as const)[index % 3]!,
      tags: [pick(), pick()],
      inStock: index % 4 !== 0,
      dimensions: { width: Math.round(next() * 2000) / 10, height: Math.round(next() * 2000) / 10, unit: index % 2 === 0 ? "cm" : "in" },
    });
    text = JSON.stringify({ table: "products", records });
  }
  return { name: "batch upsert (structured)", schema: upsertSchema, text };
}

/** A file write of about `bytes` of JSON text: source code, its newlines and quotes escaped. */
export function fileWritePayload(bytes: number, source: string): StreamingPayload {
  let content = "";
  while (content.length < bytes) content += source;
  const text = JSON.stringify({ path: "src/generated/module.ts", content: content.slice(0, bytes), createDirectories: true });
  return { name: "file write (one long string)", schema: writeSchema, text };
}

/**
 * The text in pieces of 1 to 64 characters (a fixed pseudo-random sequence), each its own flat
 * string, as an SDK hands a stream's pieces over (parsed from each event, never a slice of one text).
 */
export function randomDeltas(text: string, seed = 7): string[] {
  const next = random(seed);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const size = 1 + Math.floor(next() * 64);
    pieces.push(flat(text.slice(start, start + size)));
    start += size;
  }
  return pieces;
}

/** The text in pieces of exactly `size` characters, each its own flat string. */
export function fixedDeltas(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(flat(text.slice(start, start + size)));
  return pieces;
}

/** A copy of `text` that shares no memory with it, as a string parsed from an event is. */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
