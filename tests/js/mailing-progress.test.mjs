// The e-mail page's progress sentences, filled from the server's translations.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { describeMailing, fill, underWay } from "../../static/js/mailing-progress.js";

const WORDS = {
  sending: "Enviando: %(done)s de %(total)s resueltos.",
  finished: "Terminado.",
  stopped: "Detenido.",
  counts: "%(sent)s enviados, %(failed)s fallidos, %(skipped)s omitidos, %(uncertain)s inciertos.",
};
const MAILING = { status: "sending", done: 3, total: 10, sent: 2, failed: 1, skipped: 0, uncertain: 0 };

describe("describeMailing", () => {
  it("says how far a mailing got, in the words the server gave", () => {
    assert.deepEqual(describeMailing(MAILING, WORDS), {
      state: "Enviando: 3 de 10 resueltos.",
      counts: "2 enviados, 1 fallidos, 0 omitidos, 0 inciertos.",
    });
    assert.equal(describeMailing({ ...MAILING, status: "finished" }, WORDS).state, "Terminado.");
    assert.equal(describeMailing({ ...MAILING, status: "stopped" }, WORDS).state, "Detenido.");
  });
  it("leaves an unknown name empty rather than printing it", () => {
    assert.equal(fill("%(a)s-%(b)s", { a: 1 }), "1-");
  });
});

describe("underWay", () => {
  it("keeps asking while a mailing is sending", () => {
    assert.equal(underWay([{ status: "finished" }, MAILING]), true);
    assert.equal(underWay([{ status: "finished" }, { status: "stopped" }]), false);
    assert.equal(underWay([]), false);
  });
});
