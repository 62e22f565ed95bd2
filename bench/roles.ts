/** What a timed case stands for, which decides its colour in the chart and the report. */
export type CaseRole = "registry" | "reference" | "baseline" | "rival" | "invalid";

const REGISTRY_CASES = new Set(["dispatch", "valid", "signal", "timeout", "registry-mcp", "register-first-call"]);
const BASELINE_CASES = new Set(["compile-per-call", "structured-clone", "compile", "mcp-sdk-bare"]);

/** The role of the case with this id. */
export function caseRole(id: string): CaseRole {
  if (REGISTRY_CASES.has(id)) return "registry";
  if (id === "reference") return "reference";
  if (id === "invalid") return "invalid";
  return BASELINE_CASES.has(id) ? "baseline" : "rival";
}

/** Each role's colour and what the legend says of it. */
export const ROLES: Readonly<Record<CaseRole, { readonly color: string; readonly legend: string }>> = {
  registry: { color: "#2563eb", legend: "typebox-tool-registry" },
  reference: { color: "#16a34a", legend: "inline reference: copy or parse by hand, cached TypeBox check" },
  baseline: { color: "#9ca3af", legend: "naive paths and floors" },
  rival: { color: "#f59e0b", legend: "rival libraries" },
  invalid: { color: "#dc2626", legend: "registry, invalid arguments" },
};
