// A number's own code on the respondent page: asked plainly.
//
// The respondent types a number in a box with no name, in no form; this module
// reads it, checks it against the question's bounds and decimals (the server
// checks again, surveys/kinds/numeric/answer.py), and gives the page the
// number to send as typed and its bin as the report (the bins are the
// question's options: below the first cut point, between cut points, the last
// cut point or more). Nothing is drawn: the spec must send every answer as
// given, or the page refuses the question.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity and
// given the randomizer (rr.js), as every kind's module is.

const NO_ANSWER = "none";

/**
 * The kind's code.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its check, report, value and the page's hooks
 */
export default function numericKind(rr) {
  const { checkSpec, refusal } = rr;
  // Why this kind refuses a spec, by code, in English (rr.js's REFUSALS says
  // how a page in another language translates them).
  const REFUSALS = Object.freeze({
    numberRandomized: "a number is asked plainly, but its spec randomizes it",
  });

  // The box shows no options: only a spec that sends its bins as given fits.
  function check(spec, answers, kinds) {
    if (checkSpec(spec, undefined, kinds) !== "plain") {
      throw refusal(REFUSALS, "numberRandomized");
    }
    return "plain";
  }

  /**
   * A typed text read as the question's number, or undefined when it is not
   * one: outside the bounds, more decimals than allowed, or not a number.
   *
   * @param {string} text what was typed
   * @param {{min: number, max: number, decimals: number}} format
   * @returns {number | undefined}
   */
  function parse(text, { min, max, decimals }) {
    const trimmed = text.trim();
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return undefined;
    const number = Number(trimmed);
    if (!Number.isFinite(number) || number < min || number > max) return undefined;
    const scaled = number * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) > 1e-6) return undefined;
    return Number(number.toFixed(decimals));
  }

  /**
   * The bin of a number: how many cut points are at or below it.
   *
   * @param {number} number
   * @param {number[]} cuts increasing
   * @returns {number}
   */
  function binOf(number, cuts) {
    return cuts.filter((cut) => cut <= number).length;
  }

  function formatOf(box) {
    return {
      min: Number(box.dataset.min),
      max: Number(box.dataset.max),
      decimals: Number(box.dataset.decimals),
      cuts: box.dataset.cuts.split(" ").filter(Boolean).map(Number),
    };
  }

  // The true answer of one box: the number, NO_ANSWER, null (left empty) or
  // undefined (not a number the question takes).
  function truthOf(box) {
    if (box.querySelector("[data-no-answer]")?.checked) return NO_ANSWER;
    const text = box.querySelector("input[type=number]").value;
    if (text.trim() === "") {
      // A browser leaves the value empty for text it cannot read as a number.
      return box.querySelector("input[type=number]").validity.badInput ? undefined : null;
    }
    const number = parse(text, formatOf(box));
    return number === undefined ? undefined : { number, report: binOf(number, formatOf(box).cuts) };
  }

  return Object.freeze({
    refusals: REFUSALS,
    check,
    // The report is the bin, worked out when the number was read.
    report: (truth) => truth.report,
    // Sent beside the report, as typed.
    value: (truth) => truth.number,
    boxes: ".number-answer",
    truthOf,
    invalid: (box) => ({ min: box.dataset.min, max: box.dataset.max }),
    parse,
    binOf,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/numeric/page.js", { default: numericKind });
