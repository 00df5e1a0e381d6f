// Free text's own code on the respondent page (surveys/kinds/freetext/static/page.js):
// the text it sends as typed (line breaks as "\n", no blank space around), what
// it refuses as the server does (over the limit, control characters), and that
// it refuses a spec that would randomize it (free text is sent plainly).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import { SpecRefused } from "../../static/js/rr.js";
import { KINDS, freetext } from "./kinds.mjs";

const CASES = JSON.parse(readFileSync(new URL("../fixtures/designs.json", import.meta.url), "utf8"));
const plain = CASES.find((c) => c.name === "direct").client_spec;
const randomized = CASES.find((c) => c.name === "warner").client_spec;

describe("free text in the browser", () => {
  test("sends line breaks as \\n, without the blank space around the text", () => {
    assert.equal(freetext.normalize("  one\r\ntwo\rthree\n  "), "one\ntwo\nthree");
    assert.equal(freetext.normalize("<script>alert(1)</script>"), "<script>alert(1)</script>");
  });

  test("takes a text within its limit, counted in characters as the server counts", () => {
    assert.equal(freetext.accept("a\tb\nc", 5), "a\tb\nc");
    assert.equal(freetext.accept("ñandú", 5), "ñandú");
    assert.equal(freetext.accept("😀😀", 2), "😀😀");
    assert.equal(freetext.accept("abcdef", 5), undefined);
  });

  test("refuses control characters other than a tab and a line break", () => {
    for (const text of ["a\u0000b", "bell\u0007", "esc\u001b[0m", "del\u007f"]) {
      assert.equal(freetext.accept(text, 100), undefined, JSON.stringify(text));
    }
  });

  test("sends the text as the value and 0 (answered) as the report", () => {
    assert.equal(freetext.report({ text: "hi", report: 0 }), 0);
    assert.equal(freetext.value({ text: "hi", report: 0 }), "hi");
  });

  test("is asked plainly and refuses a spec that randomizes it", () => {
    assert.equal(freetext.check(plain, 0, KINDS), "plain");
    assert.throws(() => freetext.check(randomized, 0, KINDS), SpecRefused);
  });
});
