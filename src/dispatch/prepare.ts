import { ToolArgumentsValidationError, ToolNotAllowedError, UnknownToolError } from "../errors.js";
import type { TSchema } from "typebox";
import { ROOT_ISSUES } from "../text/issues.js";
import { suggestNames } from "../text/suggest.js";
import { CheckOutcome, checkValue, fusedPrivateCopy, parsedArguments, privateCopy, refusalIssues, repairAndCheck } from "../validation/arguments.js";
import type { FusedState } from "../validation/fused-runtime.js";
import type { CompiledValidator, ValidatorSlot } from "../validation/cache.js";
import type { ArgumentRepair, ToolDefinition, ToolHandler } from "../types.js";
import { type CallFields, UNREADABLE } from "./call-fields.js";
import type { ToolPolicy } from "../policy/policy.js";
import type { RefusedTool, RepeatedFailures } from "./repeated-failures.js";

/**
 * A tool as the registry holds it: its frozen definition (with the schema's private snapshot), its
 * handler, and its last refusal until its arguments next pass.
 */
export interface RegisteredTool extends RefusedTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler<TSchema>;
  readonly timeoutMs: number | undefined;
  /** How its execution is governed; `undefined` for a tool with no such options, whose calls take the plain path. */
  readonly policy: ToolPolicy | undefined;
  /** The options it was registered with, as given (checked), frozen. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Where the registry's validator cache keeps its `parameters` validator between its calls. */
  readonly validatorSlot: ValidatorSlot;
}

/** A call ready to run: its tool, its id, and the private, checked value of its arguments. */
export interface PreparedCall {
  readonly tool: RegisteredTool;
  readonly toolCallId: string;
  /** The private copy (or fresh parse) of the arguments, checked against the tool's schema. */
  readonly args: unknown;
  /** The repairs made to the arguments, when repair is on and made any. */
  readonly repairs: readonly ArgumentRepair[] | undefined;
}

/** What the prepare step needs of a registry. */
export interface PrepareContext {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** The cached validator of a tool's schema, compiled on first use. */
  validator(tool: RegisteredTool): CompiledValidator;
  readonly maxArgumentBytes: number;
  /** Set when repair is on: told of each repaired call before it runs. */
  readonly onRepair: ((report: RepairReport) => void) | undefined;
  /** Recognises and counts refusals that repeat the tool's last one. */
  readonly failures: RepeatedFailures;
}

/** What a registry's `onRepair` callback receives for each repaired call. */
export interface RepairReport {
  toolName: string;
  toolCallId: string;
  /** Each repair: its JSON Pointer and the JSON type before and after (never the value). */
  repairs: readonly ArgumentRepair[];
}

/**
 * The tool a call names, if this dispatch may run it.
 * @param allowed which registered tools this dispatch may run (all when unset): the others are
 * refused, and never named in suggestions
 * @throws UnknownToolError when no tool has the call's name, with the close names and the registered ones
 * @throws ToolNotAllowedError when the tool is registered but not allowed
 */
export function lookUpTool(fields: Pick<CallFields, "name" | "shownName">, context: Pick<PrepareContext, "tools">, allowed?: (toolName: string) => boolean): RegisteredTool {
  const tool = fields.name === undefined ? undefined : context.tools.get(fields.name);
  if (tool !== undefined && (allowed === undefined || allowed(tool.name))) return tool;
  const names = allowed === undefined ? [...context.tools.keys()] : [...context.tools.keys()].filter(allowed);
  if (tool !== undefined) throw new ToolNotAllowedError(tool.name, names);
  // A name that is not a string (the number 5) names no tool, even one whose name reads the same: no suggestion.
  throw new UnknownToolError(fields.shownName, fields.name === undefined ? [] : suggestNames(fields.shownName, names), names);
}

/**
 * The prepare step of a dispatch, synchronous: look-up by name, a private value of the
 * arguments (a copy, or a parse of JSON text under `maxArgumentBytes`), a strict check, and,
 * when repair is on and the check fails, an unambiguous repair checked again. Every gate comes
 * before the check, so only a value that passed them all may be repaired.
 * A refusal that repeats the tool's last one (same arguments, same issues) counts its `repeats`.
 * @param allowed which registered tools this dispatch may run (all when unset): the others are
 * refused, and never named in suggestions
 * @throws UnknownToolError when no tool has the call's name
 * @throws ToolNotAllowedError when the tool is registered but not allowed
 * @throws ToolArgumentsValidationError when the arguments do not match (after repair, when on)
 * @throws ToolDefinitionError when the tool's schema cannot compile
 */
export function prepareCall(fields: CallFields, context: PrepareContext, allowed?: (toolName: string) => boolean): PreparedCall {
  const prepared = prepareOrRefuse(fields, context, allowed);
  if (prepared instanceof ToolArgumentsValidationError) throw prepared;
  return prepared;
}

/**
 * {@link prepareCall}, which returns the refusal of arguments that do not match rather than
 * throwing it: a refusal is an answer the model reads, as common as a valid call, and throwing it
 * would cost more than checking a small call (V8 looks for the handler and records where the
 * throw came from, about half a microsecond at a dispatch's depth).
 * @throws UnknownToolError, ToolNotAllowedError, ToolDefinitionError as {@link prepareCall} does
 */
export function prepareOrRefuse(fields: CallFields, context: PrepareContext, allowed?: (toolName: string) => boolean): PreparedCall | ToolArgumentsValidationError {
  const tool = lookUpTool(fields, context, allowed);
  const validator = context.validator(tool);
  const raw = fields.arguments;
  if (raw === UNREADABLE) return refused(context, tool, raw, undefined, [ROOT_ISSUES.notPlainObject]);
  let value: object;
  let outcome: CheckOutcome;
  // Only object arguments count as uses of the fused copy-and-check, only JSON text as uses of the reader.
  const fused = typeof raw === "string" ? undefined : validator.fused;
  try {
    if (fused !== undefined) {
      // One pass copies and checks; what it left unchecked, the compiled check decides on the copy.
      const state: FusedState = { invalid: false, unchecked: false };
      value = fusedPrivateCopy(tool.name, fused, raw, state);
      outcome = state.invalid ? CheckOutcome.Invalid : state.unchecked ? checkValue(validator, value) : CheckOutcome.Valid;
    } else {
      value = typeof raw === "string" ? parsedArguments(tool.name, raw, context.maxArgumentBytes, validator.reader) : privateCopy(tool.name, raw);
      outcome = checkValue(validator, value);
    }
  } catch (error) {
    if (error instanceof ToolArgumentsValidationError) return refused(context, tool, raw, undefined, error);
    throw error;
  }
  if (outcome === CheckOutcome.Valid) {
    if (tool.lastRefusal !== undefined) context.failures.forget(tool);
    return { tool, toolCallId: fields.id, args: value, repairs: undefined };
  }
  if (outcome === CheckOutcome.Invalid && context.onRepair !== undefined) {
    const repaired = repairAndCheck(validator, tool.definition.parameters, value, context.maxArgumentBytes);
    if (repaired !== undefined) {
      const repairs = Object.freeze(repaired.repairs);
      context.failures.forget(tool);
      reportRepairs(context.onRepair, { toolName: tool.name, toolCallId: fields.id, repairs });
      return { tool, toolCallId: fields.id, args: repaired.value, repairs };
    }
  }
  // Explained only now, when nothing can save the call: the explanation is the costly part of a refusal.
  return refused(context, tool, raw, value, refusalIssues(validator, value, outcome));
}

/**
 * The refusal of the tool's arguments for `issues` (or the error already made for them), as the
 * failure memory sees it: a repeat of the tool's last refusal is made with its count, which its
 * message states.
 */
function refused(context: PrepareContext, tool: RegisteredTool, raw: unknown, value: object | undefined, refusal: readonly string[] | ToolArgumentsValidationError): ToolArgumentsValidationError {
  const issues = refusal instanceof ToolArgumentsValidationError ? refusal.issues : refusal;
  const repeats = context.failures.refused(tool, raw === UNREADABLE ? undefined : raw, value, issues);
  if (repeats === 0 && refusal instanceof ToolArgumentsValidationError) return refusal;
  return new ToolArgumentsValidationError(tool.name, issues, repeats);
}

/** Hands `onRepair` its report; one that throws is ignored, as a throwing `onLateSettle` is: the report is best effort, and the repaired call runs. */
function reportRepairs(onRepair: (report: RepairReport) => void, report: RepairReport): void {
  try {
    onRepair(report);
  } catch {
    // Nothing is to be done about a report that could not be taken: the call is not the reporter's to fail.
  }
}
