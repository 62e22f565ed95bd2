import type { TimedGroup } from "./groups.js";
import { measureInterleaved, type MeasureSettings } from "./measure.js";
import { rivalCase, type SubjectCase } from "./per-call-cases.js";
import type { Progress } from "./progress.js";
import { MCP_SERVERS } from "./rivals/all.js";
import { fixtures } from "./schemas.js";

/** The MCP section: one group per schema size. */
export interface McpResult {
  readonly groups: readonly TimedGroup[];
}

/**
 * One `tools/call` round trip per operation: the SDK's `Client` over its
 * `InMemoryTransport` to this library's `createMcpServer`, to the SDK's own
 * `McpServer` with a Zod schema, and to a bare `Server` that checks nothing.
 */
export async function runMcpRoundTrip(settings: MeasureSettings, progress: Progress): Promise<McpResult> {
  progress.begin("MCP server", fixtures.length);
  const groups: TimedGroup[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    const cases = (await Promise.all(MCP_SERVERS.map((server) => rivalCase(server, fixture, "object")))).filter((entry): entry is SubjectCase => entry !== undefined);
    const title = `${fixture.size} schema, tools/call over the in-memory transport`;
    groups.push({ id: `${fixture.size} mcp`, title, timings: await measureInterleaved(cases, settings, progress.measuring(index + 1, title)) });
    for (const entry of cases) await entry.close();
  }
  return { groups };
}
