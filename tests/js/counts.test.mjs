// The browser's randomizer on the count designs of the golden fixture
// (geometric noise over 0..m): the distribution it draws, enumerated exactly
// with an injected source, is the design's matrix, keeps the mechanism's
// symmetry, and its epsilon is the range epsilon Python states.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { checkSpec, isPlain, randomize, specEpsilon } from "../../static/js/rr.js";

const FIXTURE_URL = new URL("../fixtures/designs.json", import.meta.url);
const COUNTS = JSON.parse(readFileSync(FIXTURE_URL, "utf8")).filter(
  (c) => c.name === "geometric",
);
const label = (c) => `geometric m=${c.params.m} epsilon=${c.params.epsilon}`;

// P(report | truth) as integers over the denominator, from randomize alone:
// the report is constant between consecutive thresholds, so one draw at each
// piece's start and end, credited with the piece's width, covers every u.
function drawnCounts(spec) {
  return spec.thresholds.map((row, truth) => {
    const mass = new Array(spec.k).fill(0);
    let start = 0;
    for (const stop of row) {
      if (stop > start) {
        const first = randomize(truth, spec, () => start);
        assert.equal(randomize(truth, spec, () => stop - 1), first);
        mass[first] += stop - start;
      }
      start = stop;
    }
    return mass;
  });
}

describe("count designs in the browser", () => {
  test("the fixture has count designs, up to m = 50", () => {
    assert.ok(COUNTS.length >= 3);
    assert.ok(COUNTS.some((c) => c.params.m === 50));
  });

  for (const c of COUNTS) {
    test(`${label(c)}: the enumerated draws are the matrix, exactly`, () => {
      const drawn = drawnCounts(c.client_spec);
      drawn.forEach((row, t) => {
        assert.equal(
          row.reduce((a, b) => a + b, 0),
          c.client_spec.denominator,
        );
        row.forEach((count, r) => {
          assert.ok(count / c.client_spec.denominator === c.matrix[t][r], `${t}, ${r}`);
        });
      });
    });

    test(`${label(c)}: symmetric, every report possible, never plain`, () => {
      const drawn = drawnCounts(c.client_spec);
      const m = c.params.m;
      drawn.forEach((row, t) => {
        row.forEach((count, r) => {
          assert.equal(count, drawn[m - t][m - r]);
          assert.ok(count > 0);
        });
      });
      assert.equal(isPlain(c.client_spec), false);
    });

    test(`${label(c)}: epsilon over the range is Python's, at most the target`, () => {
      const epsilon = specEpsilon(c.client_spec);
      assert.ok(Math.abs(epsilon - c.epsilon) < 1e-9);
      assert.ok(epsilon <= c.params.epsilon + 1e-12);
      assert.equal(checkSpec(c.client_spec), "randomized");
    });
  }
});
