// A number's own code on the respondent page (surveys/kinds/numeric/static/page.js):
// what it takes as a number of the question's format, the range it reports,
// and that it refuses a spec that would randomize it (a number is sent plainly).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { SpecRefused } from "../../static/js/rr.js";
import { KINDS, numeric } from "./kinds.mjs";

const CASES = JSON.parse(readFileSync(new URL("../fixtures/designs.json", import.meta.url), "utf8"));
const plain = CASES.find((c) => c.name === "direct").client_spec;
const randomized = CASES.find((c) => c.name === "warner").client_spec;

const AGE = { min: 16, max: 99, decimals: 0 };
const HEIGHT = { min: 0.5, max: 2.5, decimals: 2 };

describe("a number in the browser", () => {
  test("takes numbers within the bounds, with at most the decimals allowed", () => {
    assert.equal(numeric.parse("37", AGE), 37);
    assert.equal(numeric.parse(" 16 ", AGE), 16);
    assert.equal(numeric.parse("99", AGE), 99);
    assert.equal(numeric.parse("1.75", HEIGHT), 1.75);
    assert.equal(numeric.parse("1.7", HEIGHT), 1.7);
  });

  test("refuses what is not such a number", () => {
    for (const text of ["15", "100", "37.5", "abc", "", "1e400", "Infinity", "3 7", "0x20"]) {
      assert.equal(numeric.parse(text, AGE), undefined, text);
    }
    assert.equal(numeric.parse("1.755", HEIGHT), undefined);
    assert.equal(numeric.parse("3", HEIGHT), undefined);
  });

  test("reports the range a number falls in, as the server does", () => {
    const cuts = [30, 45, 65];
    assert.deepEqual(
      [16, 29, 30, 44, 45, 64, 65, 99].map((n) => numeric.binOf(n, cuts)),
      [0, 0, 1, 1, 2, 2, 3, 3],
    );
    assert.equal(numeric.report({ number: 44, report: 1 }), 1);
    assert.equal(numeric.value({ number: 44, report: 1 }), 44);
  });

  test("is asked plainly and refuses a spec that randomizes it", () => {
    assert.equal(numeric.check(plain, 0, KINDS), "plain");
    assert.throws(() => numeric.check(randomized, 0, KINDS), SpecRefused);
  });
});
