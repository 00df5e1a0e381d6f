// Consent: a step of this page only, loaded only by a survey that asks for
// it (surveys/respond/page_modules.py).
//
// Agreeing shows the questions; declining sends nothing at all (no request)
// and can be undone. Neither choice is stored anywhere.

/**
 * @param {object} core what the page's script shares with its features
 * @returns {{wire: function(): void}} shows the statement and wires its buttons
 */
export default function consent(core) {
  const { byId, form } = core;
  function wire() {
    const statement = byId("consent");
    const declined = byId("declined");
    byId("consent-agree").addEventListener("click", () => {
      statement.hidden = true;
      form.hidden = false;
      const first = form.querySelector(".practice h2, .page:not([hidden]) h2");
      if (first) {
        first.tabIndex = -1;
        first.focus();
      }
    });
    byId("consent-decline").addEventListener("click", () => {
      statement.hidden = true;
      declined.hidden = false;
      declined.focus();
    });
    byId("consent-reconsider").addEventListener("click", () => {
      declined.hidden = true;
      statement.hidden = false;
      byId("consent-agree").focus();
    });
    statement.hidden = false;
  }
  return { wire };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/consent.js", { default: consent });
