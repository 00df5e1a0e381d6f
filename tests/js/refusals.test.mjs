// Every field of a question's design data that the respondent page uses is
// checked before anything is drawn: each test here tampers with one field of
// a golden fixture spec (tests/fixtures/*.json) and expects a refusal
// (SpecRefused, whose message the page shows), while the untampered spec is
// accepted. tests/browser/test_tampered_specs.py does the same on a real page.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import validationArm from "../../static/js/rr-arm.js";
import * as rr from "../../static/js/rr.js";
import { KINDS, binary, instructed as instructedKind, multiselect } from "./kinds.mjs";

const { MAX_DIRECT_PERCENT, SpecRefused, checkAnySpec: checkWithKinds, checkSpec, specEpsilon } = rr;
// The arm's part, as a page with a validation arm loads it: it gives rr.js
// the arm's check.
const { assignArm, checkArm } = validationArm(rr);

const read = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"));
const DESIGNS = read("designs.json");
const spec = (name, index = 0) => structuredClone(DESIGNS.filter((c) => c.name === name)[index].client_spec);
const unary = () => structuredClone(read("unary_designs.json").find((c) => c.epsilon <= 10).client_spec);
const instructed = () => structuredClone(read("instructed_designs.json")[0].client_spec);
const arm = (below, denominator = 100) => ({ format: 1, denominator, direct_below: below });
const D = 2 ** 32;
const { checkInstructedSpec } = instructedKind;
const { checkUnarySpec } = multiselect;
// As on a page that loaded every kind's module, unless told otherwise.
const checkAnySpec = (spec, answers = undefined, kinds = KINDS) => checkWithKinds(spec, answers, kinds);

// Refused, and for a reason the respondent can read: the message names it.
function refused(check, reason) {
  assert.throws(check, (error) => error instanceof SpecRefused && reason.test(error.message));
}

describe("the validation arm", () => {
  test(`the limit is ${MAX_DIRECT_PERCENT}% of respondents, as estimation/validation.py states`, () => {
    assert.equal(MAX_DIRECT_PERCENT, 50);
  });

  test("an arm at or below the limit is accepted, with a randomized spec", () => {
    for (const ok of [arm(1), arm(50), arm(0), arm(1, 2), arm(D / 2, D)]) {
      assert.equal(checkArm(ok), undefined, JSON.stringify(ok));
      assert.equal(checkSpec({ ...spec("warner"), direct_arm: ok }), "randomized");
    }
  });

  test("an arm above the limit is refused, up to asking everyone directly", () => {
    for (const [bad, shown] of [
      [arm(100), "100%"],
      [arm(51), "51%"],
      [arm(2, 3), "67%"],
      [arm(D / 2 + 1, D), "51%"],
    ]) {
      refused(() => checkArm(bad), new RegExp(`ask ${shown} of respondents directly.*above the limit of 50%`));
      refused(() => checkSpec({ ...spec("warner"), direct_arm: bad }), /above the limit of 50%/);
      refused(() => checkAnySpec({ ...spec("krr"), direct_arm: bad }, 2), /above the limit of 50%/);
      // Counts too, and even on a question asked plainly, where it is never drawn.
      refused(() => checkSpec({ ...spec("geometric"), direct_arm: bad }), /above the limit/);
      refused(() => checkSpec({ ...spec("direct"), direct_arm: bad }), /above the limit/);
    }
  });

  test("a malformed arm is refused", () => {
    for (const bad of [
      arm(0, 0),
      arm(1, -100),
      arm(1, 1.5),
      arm(1, "100"),
      arm(1, D + 1),
      arm(-1),
      arm(101),
      arm(0.5),
      arm("10"),
      { ...arm(10), format: 2 },
      { denominator: 100, direct_below: 10 },
      [],
      "10%",
      10,
    ]) {
      refused(() => checkArm(bad), /unreadable validation arm/);
      refused(() => checkSpec({ ...spec("warner"), direct_arm: bad }), /unreadable validation arm/);
    }
  });

  test("assignArm itself refuses an arm above the limit", () => {
    assert.throws(() => assignArm(arm(100), () => 0), TypeError);
    assert.throws(() => assignArm(arm(51), () => 0), /above 50%/);
    assert.equal(assignArm(arm(50), () => 0), "direct");
  });

  test("an arm where no answer can be asked directly is refused", () => {
    refused(() => checkAnySpec({ ...spec("crosswise"), direct_arm: arm(10) }, 2), /crosswise pairing cannot be asked directly/);
    refused(() => checkUnarySpec({ ...unary(), direct_arm: arm(10) }), /cannot be asked directly/);
    refused(() => checkInstructedSpec({ ...instructed(), direct_arm: arm(10) }), /no validation arm/);
  });
});

describe("the stated epsilon", () => {
  test("is the one the thresholds give, for every fixture spec within the cap", () => {
    const within = DESIGNS.filter((c) => c.epsilon !== null && c.epsilon <= 10);
    assert.ok(within.length > 10);
    for (const c of within) {
      assert.notEqual(checkAnySpec(c.client_spec), "plain", c.name);
    }
  });

  test("a stated epsilon below the thresholds' is refused", () => {
    const s = spec("warner");
    s.epsilon = specEpsilon(s) / 2;
    refused(() => checkSpec(s), /states epsilon .* but its thresholds give/);
  });

  test("a stated epsilon above the cap is refused, even with thresholds within it", () => {
    const s = spec("krr");
    s.epsilon = 12;
    refused(() => checkSpec(s), /states epsilon 12/);
  });

  test("a stated epsilon that is not a number is refused", () => {
    for (const stated of [null, "1", [1], {}]) {
      refused(() => checkSpec({ ...spec("forced_response"), epsilon: stated }), /states epsilon/);
    }
  });

  test("a crosswise spec's stated epsilon is checked too", () => {
    const s = spec("crosswise");
    s.epsilon += 0.5;
    refused(() => checkAnySpec(s, 2), /states epsilon/);
  });
});

describe("the thresholds", () => {
  test("every row is checked, not only the one of the true answer", () => {
    const s = spec("krr");
    const last = s.thresholds.length - 1;
    s.thresholds[last] = [...s.thresholds[last]].reverse();
    refused(() => checkSpec(s), /unreadable design/);
  });

  test("a row that stops short of the denominator is refused", () => {
    const s = spec("warner");
    s.thresholds[1][1] -= 1;
    refused(() => checkSpec(s), /must end at the denominator/);
  });

  test("thresholds that are not integers are refused", () => {
    const s = spec("unrelated_question");
    s.thresholds[0][0] += 0.5;
    refused(() => checkSpec(s), /non-decreasing integers/);
  });

  test("thresholds above the cap are refused even when the stated epsilon agrees", () => {
    const s = spec("warner");
    const keep = Math.floor((D * Math.exp(11)) / (1 + Math.exp(11)));
    s.thresholds = [
      [keep, D],
      [D - keep, D],
    ];
    s.epsilon = specEpsilon(s);
    refused(() => checkSpec(s), /above the limit of 10/);
  });

  test("a spec with more or fewer answers than the question shows is refused", () => {
    refused(() => checkAnySpec(spec("warner"), 3), /has 2 answers, but the question shows 3/);
    refused(() => checkAnySpec(spec("direct"), 3), /but the question shows 3/);
    refused(() => checkAnySpec(spec("crosswise"), 3), /but the question shows 3/);
    assert.equal(checkAnySpec(spec("warner"), 2), "randomized");
  });
});

describe("the procedure", () => {
  test("a device-randomized design relabelled crosswise is refused: it would send the true answer", () => {
    refused(() => checkAnySpec({ ...spec("warner"), procedure: "crosswise" }, 2), /cannot be asked as a crosswise pairing/);
    const unnamed = { ...spec("warner"), procedure: "crosswise" };
    delete unnamed.design;
    refused(() => checkAnySpec(unnamed, 2), /cannot be asked as a crosswise pairing/);
  });

  test("a crosswise design stripped of its procedure is never randomized by the device", () => {
    const s = spec("crosswise");
    delete s.procedure;
    refused(() => checkAnySpec(s, 2), /answered by you, not randomized by this device/);
    refused(() => checkSpec(s, undefined, KINDS), /answered by you/);
  });

  test("an instructed design stripped of its procedure is refused", () => {
    const s = instructed();
    delete s.procedure;
    refused(() => checkAnySpec(s), /answered by you/);
    refused(() => checkInstructedSpec(s), /procedure must be instructed/);
  });

  test("another design given the instructed procedure is refused", () => {
    refused(() => checkInstructedSpec({ ...instructed(), design: "warner" }), /design must be one of/);
    // On a page without a question with a device instruction.
    refused(() => checkAnySpec({ ...spec("warner"), procedure: "instructed" }, undefined, [binary]), /cannot run the procedure/);
  });

  test("a check-all-that-apply spec with a procedure is refused", () => {
    refused(() => checkUnarySpec({ ...unary(), procedure: "crosswise" }), /cannot run the procedure/);
  });
});

describe("the instructed probabilities", () => {
  test("the fixture spec is accepted", () => {
    assert.equal(checkInstructedSpec(instructed(), 2), "instructed");
  });

  for (const [field, value, reason] of [
    ["group_threshold", D, /group_threshold/],
    ["group_threshold", 0.5, /group_threshold/],
    ["group_threshold", -1, /group_threshold/],
    ["forced_yes", [0, 100], /forced_yes/],
    ["forced_yes", [D, 100], /forced_yes/],
    ["forced_yes", [1.5, 100], /forced_yes/],
    ["forced_yes", [100, 100], /differ/],
    ["forced_yes", [1, D - 1], /protect a Yes less/],
    ["yes_epsilon", 0.01, /states epsilon 0.01 for a Yes/],
    ["yes_epsilon", null, /states epsilon null/],
    ["k", 3, /k must be 2/],
  ]) {
    test(`${field} = ${JSON.stringify(value)} is refused`, () => {
      refused(() => checkInstructedSpec({ ...instructed(), [field]: value }), reason);
    });
  }

  test("a question that shows other than two answers is refused", () => {
    refused(() => checkInstructedSpec(instructed(), 3), /question shows 3/);
  });
});

describe("check all that apply", () => {
  test("the fixture spec is accepted with its number of boxes", () => {
    const s = unary();
    assert.equal(checkUnarySpec(s, s.m), "randomized");
  });

  test("a spec with more or fewer items than boxes is refused", () => {
    const s = unary();
    refused(() => checkUnarySpec(s, s.m + 1), /items, but the question shows/);
    refused(() => checkUnarySpec({ ...s, m: s.m + 1 }, s.m), /items, but the question shows/);
  });

  test("stated epsilons that are not the bit's are refused", () => {
    refused(() => checkUnarySpec({ ...unary(), epsilon: 0.01 }), /for all items together/);
    refused(() => checkUnarySpec({ ...unary(), epsilon_item: 0.01 }), /for one item/);
    const s = unary();
    s.bit.epsilon /= 2;
    refused(() => checkUnarySpec(s), /for an answer/);
  });

  test("a bit whose thresholds are tampered with is refused", () => {
    const s = unary();
    s.bit.thresholds[1] = [D, D / 2];
    refused(() => checkUnarySpec(s), /unreadable design/);
  });

  test("a spec of another format is refused", () => {
    refused(() => checkUnarySpec({ ...unary(), format: 2 }), /unreadable design/);
  });
});

describe("count thresholds (geometric)", () => {
  test("the fixture's count specs are accepted with their number of answers", () => {
    for (const c of DESIGNS.filter((c) => c.name === "geometric")) {
      assert.equal(checkAnySpec(c.client_spec, c.client_spec.k), "randomized");
    }
  });

  test("a count range other than the question's is refused", () => {
    const s = spec("geometric", 2);
    refused(() => checkAnySpec(s, s.k + 1), /question shows/);
  });

  test("a count whose middle row gives the answer away is refused", () => {
    const s = spec("geometric", 2);
    const middle = Math.floor(s.k / 2);
    // Everyone with this count reports it: epsilon ∞ (unbounded).
    s.thresholds[middle] = s.thresholds[middle].map((_, r) => (r < middle ? 0 : D));
    refused(() => checkSpec(s), /epsilon ∞/);
  });

  test("a count row that decreases is refused", () => {
    const s = spec("geometric", 2);
    assert.ok(s.k >= 3);
    s.thresholds[1][1] = s.thresholds[1][0] - 1;
    refused(() => checkSpec(s), /unreadable design/);
  });

  test("a count's stated epsilon below its thresholds' is refused", () => {
    refused(() => checkSpec({ ...spec("geometric"), epsilon: 0.1 }), /states epsilon 0.1/);
  });
});
