import type { TLocalizedValidationError } from "typebox/error";

/** The most issues one error lists; the rest are summed up in a last line. */
export const MAX_ISSUES = 20;
const MAX_SEGMENT_CHARACTERS = 64;

/** Issue texts for failures found before the schema is consulted. */
export const ROOT_ISSUES = {
  notPlainObject: "/: arguments must be a plain object",
  notCloneable: "/: arguments must contain only structured-clone-compatible values",
  notJson: "/: arguments must be valid JSON",
  tooDeep: "/: arguments are nested too deeply",
} as const;

/** Escapes one JSON Pointer segment: `~` as `~0`, `/` as `~1` (RFC 6901). */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A pointer as shown in an issue: `/` for the root, and overlong segments shortened. */
function showPointer(pointer: string): string {
  if (pointer === "") return "/";
  if (pointer.length <= MAX_SEGMENT_CHARACTERS * 2) return pointer;
  return pointer
    .split("/")
    .map((segment) => (segment.length > MAX_SEGMENT_CHARACTERS ? `${segment.slice(0, MAX_SEGMENT_CHARACTERS)}…` : segment))
    .join("/");
}

/**
 * Turns TypeBox validation errors into `<JSON Pointer>: <message>` issues.
 * A `required` error becomes one issue per missing property, at that
 * property's own pointer. Messages come from the schema (types, limits,
 * patterns), never from the value.
 */
export function toIssues(errors: readonly TLocalizedValidationError[]): string[] {
  const issues = new Set<string>();
  // Each extra property gets its own issue at its pointer; the parent's summary adds nothing.
  const namesExtraProperties = errors.some(isExtraProperty);
  for (const error of errors) {
    if (namesExtraProperties && error.keyword === "additionalProperties") continue;
    if (error.keyword === "required") {
      for (const property of error.params.requiredProperties) {
        issues.add(`${showPointer(`${error.instancePath}/${escapePointerSegment(property)}`)}: must have required properties ${property}`);
      }
    } else {
      issues.add(`${showPointer(error.instancePath)}: ${messageOf(error)}`);
    }
  }
  return capIssues([...issues]);
}

/** Keeps at most {@link MAX_ISSUES} issues, replacing the rest with a count. */
export function capIssues(issues: string[]): string[] {
  if (issues.length <= MAX_ISSUES) return issues;
  const kept = issues.slice(0, MAX_ISSUES - 1);
  kept.push(`/: ${issues.length - kept.length} more issues not shown`);
  return kept;
}

function isExtraProperty(error: TLocalizedValidationError): boolean {
  return error.keyword === "boolean" && error.schemaPath.endsWith("/additionalProperties");
}

function messageOf(error: TLocalizedValidationError): string {
  if (isExtraProperty(error)) return "is not an allowed property";
  // TypeBox lists the offending property names here: they come from the value, so leave them out.
  if (error.keyword === "propertyNames") return "property names are invalid";
  return error.message;
}
