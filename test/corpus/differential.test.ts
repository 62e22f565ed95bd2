import { describe } from "vitest";
import { corpusDirectory } from "../support/corpus.js";
import { differentialSuite, loadDistinctTools, runsPerSchema } from "../support/differential.js";

const corpus = corpusDirectory("bfcl");

describe.skipIf(corpus === undefined)("differential test against Ajv on the BFCL corpus", () => {
  differentialSuite(corpus === undefined ? [] : loadDistinctTools(corpus), 1_300, runsPerSchema);
});
