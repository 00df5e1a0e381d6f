// The results page's live refresh: its sentences and its times.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { describe as describeRun, localTime } from "../../static/js/results-live.js";

// The sentences the server passes (surveys/results/live_words.py), in English
// and in Spanish.
const ENGLISH = {
  queued: "A recomputation is queued.",
  running: "Computing: %(questions_done)s of %(questions_total)s questions done.",
  failed:
    "The computation failed: %(error)s. The estimates shown are from the last one that finished.",
  no_reason: "no reason was recorded",
  time: "%(day)s %(month)s %(year)s, %(hour)s:%(minute)s %(zone)s",
};
const SPANISH = {
  running: "Calculando: %(questions_done)s de %(questions_total)s preguntas hechas.",
  time: "%(day)s de %(month)s de %(year)s, %(hour)s:%(minute)s %(zone)s",
};

describe("describe", () => {
  it("says how far a run got", () => {
    assert.equal(describeRun({ status: "queued" }, ENGLISH), "A recomputation is queued.");
    assert.equal(
      describeRun({ status: "running", questions_done: 2, questions_total: 5 }, ENGLISH),
      "Computing: 2 of 5 questions done.",
    );
  });
  it("says it in the words the server translated", () => {
    assert.equal(
      describeRun({ status: "running", questions_done: 2, questions_total: 5 }, SPANISH),
      "Calculando: 2 de 5 preguntas hechas.",
    );
  });
  it("says why a run failed, or that no reason was recorded", () => {
    assert.match(describeRun({ status: "failed", error: "boom" }, ENGLISH), /failed: boom\./);
    assert.match(describeRun({ status: "failed", error: "" }, ENGLISH), /no reason was recorded/);
  });
});

describe("localTime", () => {
  it("shows a moment in the reader's zone, named", () => {
    const iso = "2026-11-25T14:05:00+00:00";
    assert.equal(localTime(iso, "UTC", ENGLISH, "en-GB"), "25 November 2026, 14:05 UTC");
    assert.equal(localTime(iso, "America/Lima", ENGLISH, "en-GB"), "25 November 2026, 09:05 GMT-5");
    assert.equal(localTime(iso, "Asia/Manila", ENGLISH, "en-GB"), "25 November 2026, 22:05 GMT+8");
  });
  it("writes the month in the page's language", () => {
    assert.equal(
      localTime("2026-11-25T14:05:00+00:00", "UTC", SPANISH, "es"),
      "25 de noviembre de 2026, 14:05 UTC",
    );
  });
  it("crosses midnight with the zone", () => {
    assert.equal(
      localTime("2026-11-25T23:30:00+00:00", "Asia/Tokyo", ENGLISH, "en-GB"),
      "26 November 2026, 08:30 GMT+9",
    );
  });
  it("gives nothing for what is not a time", () => {
    assert.equal(localTime("yesterday", "UTC", ENGLISH, "en-GB"), null);
  });
});
