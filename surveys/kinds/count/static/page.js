// A count's own code on the respondent page: the box a whole number from 0 to
// the question's maximum is typed in.
//
// The randomizer (rr.js) draws its report over the design's matrix as for any
// option; this module only reads the box (a number input with no name, in no
// form), so that a page without a count loads none of it.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity and
// given the randomizer (rr.js), as every kind's module is.

const NO_ANSWER = "none";

/**
 * The kind's code.
 *
 * @returns {object} the page's hooks for the count box
 */
export default function countKind() {
  // The true answer of one box: the count, NO_ANSWER, null (left empty) or
  // undefined (not a whole number from 0 to the maximum).
  function truthOf(box) {
    if (box.querySelector("[data-no-answer]")?.checked) return NO_ANSWER;
    const text = box.querySelector("input[type=number]").value.trim();
    if (text === "") return null;
    const count = Number(text);
    return Number.isInteger(count) && count >= 0 && count <= Number(box.dataset.max) ? count : undefined;
  }

  return Object.freeze({
    boxes: ".count-answer",
    truthOf,
    // The counts 0 to the maximum: the spec must have that many answers.
    answersShown: (box) => Number(box.dataset.max) + 1,
    invalid: (box) => ({ max: box.dataset.max }),
    invalidWords: "countInvalid",
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/count/page.js", { default: countKind });
