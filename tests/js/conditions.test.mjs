// Display logic in the browser (static/js/conditions.js) decides the shared
// cases (tests/fixtures/conditions.json) as the server does
// (tests/surveys/display_logic/test_condition_cases.py): a range on a number
// reads the number typed, both bounds included, decimals too.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { conditionMet } from "../../static/js/conditions.js";

const { cases } = JSON.parse(readFileSync(new URL("../fixtures/conditions.json", import.meta.url), "utf8"));

describe("display logic in the browser", () => {
  for (const c of cases) {
    test(c.name, () => {
      assert.equal(conditionMet(c.condition, c.answers, c.numbers), c.met);
    });
  }
});
