// A yes/no question's own code on the respondent page: crosswise, where the
// respondent, not the device, produces the report.
//
// The respondent says whether two statements are both true or both false
// (report 1) or exactly one is true (report 0); the page sends that choice as
// it is and draws nothing. The spec carries Warner's thresholds with the
// innocuous prevalence, so the same epsilon cap applies. Every other yes/no
// design is randomized by static/js/rr.js as it is.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity, for a
// page with a yes/no question, and given the randomizer (rr.js) rather than
// importing it: this file is served from its kind's folder
// (surveys/kinds/binary/static/ as js/kinds/binary/), so an import of its
// own would resolve differently on disk and by URL.

const CROSSWISE = "crosswise";
// Why this kind refuses a spec, by code, in English (rr.js's REFUSALS says
// how a page in another language translates them).
const REFUSALS = Object.freeze({
  notCrosswise: "the design {design} cannot be asked as a crosswise pairing",
  crosswiseDirect: "a crosswise pairing cannot be asked directly",
});

/**
 * The kind's code, over the randomizer's checks.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its procedures, and the functions the tests call
 */
export default function binaryKind(rr) {
  const { REFUSALS: RR_REFUSALS, checkMechanism, refusal, show } = rr;

  /**
   * The crosswise report from the two answers it pairs (the coding the
   * estimator assumes; the page never learns either answer).
   *
   * @param {0 | 1} sensitive
   * @param {0 | 1} innocuous
   * @returns {0 | 1}
   */
  function crosswiseReport(sensitive, innocuous) {
    for (const value of [sensitive, innocuous]) {
      if (value !== 0 && value !== 1) throw new RangeError(`answers must be 0 or 1, got ${show(value)}`);
    }
    return sensitive === innocuous ? 1 : 0;
  }

  /**
   * checkSpec's checks for a crosswise spec, whose design must be crosswise,
   * with two answers and no validation arm.
   *
   * @param {object} spec a client spec with procedure "crosswise"
   * @param {number} [answers] how many answers the question shows
   * @returns {"crosswise"}
   * @throws {SpecRefused} as checkSpec does, and for another design
   */
  function checkCrosswiseSpec(spec, answers = undefined) {
    const { procedure, design, direct_arm: arm, ...thresholds } = spec;
    // A Warner spec relabelled crosswise would send the true answer as given.
    if (design !== CROSSWISE) {
      throw refusal(REFUSALS, "notCrosswise", { design: show(design) });
    }
    if (arm !== undefined) {
      throw refusal(REFUSALS, "crosswiseDirect");
    }
    if (checkMechanism(thresholds, answers) !== "randomized" || thresholds.k !== 2) {
      throw refusal(RR_REFUSALS, "unreadable", { problem: CROSSWISE });
    }
    return procedure;
  }

  return Object.freeze({
    // The designs whose report the respondent produces, with the procedure
    // the page must follow for each: part of this pinned file, never of the
    // page's data.
    procedures: Object.freeze({
      [CROSSWISE]: Object.freeze({
        designs: Object.freeze([CROSSWISE]),
        check: checkCrosswiseSpec,
        // The pairing the respondent chose is the report: nothing is drawn.
        report: (question, truth) => truth,
      }),
    }),
    refusals: REFUSALS,
    crosswiseReport,
    checkCrosswiseSpec,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/binary/page.js", { default: binaryKind });
