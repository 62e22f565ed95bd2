export { fromBfclFunction, parseJsonLines } from "./bfcl.js";
export type { BfclFunction } from "./bfcl.js";
