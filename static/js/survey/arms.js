// The validation arm: a question asked directly of some respondents, who are
// told so before answering. Loaded only by a survey with such a question
// (surveys/respond/page_modules.py).

/**
 * @param {object} core what the page's script shares with its features
 * @returns {{assign: function(object): object}} draws each question's arm
 */
export default function validationArms(core) {
  const { config, words, byId } = core;
  // The randomizer's part for validation arms (static/js/rr-arm.js), listed
  // by the server with this module.
  const { assignArm } = core.parts.arm;

  function markDirect(question) {
    const how = byId(`q${question.id}-how`);
    how.replaceChildren();
    const label = document.createElement("strong");
    label.textContent = words.directLabel;
    how.append(label, " ", words.directText);
    how.classList.add("plain", "direct-arm");
    question.receipt_note = words.directReceipt;
  }

  // Drawn before any question is shown: each question with an arm is asked
  // directly with its spec's probability, independently of the respondent
  // and of every answer. ``kept`` holds the arms drawn before a reload, by
  // question; the arms drawn are returned, to be kept the same way.
  function assign(kept) {
    const arms = {};
    for (const question of config.questions) {
      const arm = question.spec.direct_arm;
      if (question.procedure || !arm || question.plain) continue;
      question.arm = kept[question.id] ?? assignArm(arm);
      arms[question.id] = question.arm;
      if (question.arm === "direct") markDirect(question);
    }
    const note = byId("direct-arm-note");
    if (note) note.hidden = !Object.values(arms).includes("direct");
    return arms;
  }

  return { assign };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/arms.js", { default: validationArms });
