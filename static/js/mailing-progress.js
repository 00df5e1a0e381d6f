// The e-mail page of a survey's invitations follows a mailing while it sends.
//
// The page passes, in a json_script element, the progress URL, each mailing's
// progress when the page was drawn and its sentences, translated by the
// server. This asks for the progress every few seconds while a mailing is
// sending and rewrites that mailing's line in the live region; once none is
// sending, it draws the counts and the send buttons anew from the page as the
// server now draws it. Without JavaScript, reloading the page shows the same.

import { fetchJson, fetchThisPage, fill } from "./live-fetch.js";

export { fill };

const EVERY_MS = 3000;

/** The state sentence and the counts sentence of one mailing. */
export function describeMailing(mailing, words) {
  const state = mailing.status === "sending" ? fill(words.sending, mailing) : words[mailing.status] || "";
  return { state, counts: fill(words.counts, mailing) };
}

/** Whether any mailing is still sending. */
export function underWay(mailings) {
  return mailings.some((m) => m.status === "sending");
}

function show(mailing, words) {
  const box = document.querySelector(`[data-mailing="${mailing.id}"]`);
  if (!box) return;
  const text = describeMailing(mailing, words);
  box.querySelector("[data-mailing-state]").textContent = text.state;
  box.querySelector("[data-mailing-counts]").textContent = text.counts;
  const bar = box.querySelector("[data-mailing-bar]");
  if (!bar) return;
  if (mailing.status === "sending") {
    bar.max = Math.max(mailing.total, 1);
    bar.value = mailing.done;
    bar.textContent = `${mailing.done} / ${mailing.total}`;
  } else {
    bar.remove();
  }
}

function start() {
  const config = JSON.parse(document.getElementById("mailing-progress-config").textContent);

  async function refresh() {
    const fresh = await fetchThisPage();
    for (const id of ["mail-facts", "send-actions"]) {
      const replacement = fresh.getElementById(id);
      const current = document.getElementById(id);
      if (replacement && current) current.replaceWith(document.importNode(replacement, true));
    }
  }

  async function loop() {
    let again = true;
    if (!document.hidden) {
      try {
        const reply = await fetchJson(config.url);
        reply.mailings.forEach((m) => show(m, config.words));
        again = underWay(reply.mailings);
        if (!again) await refresh();
      } catch {
        again = true; // A dropped request is asked again.
      }
    }
    if (again) window.setTimeout(loop, EVERY_MS);
  }

  window.setTimeout(loop, EVERY_MS);
}

if (typeof document !== "undefined" && document.getElementById("mailing-progress-config")) {
  start();
}
