import { cut, describeName } from "./describe.js";

/** The most characters of a person's reason that reach the model. */
const MAX_REASON_CHARACTERS = 1_000;

/** Text for the model about a call a person declined: not a failure of the tool, and not to be repeated as is. */
export function deniedMessage(toolName: string, reason: string | undefined): string {
  const why = reason === undefined || reason.trim() === "" ? "" : ` Their reason: ${JSON.stringify(cut(reason.trim(), MAX_REASON_CHARACTERS))}.`;
  return `The user declined to run tool ${describeName(toolName)} with these arguments; it did not run.${why} Do not call it again with the same arguments unless the user asks.`;
}

/** Text for the model about a call a hook of the application declined, with the hook's reason. */
export function hookDeniedMessage(toolName: string, reason: string): string {
  const why = reason.trim() === "" ? "" : ` ${JSON.stringify(cut(reason.trim(), MAX_REASON_CHARACTERS))}`;
  return `Tool ${describeName(toolName)} was not run: the application declined this call.${why}`;
}
