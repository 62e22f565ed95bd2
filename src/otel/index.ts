export { instrument, INSTRUMENTATION_SCOPE } from "./instrument.js";
export type { InstrumentOptions } from "./instrument.js";
