// Cheating detection and the stochastic lie detector: the device draws a group
// and an instruction ("answer Yes" or "answer truthfully"), the page shows the
// instruction, the respondent answers, and only 2 * group + answer is sent
// (estimation/kinds/instructed/designs.py mirrors this). The instruction is never stored or
// sent: with the answer it would give away every compliant respondent told to
// answer truthfully. The draws do not depend on the true answer, so the cap
// applies to what a Yes reveals, yes_epsilon = max_g ln(1 / f_g); a compliant
// No is only ever given by someone whose answer is No, as the page says.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity, only
// for a page with such a question, and given the randomizer (rr.js) rather
// than importing it: this file is served from its kind's folder
// (surveys/kinds/instructed/static/ as js/kinds/instructed/), so an import of
// its own would resolve differently on disk and by URL.

const SPEC_FORMAT = 1;
const EPSILON_SLACK = 1e-9;
// The designs this procedure runs (estimation/kinds/instructed/designs.py): a spec named
// otherwise, given the procedure to send its true answer, is refused.
const DESIGNS = Object.freeze(["cheating_detection", "lie_detector"]);
const PROCEDURE = "instructed";
// Why this kind refuses a spec, by code, in English (rr.js's REFUSALS says
// how a page in another language translates them).
const REFUSALS = Object.freeze({
  tooLooseYes:
    "its design would protect a Yes less than this page allows (epsilon {epsilon}, above the limit of {limit})",
  statedYes: "its design states epsilon {stated} for a Yes, but its thresholds give {epsilon}",
});

/**
 * The kind's code, over the randomizer's draws.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its procedure, and the functions the tests call
 */
export default function instructedKind(rr) {
  const { MAX_EPSILON, REFUSALS: RR_REFUSALS, checkStated, cryptoSource, refusal, tooLoose, uniformBelow } =
    rr;
  let sharedSource = null;
  const defaultSource = () => (sharedSource ??= cryptoSource())();

  function malformed(problem) {
    return new TypeError(`malformed client spec: ${problem}`);
  }

  function checkShape(spec) {
    const { denominator: d, group_threshold: g, forced_yes: f } = spec ?? {};
    if (spec?.procedure !== PROCEDURE) throw malformed("procedure must be instructed");
    if (spec.format !== SPEC_FORMAT) throw malformed(`format must be ${SPEC_FORMAT}`);
    if (!DESIGNS.includes(spec.design)) throw malformed(`design must be one of ${DESIGNS.join(", ")}`);
    if (spec.k !== 2) throw malformed("k must be 2 (No and Yes)");
    if (spec.direct_arm != null) throw malformed("an instructed question has no validation arm");
    if (!Number.isInteger(d) || d < 1 || d > 2 ** 32) throw malformed("denominator must be 1 to 2**32");
    if (!Number.isInteger(g) || g < 1 || g >= d) throw malformed("group_threshold must be inside (0, denominator)");
    if (!Array.isArray(f) || f.length !== 2 || !f.every((c) => Number.isInteger(c) && c >= 1 && c < d)) {
      throw malformed("forced_yes must be two integers inside (0, denominator)");
    }
    if (f[0] === f[1]) throw malformed("forced_yes must differ between the groups");
  }

  /**
   * What a Yes reveals at most: ln(1 / f) for the least likely "answer Yes".
   *
   * @param {object} spec a client spec with procedure "instructed"
   * @returns {number}
   */
  function yesEpsilon(spec) {
    checkShape(spec);
    return Math.max(...spec.forced_yes.map((c) => Math.log(spec.denominator / c)));
  }

  /**
   * Checks an instructed spec before anything is drawn with it: its design and
   * shape, the group threshold and both groups' "answer Yes" thresholds strictly
   * inside (0, denominator) and different, what a Yes reveals within
   * MAX_EPSILON, and the stated yes_epsilon the one those thresholds give.
   *
   * @param {object} spec
   * @param {number} [answers] how many answers the question shows (2)
   * @returns {"instructed"}
   * @throws {SpecRefused} when malformed or when a Yes is protected less than MAX_EPSILON
   */
  function checkInstructedSpec(spec, answers = undefined) {
    let epsilon;
    try {
      epsilon = yesEpsilon(spec);
    } catch (error) {
      throw refusal(RR_REFUSALS, "unreadable", { problem: error.message });
    }
    if (answers !== undefined && answers !== spec.k) {
      throw refusal(RR_REFUSALS, "answersMismatch", { k: spec.k, shown: answers });
    }
    if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) throw tooLoose(epsilon, REFUSALS, "tooLooseYes");
    checkStated(spec.yes_epsilon, epsilon, REFUSALS, "statedYes");
    return PROCEDURE;
  }

  /**
   * The group and the instruction: group 0 when u < group_threshold, then
   * "answer Yes" when v < forced_yes[group], u and v independent uniform draws.
   * A group drawn before (kept so that a reload cannot choose it) skips the
   * first draw; the instruction is always drawn anew.
   *
   * @param {object} spec a client spec with procedure "instructed"
   * @param {() => number} [source] uniform 32-bit integers; crypto by default
   * @param {0 | 1} [keptGroup] the group drawn before, if any
   * @returns {{group: 0 | 1, sayYes: boolean}}
   */
  function instruct(spec, source = defaultSource, keptGroup = undefined) {
    checkShape(spec);
    if (keptGroup !== undefined && keptGroup !== 0 && keptGroup !== 1) {
      throw new RangeError(`a kept group must be 0 or 1, got ${keptGroup}`);
    }
    const group =
      keptGroup ?? (uniformBelow(spec.denominator, source) < spec.group_threshold ? 0 : 1);
    const sayYes = uniformBelow(spec.denominator, source) < spec.forced_yes[group];
    return { group, sayYes };
  }

  /**
   * The one number sent: 2 * group + answer (0 No, 1 Yes).
   *
   * @param {0 | 1} group
   * @param {0 | 1} answer
   * @returns {number}
   */
  function instructedReport(group, answer) {
    for (const value of [group, answer]) {
      if (value !== 0 && value !== 1) throw new RangeError(`group and answer must be 0 or 1, got ${value}`);
    }
    return 2 * group + answer;
  }

  return Object.freeze({
    // The designs whose report the respondent produces, with the procedure
    // the page must follow for each: part of this pinned file, never of the
    // page's data.
    procedures: Object.freeze({
      [PROCEDURE]: Object.freeze({
        designs: DESIGNS,
        check: checkInstructedSpec,
        // Drawn before the question is shown: the group, kept (it is sent
        // anyway) so that a reload cannot pick it, and the instruction, drawn
        // anew each time and shown only on the page.
        draw(spec, kept) {
          const { group, sayYes } = instruct(spec, undefined, kept);
          return { keep: group, say: sayYes ? "instructYes" : "instructTruth", values: { group: group + 1 } };
        },
        // The respondent followed (or not) the instruction: the answer and the group.
        report: (question, truth) => instructedReport(question.kept, truth),
      }),
    }),
    refusals: REFUSALS,
    checkInstructedSpec,
    instruct,
    instructedReport,
    yesEpsilon,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/instructed/page.js", { default: instructedKind });
