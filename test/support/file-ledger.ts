import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { JsonValue, LedgerSetOptions, LedgerStore } from "../../src/index.js";

/** A path for a {@link FileLedger}'s file in a folder of its own, removed when the current test finishes. */
export function temporaryLedgerPath(): string {
  const folder = mkdtempSync(join(tmpdir(), "ttr-ledger-"));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return join(folder, "ledger.json");
}

/** A ledger kept in one JSON file: what a restarted process finds again. */
export class FileLedger implements LedgerStore {
  constructor(readonly path: string) {}

  #read(): Record<string, { value: JsonValue; expiresAt: number | null }> {
    if (!existsSync(this.path)) return {};
    return JSON.parse(readFileSync(this.path, "utf8")) as Record<string, { value: JsonValue; expiresAt: number | null }>;
  }

  #write(entries: Record<string, { value: JsonValue; expiresAt: number | null }>): void {
    writeFileSync(this.path, JSON.stringify(entries));
  }

  async get(key: string): Promise<JsonValue | undefined> {
    const entry = this.#read()[key];
    return entry === undefined || (entry.expiresAt !== null && entry.expiresAt <= Date.now()) ? undefined : entry.value;
  }

  async set(key: string, value: JsonValue, options: LedgerSetOptions): Promise<void> {
    const entries = this.#read();
    entries[key] = { value, expiresAt: options.ttlMs === Infinity ? null : Date.now() + options.ttlMs };
    this.#write(entries);
  }

  async delete(key: string): Promise<void> {
    const entries = this.#read();
    delete entries[key];
    this.#write(entries);
  }

  async add(key: string, value: JsonValue, options: LedgerSetOptions): Promise<boolean> {
    if ((await this.get(key)) !== undefined) return false;
    await this.set(key, value, options);
    return true;
  }
}

/** A store whose chosen methods reject, as a store whose server is down does. */
export function failingLedger(base: LedgerStore, failing: ReadonlyArray<keyof LedgerStore>): LedgerStore {
  const fail = (): Promise<never> => Promise.reject(new Error("store is down"));
  return {
    get: failing.includes("get") ? fail : (key) => base.get(key),
    set: failing.includes("set") ? fail : (key, value, options) => base.set(key, value, options),
    delete: failing.includes("delete") ? fail : (key) => base.delete(key),
    add: failing.includes("add") ? fail : (key, value, options) => base.add!(key, value, options),
  };
}
