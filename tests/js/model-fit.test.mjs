// The Model panel's progress sentences.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { describeFit, underWay } from "../../static/js/model-fit.js";

// The sentences the server passes (surveys/results/live_words.py).
const ENGLISH = {
  queued: "A model fit is queued.",
  running: "Fitting the model: step %(steps_done)s of %(steps_total)s done.",
  finished: "The model is ready and shown below.",
  failed: "The model fit failed: %(error)s",
  no_reason: "no reason was recorded",
};

describe("describeFit", () => {
  it("says how far a fit got", () => {
    assert.equal(describeFit({ status: "queued" }, ENGLISH), "A model fit is queued.");
    assert.equal(
      describeFit({ status: "running", steps_done: 1, steps_total: 3 }, ENGLISH),
      "Fitting the model: step 1 of 3 done.",
    );
    assert.match(describeFit({ status: "finished" }, ENGLISH), /ready/);
  });
  it("says why a fit failed, or that no reason was recorded", () => {
    assert.match(
      describeFit({ status: "failed", error: "Choose another reference." }, ENGLISH),
      /failed: Choose another reference\.$/,
    );
    assert.match(describeFit({ status: "failed", error: "" }, ENGLISH), /no reason was recorded/);
  });
});

describe("underWay", () => {
  it("keeps asking while queued or running only", () => {
    assert.equal(underWay({ status: "queued" }), true);
    assert.equal(underWay({ status: "running" }), true);
    assert.equal(underWay({ status: "finished" }), false);
    assert.equal(underWay({ status: "failed" }), false);
  });
});
