// The results page's live refresh: its sentences and its times.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { describe as describeRun, localTime } from "../../static/js/results-live.js";

describe("describe", () => {
  it("says how far a run got", () => {
    assert.equal(describeRun({ status: "queued" }), "A recomputation is queued.");
    assert.equal(
      describeRun({ status: "running", questions_done: 2, questions_total: 5 }),
      "Computing: 2 of 5 questions done.",
    );
  });
  it("says why a run failed, or that no reason was recorded", () => {
    assert.match(describeRun({ status: "failed", error: "boom" }), /failed: boom\./);
    assert.match(describeRun({ status: "failed", error: "" }), /no reason was recorded/);
  });
});

describe("localTime", () => {
  it("shows a moment in the reader's zone, named", () => {
    const iso = "2026-11-25T14:05:00+00:00";
    assert.equal(localTime(iso, "UTC"), "25 November 2026, 14:05 UTC");
    assert.equal(localTime(iso, "America/Lima"), "25 November 2026, 09:05 GMT-5");
    assert.equal(localTime(iso, "Asia/Manila"), "25 November 2026, 22:05 GMT+8");
  });
  it("crosses midnight with the zone", () => {
    assert.equal(
      localTime("2026-11-25T23:30:00+00:00", "Asia/Tokyo"),
      "26 November 2026, 08:30 GMT+9",
    );
  });
  it("gives nothing for what is not a time", () => {
    assert.equal(localTime("yesterday", "UTC"), null);
  });
});
