import { describe } from "vitest";
import { bfclSuite } from "../support/bfcl-suite.js";
import { corpusDirectory } from "../support/corpus.js";

const corpus = corpusDirectory("bfcl");

describe.skipIf(corpus === undefined)("the BFCL corpus", () => {
  bfclSuite(corpus ?? "", { files: 7, distinct: 1374, minimumAnswers: 2000 });
});
