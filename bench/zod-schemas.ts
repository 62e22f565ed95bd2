import { z } from "zod";
import type { SchemaFixture } from "./schemas.js";

const smallZodSchema = z.object({
  path: z.string(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).optional(),
});

const orderLine = z.object({
  sku: z.string(),
  quantity: z.number().int().min(1),
  price: z.number().min(0),
  status: z.enum(["open", "shipped", "cancelled"]),
  note: z.string().optional(),
});

const largeZodSchema = z.object({
  id: z.string(),
  title: z.string().min(1).max(200),
  mode: z.enum(["create", "update", "upsert"]),
  priority: z.enum(["low", "medium", "high"]),
  dryRun: z.boolean(),
  retries: z.number().int().min(0).max(10).optional(),
  timeoutMs: z.number().min(0).optional(),
  tags: z.array(z.string()),
  author: z.object({ name: z.string(), email: z.string(), roles: z.array(z.string()) }),
  target: z.object({
    repo: z.string(),
    branch: z.string().optional(),
    location: z.object({ directory: z.string(), file: z.string() }),
  }),
  lines: z.array(orderLine),
  labels: z.record(z.string(), z.string()),
  schedule: z.object({ start: z.string(), end: z.string(), repeat: z.enum(["none", "daily", "weekly"]) }).optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  notify: z.array(z.string()).optional(),
});

/** The zod schema equivalent to a fixture's TypeBox schema. */
export function zodSchemaFor(size: SchemaFixture["size"]): z.ZodObject {
  return size === "small" ? smallZodSchema : largeZodSchema;
}
