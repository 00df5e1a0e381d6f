// The validation arm: a question asked directly, without protection, of a
// share of respondents drawn on the page (estimation/inference/validation.py):
// its check (well formed, at most MAX_DIRECT_PERCENT, which rr.js states),
// its draw and the code a direct answer is sent as.
//
// A part of the randomizer loaded only by a page with such a question
// (surveys/respond/page_modules.py), with its integrity. Given rr.js, it
// gives rr.js its check; until then rr.js refuses every spec with an arm, so
// an arm is never drawn with, nor asked, unchecked. Every draw comes from
// rr.js's uniformBelow, by default over crypto.getRandomValues. Given rr.js
// rather than importing it, so that the bytes served are the source's,
// stripped, as rr.js's are.

/**
 * The part's code.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {{checkArm: function, assignArm: function, directCode: function}}
 */
export default function validationArm(rr) {
  const { MAX_DIRECT_PERCENT, REFUSALS, refusal, show, uniformBelow } = rr;

  // What is malformed in a validation arm, or null when it is well formed.
  function armProblem(arm, bits = 32) {
    if (arm === null || typeof arm !== "object" || arm.format !== 1) {
      return `expected format 1, got ${show(arm?.format)}`;
    }
    const { denominator, direct_below: below } = arm;
    if (!Number.isInteger(denominator) || denominator < 1 || denominator > 2 ** bits) {
      return `denominator ${show(denominator)}`;
    }
    if (!Number.isInteger(below) || below < 0 || below > denominator) {
      return `direct_below ${show(below)}`;
    }
    return null;
  }

  // Whether a well-formed arm asks more than MAX_DIRECT_PERCENT directly; in
  // integers on both sides, so exact at the limit.
  const armTooLarge = (arm) => arm.direct_below * 100 > MAX_DIRECT_PERCENT * arm.denominator;

  /**
   * Checks a validation arm (a spec's direct_arm) before it is drawn with: well
   * formed, and asking at most MAX_DIRECT_PERCENT of respondents directly.
   *
   * @param {object} arm the spec's direct_arm
   * @throws {SpecRefused} for a malformed arm or one above the limit
   */
  function checkArm(arm) {
    const problem = armProblem(arm);
    if (problem !== null) {
      throw refusal(REFUSALS, "unreadableArm", { problem });
    }
    if (armTooLarge(arm)) {
      const share = Math.ceil((100 * arm.direct_below) / arm.denominator);
      throw refusal(REFUSALS, "armTooLarge", { share, limit: MAX_DIRECT_PERCENT });
    }
  }

  /**
   * Which way one question is asked of this respondent when it has a validation
   * arm (estimation/inference/validation.py): directly with probability
   * direct_below / denominator, else randomized. Drawn once, before the question
   * is shown, so the page can say which way it is asked before the answer; the
   * draw is independent of the respondent and of every answer.
   *
   * @param {{format: 1, denominator: number, direct_below: number}} arm the
   *   spec's direct_arm
   * @param {() => number} [source] uniform integers; crypto by default
   * @param {number} [bits=32] uniform bits per source value (tests enumerate 8)
   * @returns {"direct" | "randomized"}
   * @throws {TypeError} on a malformed arm spec, or one above MAX_DIRECT_PERCENT
   */
  function assignArm(arm, source, bits = 32) {
    const problem = armProblem(arm, bits);
    if (problem !== null) throw new TypeError(`malformed direct arm: ${problem}`);
    if (armTooLarge(arm)) throw new TypeError(`direct arm above ${MAX_DIRECT_PERCENT}%`);
    return uniformBelow(arm.denominator, source, bits) < arm.direct_below ? "direct" : "randomized";
  }

  /**
   * The code a direct answer is sent as: the option's plus k, so the server
   * keeps it apart from the randomized reports (codes 0..k-1).
   *
   * @param {number} truth option index, in [0, k)
   * @param {number} k the question's number of options
   * @returns {number}
   */
  function directCode(truth, k) {
    if (!Number.isInteger(k) || k < 2 || !Number.isInteger(truth) || truth < 0 || truth >= k) {
      throw new RangeError(`truth must be an option index from 0 to ${k - 1}, got ${show(truth)}`);
    }
    return k + truth;
  }

  rr.addArmCheck(checkArm);
  return Object.freeze({ checkArm, assignArm, directCode });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/rr-arm.js", { default: validationArm });
