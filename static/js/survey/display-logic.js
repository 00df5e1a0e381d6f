// Display logic: a question shown only after some plain answers. Loaded only
// by a page with a condition (surveys/respond/page_modules.py).
//
// Whether a condition is met: conditionMet (static/js/conditions.js), the
// same rule as the server's (surveys/display_logic/conditions.py).
import { conditionMet } from "../conditions.js";

/**
 * @param {object} core what the page's script shares with its features
 * @returns {{wire: function(): void, apply: function(): void}}
 */
export default function displayLogic(core) {
  const { config, form, byId, kindOf } = core;

  // Shows the questions whose conditions the plain answers given so far meet
  // and hides the others, in order, so a question hidden hides what depends on
  // it. A hidden question (the hidden attribute) leaves the tab order and what
  // a screen reader reads, is not required, and sends nothing; nothing is
  // announced, as a question appearing below is found in reading order.
  function apply() {
    const truths = core.truths();
    const answers = {};
    // A kind that takes a typed answer (a number): its code is its report (its
    // range), and a range clause reads the number itself.
    const numbers = {};
    for (const question of config.questions) {
      question.hidden = !conditionMet(question.condition, answers, numbers);
      if (question.condition) byId(`q${question.id}-text`).closest(".question").hidden = question.hidden;
      const truth = truths[question.id];
      if (question.hidden || !question.plain) continue;
      const kind = kindOf(question);
      if (kind.value && truth !== null && typeof truth === "object") {
        answers[question.id] = kind.report(truth);
        numbers[question.id] = kind.value(truth);
      } else if (typeof truth === "number") answers[question.id] = truth;
    }
  }

  function wire() {
    for (const type of ["click", "keydown", "input", "change"]) form.addEventListener(type, apply);
    apply();
  }

  return { wire, apply };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/display-logic.js", { default: displayLogic });
