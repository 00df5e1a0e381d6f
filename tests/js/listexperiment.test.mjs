// The list experiment's browser module (surveys/kinds/listexperiment/static/page.js):
// the group drawn with the spec's share, a uniformly random order, and the
// one code sent, c or (J + 1) + c, as estimation/kinds/listexperiment/designs.py
// decodes it. Run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { SpecRefused, checkAnySpec } from "../../static/js/rr.js";
import { KINDS, listExperiment } from "./kinds.mjs";

const { assignGroup, check, decode, listReport, procedures, shuffledOrder } = listExperiment;
const SPEC = Object.freeze({ name: "list_experiment", items: 3, treatment_share: 0.5 });
const D = 2 ** 32;
const constant = (value) => () => value;
// The pure core's specs and codes (tests/fixtures/list_designs.json, `make golden`).
const GOLDEN = JSON.parse(readFileSync(new URL("../fixtures/list_designs.json", import.meta.url), "utf8"));

// A fixed-seed 32-bit generator (xorshift32) for the frequency tests.
function seeded(seed) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe("the group", () => {
  test("treatment exactly below round(share * 2**32)", () => {
    const threshold = Math.round(0.3 * D);
    const spec = { ...SPEC, treatment_share: 0.3 };
    assert.equal(assignGroup(spec, constant(0)), 1);
    assert.equal(assignGroup(spec, constant(threshold - 1)), 1);
    assert.equal(assignGroup(spec, constant(threshold)), 0);
    assert.equal(assignGroup(spec, constant(D - 1)), 0);
  });

  test("a kept group is never drawn again", () => {
    const { draw } = procedures.list_experiment;
    const never = () => assert.fail("no draw for a kept group");
    assert.deepEqual(draw(SPEC, 1, undefined, never), { keep: 1 });
    assert.deepEqual(draw(SPEC, 0, undefined, never), { keep: 0 });
    assert.deepEqual(draw(SPEC, undefined, undefined, constant(0)), { keep: 1 });
  });
});

describe("the order", () => {
  test("every order of four items about equally often (chi-square, fixed seed)", () => {
    const source = seeded(2011);
    const seen = new Map();
    const n = 24000;
    for (let i = 0; i < n; i++) {
      const key = shuffledOrder(4, source).join("");
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    assert.equal(seen.size, 24);
    const expected = n / 24;
    const chi2 = [...seen.values()].reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 23 degrees of freedom: the 0.999 quantile is 49.7.
    assert.ok(chi2 < 49.7, `chi-square ${chi2}`);
  });

  test("an order is a permutation of its positions", () => {
    const order = shuffledOrder(11, seeded(7));
    assert.deepEqual([...order].sort((a, b) => a - b), [...Array(11).keys()]);
  });
});

describe("the code", () => {
  for (const c of GOLDEN) {
    test(`the estimator's codes for ${JSON.stringify(c.params)}`, () => {
      const { items } = c.client_spec;
      assert.equal(check(c.client_spec, items + 2), "list_experiment");
      const sent = (group, top) => [...Array(top + 1).keys()].map((n) => listReport(items, group, n));
      assert.deepEqual(sent(0, items), c.codes.control);
      assert.deepEqual(sent(1, items + 1), c.codes.treatment);
      assert.equal(c.codes.control.length + c.codes.treatment.length, c.code_count);
    });
  }

  test("control c is c, treatment c is J + 1 + c, and decode inverts both", () => {
    const codes = [];
    for (const group of [0, 1]) {
      for (let count = 0; count <= SPEC.items + group; count++) {
        const code = listReport(SPEC.items, group, count);
        assert.deepEqual(decode(SPEC.items, code), { group, count });
        codes.push(code);
      }
    }
    assert.deepEqual(codes, [...Array(2 * SPEC.items + 3).keys()]);
  });

  test("a count beyond the list shown is refused", () => {
    assert.throws(() => listReport(3, 0, 4), RangeError);
    assert.throws(() => listReport(3, 1, 5), RangeError);
    assert.throws(() => listReport(3, 1, -1), RangeError);
  });

  test("the receipt says the count chosen", () => {
    const options = ["0", "1", "2", "3", "4"];
    assert.equal(listExperiment.label(2, options), "2");
    assert.equal(listExperiment.label(8, options), "4");
    assert.equal(listExperiment.label(4, options), "0");
  });
});

describe("the check", () => {
  test("a well-formed spec with J + 2 counts shown is the procedure", () => {
    assert.equal(check(SPEC, 5), "list_experiment");
  });

  for (const [what, spec, answers] of [
    ["another design", { ...SPEC, name: "warner" }, 5],
    ["one item", { ...SPEC, items: 1 }, 3],
    ["eleven items", { ...SPEC, items: 11 }, 13],
    ["a share of 1", { ...SPEC, treatment_share: 1 }, 5],
    ["a validation arm", { ...SPEC, direct_arm: { format: 1 } }, 5],
    ["counts that do not fit", SPEC, 4],
  ]) {
    test(`refuses ${what}`, () => {
      assert.throws(() => check(spec, answers), SpecRefused);
    });
  }

  test("the randomizer never draws noise over it", () => {
    assert.throws(() => checkAnySpec({ ...SPEC, procedure: "list_experiment" }, 5, []), SpecRefused);
    assert.equal(checkAnySpec({ ...SPEC, procedure: "list_experiment" }, 5, KINDS), "list_experiment");
  });
});
