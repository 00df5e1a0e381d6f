// The practice round: randomized here like a real question, never sent.
// Loaded only by a survey with a practice round
// (surveys/respond/page_modules.py).
//
// The practice answer and its report live only in this module's variables
// and the buttons' state: no storage, no form, no request carries them. The
// spec passes the page's own check first, as every real one does.

/**
 * @param {object} core what the page's script shares with its features
 * @returns {{wire: function(object|null): void}} wires the round, or hides
 *   it when answers are already stored
 */
export default function practiceRound(core) {
  const { config, byId, fill } = core;
  const { SpecRefused, checkAnySpec, randomize } = core.randomizer;

  function wire(stored) {
    const section = byId("practice");
    const practice = config.practice;
    if (!section || !practice) return;
    try {
      checkAnySpec(practice.spec, practice.options.length);
    } catch (error) {
      if (!(error instanceof SpecRefused)) throw error;
      section.remove();
      return;
    }
    if (stored) {
      section.hidden = true;
      return;
    }
    // Wired with the page's other radio groups (the core's start).
    const group = section.querySelector("[role=radiogroup]");
    const result = byId("practice-result");
    const line = (text) => {
      const paragraph = document.createElement("p");
      paragraph.textContent = text;
      return paragraph;
    };
    byId("practice-try").addEventListener("click", () => {
      const chosen = group.querySelector("[aria-checked=true]");
      if (!chosen) {
        result.replaceChildren(line(practice.messages.choose));
        return;
      }
      const truth = Number(chosen.dataset.option);
      const report = randomize(truth, practice.spec);
      const words = practice.messages;
      const values = { truth: practice.options[truth], report: practice.options[report] };
      const drawn = fill(report === truth ? words.kept : words.flipped, values);
      const said = [drawn, words.nothingSent, words.real].filter(Boolean).map(line);
      result.replaceChildren(...said);
    });
  }

  return { wire };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/practice.js", { default: practiceRound });
