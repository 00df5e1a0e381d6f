// Free text's own code on the respondent page: asked plainly, not protected.
//
// The respondent types in a box with no name, in no form; the module every
// typed box shares (static/js/survey/boxes.js) counts the characters as they
// are typed (the box's maxlength stops at the limit). This module reads the
// text with its line breaks as "\n" and without the blank space around it,
// and gives the page the text to send as typed, with the report 0
// (answered). The server checks the limit and the characters again
// (surveys/kinds/freetext/answer.py). Nothing is drawn: the spec must send
// every answer as given, or the page refuses the question. Text is only ever
// written into the page as text (textContent), never as markup.
//
// Loaded by the respondent page (static/js/survey.js) with its integrity and
// given the randomizer (rr.js), as every kind's module is.

const NO_ANSWER = "none";
const ANSWERED = 0;
// Control characters other than a tab and a line break: refused by the server.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * The kind's code.
 *
 * @param {object} rr the randomizer's module (static/js/rr.js)
 * @returns {object} its check, report, value and the page's hooks
 */
export default function freetextKind(rr) {
  const { SpecRefused, checkSpec } = rr;

  function check(spec, answers, kinds) {
    if (checkSpec(spec, undefined, kinds) !== "plain") {
      throw new SpecRefused("free text is asked plainly, but its spec randomizes it");
    }
    return "plain";
  }

  /**
   * What was typed as it is sent: line breaks as "\n", no blank space around.
   *
   * @param {string} text
   * @returns {string}
   */
  function normalize(text) {
    return text.replace(/\r\n?/g, "\n").trim();
  }

  /**
   * A text the question takes, or undefined: over the limit, or with a
   * control character.
   *
   * @param {string} text normalized
   * @param {number} max the limit, in characters
   * @returns {string | undefined}
   */
  function accept(text, max) {
    // Characters as the server counts them (code points), not UTF-16 units.
    if ([...text].length > max || CONTROL.test(text)) return undefined;
    return text;
  }

  const boxText = (box) => box.querySelector("textarea");
  const maxOf = (box) => Number(box.dataset.max);

  // The true answer of one box: its text, NO_ANSWER, null (left empty) or
  // undefined (not a text the question takes).
  function truthOf(box) {
    if (box.querySelector("[data-no-answer]")?.checked) return NO_ANSWER;
    const text = normalize(boxText(box).value);
    if (text === "") return null;
    const taken = accept(text, maxOf(box));
    return taken === undefined ? undefined : { text: taken, report: ANSWERED };
  }

  return Object.freeze({
    check,
    report: (truth) => truth.report,
    // Sent beside the report, as typed.
    value: (truth) => truth.text,
    boxes: ".text-answer",
    truthOf,
    // What the page says of a text it cannot send.
    invalidWords: "textInvalid",
    invalid: (box) => ({ max: box.dataset.max }),
    normalize,
    accept,
  });
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/kinds/freetext/page.js", { default: freetextKind });
