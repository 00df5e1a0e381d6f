// Thresholds sent as a base and a rule: the page of a count or of a multiple
// choice with many answers receives each design's off-diagonal counts once
// (surveys/respond/page_specs.py), and this module writes the thresholds out
// before the randomizer (rr.js) checks and draws with them. It draws nothing.
//
// A part of the randomizer loaded only by a page with such a spec
// (surveys/respond/page_modules.py), with its integrity; a spec with a rule
// on a page without it has no thresholds, and rr.js refuses it before
// anything is drawn. Given rr.js rather than importing it, so that the bytes
// served are the source's, stripped, as rr.js's are.

/**
 * The part's code.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {{expandSpec: function(object): object}}
 */
export default function thresholdsRule(rr) {
  const { REFUSALS, refusal, show } = rr;

  /**
   * The spec with its thresholds written out, when the page sent them as a base
   * and a rule (surveys/respond/page_specs.py): the count of reporting r for truth t
   * is near[|r - t| - 1] for an inner option r, ends[t - 1] for the first and
   * ends[k - 2 - t] for the last, and the diagonal takes what is left of the
   * denominator. Only the expansion is checked here; the thresholds it gives
   * then pass the whole check (rr.js's checkSpec: every row, the epsilon) like any
   * others, so a base can state no more than full thresholds could.
   *
   * @param {object} spec a client spec, with thresholds or thresholds_rule
   * @returns {object} the spec with thresholds (the same object when it had them)
   * @throws {SpecRefused} when the base cannot be expanded
   */
  function expandSpec(spec) {
    const rule = spec?.thresholds_rule;
    if (rule === undefined) return spec;
    const { k, denominator } = spec;
    const counts = (list, length) =>
      Array.isArray(list) &&
      list.length === length &&
      list.every((value) => Number.isInteger(value) && value >= 0);
    let problem = null;
    if (spec.thresholds !== undefined) problem = "both thresholds and a rule";
    else if (!Number.isInteger(k) || k < 2) problem = `k must be an integer of at least 2, got ${show(k)}`;
    else if (!Number.isInteger(denominator)) problem = `denominator must be an integer, got ${show(denominator)}`;
    else if (!counts(rule?.near, k - 2)) problem = `near must be ${k - 2} counts`;
    else if (!counts(rule?.ends, k - 1)) problem = `ends must be ${k - 1} counts`;
    if (problem !== null) {
      throw refusal(REFUSALS, "unreadable", { problem: `malformed thresholds rule: ${problem}` });
    }
    const { near, ends } = rule;
    const thresholds = [];
    for (let t = 0; t < k; t++) {
      const row = new Array(k);
      let others = 0;
      for (let r = 0; r < k; r++) {
        if (r === t) continue;
        row[r] = r === 0 ? ends[t - 1] : r === k - 1 ? ends[k - 2 - t] : near[Math.abs(r - t) - 1];
        others += row[r];
      }
      row[t] = denominator - others;
      let bound = 0;
      thresholds.push(row.map((count) => (bound += count)));
    }
    const { thresholds_rule: _, ...rest } = spec;
    return { ...rest, thresholds };
  }

  return Object.freeze({ expandSpec });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/rr-rule.js", { default: thresholdsRule });
