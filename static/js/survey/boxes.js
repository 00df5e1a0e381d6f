// Boxes typed into (a count, a number, a text): what every such box does the
// same, whichever kind reads it. Its "Prefer not to answer" turns its input
// off; a text's character count follows the typing; once the answers are
// settled the box is emptied. Its kind's own module only reads it
// (`truthOf`). Loaded only by a survey with such a question
// (surveys/respond/page_modules.py).

// The count read out by screen readers waits for a pause in typing.
const SAY_AFTER_MS = 800;

/**
 * @param {object} core what the page's script shares with its features
 * @returns {{wire: function(Element), forget: function(Element)}} a box's
 *   behaviour, set up once and undone when its answer is settled
 */
export default function typedBoxes(core) {
  const { fill } = core;
  const typedInput = (box) => box.querySelector("textarea, input:not([type=checkbox])");

  function charactersUsed(box) {
    // Characters as the server counts them (code points), not UTF-16 units.
    const used = [...typedInput(box).value].length;
    return fill(box.dataset.countWords, { used, max: box.dataset.max });
  }

  function wire(box) {
    const input = typedInput(box);
    const none = box.querySelector("[data-no-answer]");
    none?.addEventListener("change", () => {
      input.disabled = none.checked;
    });
    const count = box.querySelector(".char-count");
    if (!count) return;
    let timer;
    input.addEventListener("input", () => {
      // Shown at once; read out once typing pauses, not at every key.
      count.setAttribute("aria-live", "off");
      count.textContent = charactersUsed(box);
      clearTimeout(timer);
      timer = setTimeout(() => {
        count.setAttribute("aria-live", "polite");
        count.textContent = charactersUsed(box);
      }, SAY_AFTER_MS);
    });
  }

  function forget(box) {
    for (const input of box.querySelectorAll("input, textarea")) {
      if (input.type === "checkbox") input.checked = false;
      else input.value = "";
      input.disabled = false;
    }
    const count = box.querySelector(".char-count");
    if (count) count.textContent = charactersUsed(box);
  }

  return { wire, forget };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/boxes.js", { default: typedBoxes });
