export { fromBfclFunction, parseJsonLines } from "./bfcl.js";
export type { BfclFunction, BfclOptions } from "./bfcl.js";
