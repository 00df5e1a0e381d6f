// The validation arm's assignment: its exact distribution by enumeration with
// an injected source, its rule on the real 32-bit grid, and its refusals.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import validationArm from "../../static/js/rr-arm.js";
import * as rr from "../../static/js/rr.js";

const { uniformBelow } = rr;
const { assignArm, directCode } = validationArm(rr);

const arm = (below, denominator = 100) => ({ format: 1, denominator, direct_below: below });
const constant = (value) => () => value;

describe("assignArm", () => {
  for (const below of [1, 10, 25, 33, 50]) {
    test(`asks exactly ${below}% directly (8-bit source, every value once)`, () => {
      // Serves 0..255 in order; uniformBelow(100) rejects 200..255, so the
      // 200 accepted values map onto 0..99 twice each: the count is exact.
      let next = 0;
      const source = () => next++ % 256;
      const counts = { direct: 0, randomized: 0 };
      let accepted = 0;
      while (next < 256) {
        const before = next;
        const result = assignArm(arm(below), source, 8);
        if (next > 256) break;
        accepted += 1;
        counts[result] += 1;
        assert.equal(result, (next - 1) % 100 < below ? "direct" : "randomized", `at ${before}`);
      }
      assert.equal(accepted, 200);
      assert.deepEqual(counts, { direct: 2 * below, randomized: 200 - 2 * below });
    });
  }

  test("on the 32-bit grid it is direct exactly when uniformBelow is below the share", () => {
    const limit = 2 ** 32 - (2 ** 32 % 100);
    for (const x of [0, 9, 10, 99, 100, 109, 110, 12345678, limit - 100, limit - 91, limit - 1]) {
      const expected = uniformBelow(100, constant(x)) < 10 ? "direct" : "randomized";
      assert.equal(assignArm(arm(10), constant(x)), expected, `x = ${x}`);
      assert.equal(expected, x % 100 < 10 ? "direct" : "randomized");
    }
  });

  test("the real crypto source asks about the share directly", () => {
    const draws = 20000;
    let direct = 0;
    for (let i = 0; i < draws; i++) direct += assignArm(arm(30)) === "direct";
    // Five binomial standard deviations: sqrt(0.3 * 0.7 / 20000) = 0.0032.
    assert.ok(Math.abs(direct / draws - 0.3) < 5 * 0.0032, `${direct / draws}`);
  });

  test("refuses a malformed arm rather than guess", () => {
    for (const bad of [null, {}, { ...arm(10), format: 2 }, arm(101), arm(-1), arm(1.5), arm(5, 0)]) {
      assert.throws(() => assignArm(bad, constant(0)), TypeError);
    }
  });
});

describe("directCode", () => {
  test("puts direct answers after the k randomized report codes", () => {
    assert.deepEqual([0, 1].map((t) => directCode(t, 2)), [2, 3]);
    assert.deepEqual([0, 1, 2].map((t) => directCode(t, 3)), [3, 4, 5]);
    assert.throws(() => directCode(2, 2), RangeError);
    assert.throws(() => directCode(-1, 2), RangeError);
  });
});
