// Access: an invitation token or a panel's participant id. Loaded only by a
// survey that is not open to anyone with the link
// (surveys/respond/page_modules.py).
//
// The invitation travels in the link's fragment (#invitation=...), which the
// browser never sends with a page request, so it reaches no server or proxy
// log; only the submission's body carries it, to be counted once.

const REDIRECT_MS = 5000;

/**
 * @param {object} core what the page's script shares with its features
 * @returns {object} the credential, the check on opening, the refusal and
 *   the panel's redirect
 */
export default function access(core) {
  const { config, byId } = core;
  const mode = config.access.mode;
  const messages = config.access.messages;

  // The invitation or the panel's id from this address; null when missing.
  function credential() {
    if (mode === "invitation") {
      const token = new URLSearchParams(window.location.hash.slice(1)).get("invitation");
      return token ? { invitation: token } : null;
    }
    if (mode === "panel") {
      const id = new URLSearchParams(window.location.search).get(config.access.parameter);
      return id ? { participant: id } : null;
    }
    return {};
  }

  // A link to the page in another language keeps this address's query and
  // fragment, which hold a panel's id or an invitation; the server never sees
  // the fragment, so only the page can carry it over.
  function keepInLanguageLinks() {
    for (const link of document.querySelectorAll("nav.languages a")) {
      link.href = link.pathname + window.location.search + window.location.hash;
    }
  }

  // A refusal in place of the questions: no invitation or id in the address,
  // or the one there would be refused (unknown, already used). A panel's
  // refusal may name where the respondent goes instead (the screen-out URL).
  function refuse(refusal = {}) {
    const line = byId("access-refusal");
    line.textContent =
      refusal.error || (mode === "invitation" ? messages.missingInvitation : messages.missingParticipant);
    line.hidden = false;
    if (refusal.redirect) {
      line.after(byId("receipt-continue"));
      continueTo(refusal.redirect);
    }
  }

  // Asked on opening as the submission is asked (a POST with the invitation or
  // id in its body, never in an address a log could keep), so a link used
  // before is refused before anything is answered, even on a device that no
  // longer remembers answering ("Remove from this device"). The server reads
  // and records nothing. Only a refusal the submission would give stops the
  // page: no reply (offline, busy, throttled) opens it as before, and the
  // submission still decides.
  async function check() {
    try {
      const reply = await fetch(config.accessUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Accept-Language": config.language },
        body: JSON.stringify(credential()),
      });
      if (reply.ok || reply.status === 429 || reply.status >= 500) return null;
      const body = await reply.json().catch(() => ({}));
      return body.error ? body : null;
    } catch {
      return null;
    }
  }

  // A panel's completion (or screen-out) page: a visible link, then the redirect.
  function continueTo(url) {
    if (!url) return;
    const link = byId("continue-link");
    link.href = url;
    link.textContent = messages.continue;
    byId("receipt-continue").hidden = false;
    window.setTimeout(() => window.location.assign(url), REDIRECT_MS);
  }

  keepInLanguageLinks();
  return { credential, check, refuse, continueTo };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/access.js", { default: access });
