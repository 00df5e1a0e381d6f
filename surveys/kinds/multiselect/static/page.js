// A check-all-that-apply question's own code on the respondent page.
//
// Every item's tick goes through the randomizer's randomize() on its own, with
// the yes/no spec the server sends as `spec.bit` (UnaryEncoding.client_spec in
// estimation/kinds/multiselect/designs.py), and the reports are packed into a
// bit mask, item i in bit i. estimation/kinds/multiselect/simulate.py mirrors
// this step for step: one uniform draw per item, in item order. The whole
// answer's epsilon is m times one bit's (any two answers may differ in every
// item), and it is that one that is held to MAX_EPSILON.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity, for a
// page with such a question, and given the randomizer (rr.js) rather than
// importing it: this file is served from its kind's folder
// (surveys/kinds/multiselect/static/ as js/kinds/multiselect/), so an import of
// its own would resolve differently on disk and by URL. Every draw is the
// pinned randomizer's.

// As estimation/kinds/multiselect/designs.py MAX_ITEMS: masks are stored in a 31-bit column.
const MAX_ITEMS = 30;
// Why this kind refuses a spec, by code, in English (rr.js's REFUSALS says
// how a page in another language translates them).
const REFUSALS = Object.freeze({
  itemsDirect: "a check-all-that-apply question cannot be asked directly",
  itemsAsTicked: "its items would be sent exactly as ticked",
  itemsMismatch: "its design has {m} items, but the question shows {shown}",
  tooLooseItems:
    "its design would protect your answer less than this page allows (epsilon {epsilon} for all items together, above the limit of {limit})",
  statedItems: "its design states epsilon {stated} for all items together, but its thresholds give {epsilon}",
  statedItem: "its design states epsilon {stated} for one item, but its thresholds give {epsilon}",
});

/**
 * The kind's code, over the randomizer's checks and draws.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its check, report and report label, and the functions the
 *   tests call
 */
export default function multiselectKind(rr) {
  const {
    EPSILON_SLACK,
    MAX_EPSILON,
    SPEC_FORMAT,
    REFUSALS: RR_REFUSALS,
    SpecRefused,
    refusal,
    checkSpec,
    checkStated,
    randomize,
    show,
    specEpsilon,
    tooLoose,
  } = rr;

  function itemCount(spec) {
    if (spec === null || typeof spec !== "object") {
      throw new TypeError(`malformed unary spec: expected an object, got ${String(spec)}`);
    }
    if (spec.format !== SPEC_FORMAT) {
      throw new TypeError(`malformed unary spec: format ${show(spec.format)} is not ${SPEC_FORMAT}`);
    }
    const { m } = spec;
    if (!Number.isInteger(m) || m < 2 || m > MAX_ITEMS) {
      throw new TypeError(`malformed unary spec: m must be an integer from 2 to ${MAX_ITEMS}`);
    }
    if (spec.bit?.k !== 2) {
      throw new TypeError("malformed unary spec: bit must be a yes/no spec (k = 2)");
    }
    return m;
  }

  /**
   * The reported bit mask for a list of ticks, one randomize() per item.
   *
   * @param {boolean[]} ticked the true ticks, one per item
   * @param {{m: number, bit: object}} spec the question's unary spec
   * @param {() => number} [source] uniform 32-bit integers; crypto by default
   * @returns {number} the mask, item i in bit i
   */
  function randomizeItems(ticked, spec, source) {
    const m = itemCount(spec);
    if (!Array.isArray(ticked) || ticked.length !== m) {
      throw new RangeError(`ticked must list one tick per item (${m})`);
    }
    let mask = 0;
    for (let i = 0; i < m; i++) {
      const bit = randomize(ticked[i] ? 1 : 0, spec.bit, source);
      // Arithmetic, not <<: stays exact past bit 30.
      mask += bit * 2 ** i;
    }
    return mask;
  }

  /**
   * The whole answer's epsilon from the bit spec's own thresholds: m times one
   * bit's worst log ratio.
   *
   * @param {object} spec a unary spec
   * @returns {number}
   */
  function unaryEpsilon(spec) {
    return itemCount(spec) * specEpsilon(spec.bit);
  }

  /**
   * Checks a unary spec before any tick is randomized with it: no procedure and
   * no validation arm (neither exists for check all that apply), one item per
   * box the page shows, the bit checked as checkSpec checks a yes/no spec, the
   * whole answer within MAX_EPSILON, and the stated epsilons (whole answer and
   * one item) the ones the bit's thresholds give.
   *
   * @param {object} spec a unary spec
   * @param {number} [items] how many boxes the question shows; m must be that
   * @param {object[]} [kinds] the kinds' modules the page loaded, for checkSpec
   * @returns {"randomized"}
   * @throws {SpecRefused} when the bit is sent as given, the spec is malformed,
   *   or the whole answer's epsilon is above MAX_EPSILON
   */
  function checkUnarySpec(spec, items = undefined, kinds = []) {
    if (spec?.procedure !== undefined) {
      throw refusal(RR_REFUSALS, "unknownProcedure", { procedure: show(spec.procedure) });
    }
    if (spec?.direct_arm != null || spec?.bit?.direct_arm != null) {
      throw refusal(REFUSALS, "itemsDirect");
    }
    let epsilon;
    try {
      if (checkSpec(spec.bit, undefined, kinds) !== "randomized") {
        throw refusal(REFUSALS, "itemsAsTicked");
      }
      epsilon = unaryEpsilon(spec);
    } catch (error) {
      if (error instanceof SpecRefused) throw error;
      throw refusal(RR_REFUSALS, "unreadable", { problem: error.message });
    }
    if (items !== undefined && spec.m !== items) {
      throw refusal(REFUSALS, "itemsMismatch", { m: show(spec.m), shown: show(items) });
    }
    if (!(epsilon <= MAX_EPSILON + EPSILON_SLACK)) {
      throw tooLoose(epsilon, REFUSALS, "tooLooseItems");
    }
    checkStated(spec.epsilon, epsilon, REFUSALS, "statedItems");
    checkStated(spec.epsilon_item, epsilon / spec.m, REFUSALS, "statedItem");
    return "randomized";
  }

  /**
   * What a sent mask says, in words: the items sent ticked, or ``nothing``.
   *
   * @param {number} report the mask, item i in bit i
   * @param {string[]} items the items, in order
   * @param {string} nothing the words for no item sent ticked
   * @returns {string}
   */
  function reportLabel(report, items, nothing) {
    const ticked = items.filter((_, i) => Math.floor(report / 2 ** i) % 2 === 1);
    return ticked.length ? ticked.join("; ") : nothing;
  }

  return Object.freeze({
    procedures: Object.freeze({}),
    refusals: REFUSALS,
    // Every question of this kind: its spec is a unary one, with no procedure.
    check: checkUnarySpec,
    report: (truth, spec) => randomizeItems(truth, spec),
    label: reportLabel,
    checkUnarySpec,
    randomizeItems,
    unaryEpsilon,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/multiselect/page.js", { default: multiselectKind });
