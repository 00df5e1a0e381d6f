// Thresholds sent as a base and a rule (surveys/respond/page_specs.py) expand in
// the browser to exactly the thresholds Python states, for every design of
// the golden fixture; a base that would protect less, or cannot be expanded,
// is refused by the same check as full thresholds.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import thresholdsRule from "../../static/js/rr-rule.js";
import * as rr from "../../static/js/rr.js";

const { SpecRefused, checkSpec, specEpsilon } = rr;
const { expandSpec } = thresholdsRule(rr);

const read = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"));
const DESIGNS = read("designs.json");
const PAGE_SPECS = read("page_specs.json");
const RULE = "thresholds_rule";

describe("thresholds as a base and a rule", () => {
  test("the fixtures are the same designs in the same order", () => {
    assert.equal(PAGE_SPECS.length, DESIGNS.length);
    PAGE_SPECS.forEach((c, i) => assert.deepEqual([c.name, c.params], [DESIGNS[i].name, DESIGNS[i].params]));
    assert.ok(PAGE_SPECS.some((c) => c.name === "geometric" && RULE in c.page_spec));
  });

  PAGE_SPECS.forEach((c, i) => {
    test(`${c.name} ${JSON.stringify(c.params)}: expands to Python's thresholds`, () => {
      const expanded = expandSpec(c.page_spec);
      assert.deepEqual(expanded, DESIGNS[i].client_spec);
      if (!(RULE in c.page_spec)) assert.equal(expanded, c.page_spec);
    });
  });

  const count = PAGE_SPECS.find((c) => c.name === "geometric" && c.params.m === 50).page_spec;

  test("an expanded count passes the page's check with its stated epsilon", () => {
    assert.equal(checkSpec(expandSpec(count)), "randomized");
    const epsilon = specEpsilon(expandSpec(count));
    assert.ok(Math.abs(epsilon - count.epsilon) < 1e-9);
  });

  test("a count of fifty is a twentieth of its thresholds' size", () => {
    const full = JSON.stringify(expandSpec(count)).length;
    assert.ok(JSON.stringify(count).length * 20 < full);
  });

  test("a base that gives an answer away is refused after expanding", () => {
    const near = [0, ...count[RULE].near.slice(1)];
    const spec = expandSpec({ ...count, [RULE]: { ...count[RULE], near } });
    assert.throws(() => checkSpec(spec), (e) => e instanceof SpecRefused && /∞/.test(e.message));
  });

  test("a base whose counts overflow the denominator is refused", () => {
    const ends = count[RULE].ends.map(() => 2 ** 32);
    const spec = expandSpec({ ...count, [RULE]: { ...count[RULE], ends } });
    assert.throws(() => checkSpec(spec), SpecRefused);
  });

  for (const [what, change] of [
    ["too few near counts", (s) => ({ ...s, [RULE]: { ...s[RULE], near: s[RULE].near.slice(1) } })],
    ["a fractional end count", (s) => ({ ...s, [RULE]: { ...s[RULE], ends: [0.5, ...s[RULE].ends.slice(1)] } })],
    ["a negative near count", (s) => ({ ...s, [RULE]: { ...s[RULE], near: [-1, ...s[RULE].near.slice(1)] } })],
    ["no lists at all", (s) => ({ ...s, [RULE]: null })],
    ["thresholds beside the rule", (s) => ({ ...s, thresholds: [] })],
  ]) {
    test(`a rule with ${what} is refused before anything is drawn`, () => {
      assert.throws(
        () => expandSpec(change(count)),
        (e) => e instanceof SpecRefused && e.code === "unreadable" && /thresholds rule/.test(e.message),
      );
    });
  }
});
