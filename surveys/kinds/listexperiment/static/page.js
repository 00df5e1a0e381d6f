// The list experiment (item count technique): the device puts the respondent
// at random in the control group (the J control items) or, with probability
// treatment_share, the treatment group (the same items plus the sensitive
// one), shows that list in a random order, and the respondent says only how
// many items apply. One number is sent: the count c itself in control
// (0..J), (J + 1) + c in treatment (0..J+1), so 2J + 3 codes in all
// (estimation/kinds/listexperiment/designs.py mirrors this).
//
// Nothing here is randomized response: the count is sent as given. It has no
// epsilon, as the page says: a treatment respondent who says 0 or J + 1 gives
// their sensitive answer away. The group is kept (it is sent anyway) so that
// a reload cannot choose the list; the order is drawn anew on each load and
// never stored or sent.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity and
// given the randomizer (rr.js), as every kind's module is; every draw comes
// from crypto.getRandomValues through rr.js's cryptoSource, or from the
// source a test passes in.

const PROCEDURE = "list_experiment";
const DESIGNS = Object.freeze([PROCEDURE]);
const MIN_ITEMS = 2;
const MAX_ITEMS = 10;
const DENOMINATOR = 2 ** 32;
const CONTROL = 0;
const TREATMENT = 1;
// Why this kind refuses a spec, in English (the page translates by code).
const REFUSALS = Object.freeze({
  listShape: "its list experiment is malformed ({problem})",
});

/**
 * The kind's code, over the randomizer's draws.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its procedure, its hooks and the functions the tests call
 */
export default function listExperimentKind(rr) {
  const { cryptoSource, refusal, uniformBelow } = rr;
  let sharedSource = null;
  const defaultSource = () => (sharedSource ??= cryptoSource())();

  function problemOf(spec) {
    if (spec?.name !== PROCEDURE) return `name must be ${PROCEDURE}`;
    const { items, treatment_share: share } = spec;
    if (!Number.isInteger(items) || items < MIN_ITEMS || items > MAX_ITEMS) {
      return `items must be a whole number from ${MIN_ITEMS} to ${MAX_ITEMS}`;
    }
    if (typeof share !== "number" || !(share > 0 && share < 1)) return "treatment_share must be inside (0, 1)";
    if (spec.direct_arm != null) return "a list experiment has no validation arm";
    return null;
  }

  /**
   * Checks a list experiment's spec before anything is drawn: its shape, and
   * that the question shows the counts 0..J+1.
   *
   * @param {object} spec
   * @param {number} [answers] how many answers (counts) the question shows
   * @returns {"list_experiment"}
   * @throws {SpecRefused} when malformed
   */
  function check(spec, answers = undefined) {
    let problem = problemOf(spec);
    if (problem === null && answers !== undefined && answers !== spec.items + 2) {
      problem = `the question shows ${answers} counts, not 0 to ${spec.items + 1}`;
    }
    if (problem !== null) throw refusal(REFUSALS, "listShape", { problem });
    return PROCEDURE;
  }

  /**
   * The group: treatment when u < round(treatment_share * 2**32), u uniform.
   *
   * @param {object} spec
   * @param {() => number} [source] uniform 32-bit integers; crypto by default
   * @returns {0 | 1} CONTROL or TREATMENT
   */
  function assignGroup(spec, source = defaultSource) {
    const threshold = Math.round(spec.treatment_share * DENOMINATOR);
    return uniformBelow(DENOMINATOR, source) < threshold ? TREATMENT : CONTROL;
  }

  /**
   * A uniformly random order of `length` positions (Fisher–Yates).
   *
   * @param {number} length
   * @param {() => number} [source]
   * @returns {number[]}
   */
  function shuffledOrder(length, source = defaultSource) {
    const order = [...Array(length).keys()];
    for (let i = length - 1; i > 0; i--) {
      const j = uniformBelow(i + 1, source);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  /**
   * The one number sent for a group and a count.
   *
   * @param {number} items J
   * @param {0 | 1} group
   * @param {number} count
   * @returns {number}
   */
  function listReport(items, group, count) {
    if (group !== CONTROL && group !== TREATMENT) throw new RangeError(`group must be 0 or 1, got ${group}`);
    const top = group === TREATMENT ? items + 1 : items;
    if (!Number.isInteger(count) || count < 0 || count > top) {
      throw new RangeError(`count must be a whole number from 0 to ${top}, got ${count}`);
    }
    return group === TREATMENT ? items + 1 + count : count;
  }

  /**
   * The group and the count a code holds.
   *
   * @param {number} items J
   * @param {number} code
   * @returns {{group: 0 | 1, count: number}}
   */
  function decode(items, code) {
    return code <= items ? { group: CONTROL, count: code } : { group: TREATMENT, count: code - items - 1 };
  }

  // Shows the group's list in a random order and only the counts it allows.
  function showList(question, group, source) {
    const list = document.getElementById(`q${question.id}-list`);
    const counts = document.querySelector(`.options[data-question="${question.id}"]`);
    if (!list || !counts) return;
    const sensitive = list.querySelector("[data-sensitive]");
    if (group === CONTROL) sensitive.remove();
    const entries = [...list.querySelectorAll("[data-list-item]")];
    list.replaceChildren(...shuffledOrder(entries.length, source).map((i) => entries[i]));
    list.hidden = false;
    // The shorter list's highest count is J: the count J + 1 is not an answer.
    const top = counts.querySelector(`[data-option="${question.spec.items + 1}"]`);
    if (group === CONTROL && top) top.hidden = true;
  }

  return Object.freeze({
    check,
    procedures: Object.freeze({
      [PROCEDURE]: Object.freeze({
        designs: DESIGNS,
        check,
        // Drawn before the question is shown: the group, kept so that a
        // reload cannot choose it, and the order, drawn anew.
        draw(spec, kept, question, source = defaultSource) {
          const group = kept === CONTROL || kept === TREATMENT ? kept : assignGroup(spec, source);
          if (question) showList(question, group, source);
          return { keep: group };
        },
        // The count the respondent chose, with the group.
        report: (question, count) => listReport(question.spec.items, question.kept, count),
      }),
    }),
    // The receipt: the count, as the respondent chose it.
    label: (report, options) => options[decode(options.length - 2, report).count],
    refusals: REFUSALS,
    assignGroup,
    decode,
    listReport,
    shuffledOrder,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/listexperiment/page.js", { default: listExperimentKind });
