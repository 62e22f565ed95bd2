import type { TimedGroup } from "./groups.js";
import { measureInterleaved, type MeasureSettings } from "./measure.js";
import { invalidPathCases, MANY_TOOLS, manyToolsCases, perCallCases, rivalCase, signalCases, type ArgumentsForm, type SubjectCase } from "./per-call-cases.js";
import type { Progress } from "./progress.js";
import { RIVALS } from "./rivals/all.js";
import { fixtures } from "./schemas.js";

/** Everything the per-call section measured. */
export interface PerCallResult {
  readonly groups: readonly TimedGroup[];
}

/**
 * Times every per-call case, one interleaved group per schema size and
 * arguments form (the registry, the reference, the baselines and every
 * rival), then the same dispatch with a signal and with a timeout, then
 * many tools called in turn, then valid against invalid arguments on each schema.
 */
export async function runPerCall(settings: MeasureSettings, progress: Progress): Promise<PerCallResult> {
  const small = fixtures.find((fixture) => fixture.size === "small")!;
  const parts = fixtures.length * 2 + 2 + fixtures.length;
  progress.begin("per-call", parts);
  const groups: TimedGroup[] = [];
  let part = 0;
  const timeGroup = async (id: string, title: string, cases: Parameters<typeof measureInterleaved>[0]): Promise<void> => {
    const timings = await measureInterleaved(cases, settings, progress.measuring(++part, title));
    groups.push({ id, title, timings });
  };
  for (const fixture of fixtures) {
    for (const form of ["object", "json"] as const satisfies readonly ArgumentsForm[]) {
      const rivals = (await Promise.all(RIVALS.map((rival) => rivalCase(rival, fixture, form)))).filter((rival): rival is SubjectCase => rival !== undefined);
      await timeGroup(`${fixture.size} ${form}`, `${fixture.size} schema, ${form === "json" ? "JSON-text" : "object"} arguments`, [...perCallCases(fixture, form), ...rivals]);
      for (const rival of rivals) await rival.close();
    }
  }
  await timeGroup("small signal", "small schema, object arguments: no signal, a caller's signal, timeoutMs", signalCases(small));
  await timeGroup("many tools", `${MANY_TOOLS} small schemas, object arguments, the tools called in turn`, manyToolsCases());
  for (const fixture of fixtures) {
    await timeGroup(`${fixture.size} invalid`, `${fixture.size} schema, valid vs invalid arguments`, invalidPathCases(fixture));
  }
  return { groups };
}
