import { Type, type Static, type TSchema } from "../src/index.js";

/** A schema with valid arguments for it, as a per-call benchmark uses them. */
export interface SchemaFixture {
  /** "small" or "large", as the tables show it. */
  readonly size: "small" | "large";
  readonly schema: TSchema;
  readonly validArguments: Record<string, unknown>;
  /** Arguments with the mistakes a model makes, which the schema refuses. */
  readonly invalidArguments: Record<string, unknown>;
}

/** A `read` tool: a path and two optional bounded integers. */
const smallSchema = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});

const smallArguments: Static<typeof smallSchema> = { path: "src/index.ts", offset: 10, limit: 100 };

/** Small-schema arguments with a negative offset and a limit sent as text. */
const invalidSmallArguments: Record<string, unknown> = { path: "src/index.ts", offset: -10, limit: "100" };

const orderLine = Type.Object({
  sku: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  price: Type.Number({ minimum: 0 }),
  status: Type.Union([Type.Literal("open"), Type.Literal("shipped"), Type.Literal("cancelled")]),
  note: Type.Optional(Type.String()),
});

/**
 * About 15 properties: nested objects, an array of 10 objects, literal
 * unions, optional fields and records.
 */
const largeSchema = Type.Object({
  id: Type.String(),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  mode: Type.Union([Type.Literal("create"), Type.Literal("update"), Type.Literal("upsert")]),
  priority: Type.Union([Type.Literal("low"), Type.Literal("medium"), Type.Literal("high")]),
  dryRun: Type.Boolean(),
  retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  timeoutMs: Type.Optional(Type.Number({ minimum: 0 })),
  tags: Type.Array(Type.String()),
  author: Type.Object({ name: Type.String(), email: Type.String(), roles: Type.Array(Type.String()) }),
  target: Type.Object({
    repo: Type.String(),
    branch: Type.Optional(Type.String()),
    location: Type.Object({ directory: Type.String(), file: Type.String() }),
  }),
  lines: Type.Array(orderLine),
  labels: Type.Record(Type.String(), Type.String()),
  schedule: Type.Optional(
    Type.Object({ start: Type.String(), end: Type.String(), repeat: Type.Union([Type.Literal("none"), Type.Literal("daily"), Type.Literal("weekly")]) }),
  ),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
  notify: Type.Optional(Type.Array(Type.String())),
});

const largeArguments: Static<typeof largeSchema> = {
  id: "order-2024-0042",
  title: "Restock the Paris warehouse",
  mode: "upsert",
  priority: "high",
  dryRun: false,
  retries: 3,
  timeoutMs: 2500,
  tags: ["restock", "europe", "q3"],
  author: { name: "Ada Lovelace", email: "ada@example.com", roles: ["buyer", "admin"] },
  target: { repo: "acme/warehouse", branch: "main", location: { directory: "orders/2024", file: "0042.json" } },
  lines: Array.from({ length: 10 }, (_, index) => ({
    sku: `SKU-${1000 + index}`,
    quantity: index + 1,
    price: 9.99 + index,
    status: index % 3 === 0 ? "shipped" : "open",
    ...(index % 4 === 0 ? { note: "fragile" } : {}),
  })),
  labels: { team: "logistics", region: "eu-west", cost_center: "4711" },
  schedule: { start: "2024-07-01", end: "2024-07-31", repeat: "weekly" },
  metadata: { source: "planner", version: 7, urgent: true },
  notify: ["ops@example.com"],
};

/** Large-schema arguments with the mistakes a model makes: an unknown literal, a bound broken deep down, a missing field. */
const invalidLargeArguments: Record<string, unknown> = {
  ...largeArguments,
  mode: "replace",
  lines: largeArguments.lines.map((line, index) => (index === 3 ? { ...line, quantity: 0 } : line)),
  author: { name: "Ada Lovelace", roles: ["buyer"] },
};

/** The small and the large per-call fixtures. */
export const fixtures: readonly SchemaFixture[] = [
  { size: "small", schema: smallSchema, validArguments: smallArguments, invalidArguments: invalidSmallArguments },
  { size: "large", schema: largeSchema, validArguments: largeArguments, invalidArguments: invalidLargeArguments },
];
