import { defineOwn } from "../objects.js";
import { isMultipleOf } from "../schema/multiple-of.js";
import { codePointCount } from "../schema/string-length.js";
import {
  cloneInPlace,
  copyEntered,
  copyNested,
  COPY_COUNT,
  copyPrimitive,
  enterObject,
  HoleFound,
  holeAt,
  MAX_FAST_ARRAY_LENGTH,
  MAX_FAST_VALUES,
  recoverFastCopy,
  valuesRunOut,
} from "./copy.js";

/** What a fused copy-and-check found, besides the copy: set by the generated code, read by the caller. */
export interface FusedState {
  /** A checked part of the value does not match its schema. */
  invalid: boolean;
  /** A part of the value was copied without being checked (a keyword or a value the generated code does not check): the copy needs the full check. */
  unchecked: boolean;
}

/** `error`, to throw again, with `segment` added to its path when it is a hole found below a child (as the plain copy names it). */
function namingSegment(error: unknown, segment: string | number): unknown {
  if (error instanceof HoleFound) error.segments.push(String(segment));
  return error;
}

/**
 * Whether `text` holds no line terminator (`\n`, `\r`, U+2028, U+2029): what `/^.*$/u` tests, the
 * key pattern of `Type.Record` with string keys once its TypeBox marker is gone (a schema sent as
 * JSON, an MCP server's), without calling into the regular expression engine for each key (a few
 * nanoseconds less per key, measured). A `Type.Record` that keeps its marker matches every key.
 */
function singleLine(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 10 || unit === 13 || unit === 0x2028 || unit === 0x2029) return false;
  }
  return true;
}

/** What a fused function returns for arguments that are not plain data: compared by identity, never a copy. */
export const NOT_PLAIN: Record<string, unknown> = Object.freeze({});

/**
 * The functions the generated fused code calls: the plain copy's own steps (so that the copy is
 * the same, step for step), and the checks it cannot write inline. Modules written by
 * `precompileValidators` receive them through `typebox-tool-registry/precompiled`.
 */
export const FUSED_HELPERS = Object.freeze({
  cloneInPlace,
  codePointCount,
  copyEntered,
  copyNested,
  copyPrimitive,
  copyCount: COPY_COUNT,
  defineOwn,
  enterObject,
  holeAt,
  isMultipleOf,
  maxFastArrayLength: MAX_FAST_ARRAY_LENGTH,
  maxFastValues: MAX_FAST_VALUES,
  namingSegment,
  notPlain: NOT_PLAIN,
  recoverFastCopy,
  singleLine,
  valuesRunOut,
});
