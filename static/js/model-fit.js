// The results page's Model panel follows a fit while it runs.
//
// The page passes, in a json_script element, the fit's progress URL and its
// progress when the page was drawn. This asks for the progress every second
// or so and says in the panel's aria-live region how far the fit got; when it
// has finished it fetches the page again and swaps in the panel's result
// (#model-result), so the form above it keeps what the reader chose. Its
// sentences come translated with the configuration (``words``). Without
// JavaScript, reloading the page shows the fit once it is done.

import { fetchJson, fetchThisPage, fill } from "./live-fetch.js";

const BUSY_MS = 1500;
// A queued fit may wait for a worker: after this long, ask less often.
const SLOW_AFTER_MS = 120_000;
const SLOW_MS = 10_000;

/** The sentence the live region shows for a fit's progress, from the
 * server's ``words``. */
export function describeFit(fit, words) {
  if (fit.status === "queued") return words.queued;
  if (fit.status === "running") return fill(words.running, fit);
  if (fit.status === "finished") return words.finished;
  return fill(words.failed, { error: fit.error || words.no_reason });
}

/** Whether to keep asking about this fit. */
export function underWay(fit) {
  return fit.status === "queued" || fit.status === "running";
}

function start() {
  const config = JSON.parse(document.getElementById("model-fit-config").textContent);
  const { words } = config;
  const since = Date.now();

  function say(fit) {
    const live = document.getElementById("model-progress");
    if (!live) return;
    live.hidden = false;
    let line = live.querySelector("[data-model-text]");
    if (!line) {
      line = document.createElement("p");
      line.dataset.modelText = "";
      live.prepend(line);
    }
    line.textContent = describeFit(fit, words);
    line.classList.toggle("run-failed", fit.status === "failed");
    const bar = live.querySelector("[data-model-bar]");
    if (!bar) return;
    if (underWay(fit)) {
      bar.max = Math.max(fit.steps_total, 1);
      bar.value = fit.steps_done;
      bar.textContent = fill(words.of, { done: fit.steps_done, total: fit.steps_total });
    } else {
      bar.remove();
    }
  }

  async function showResult() {
    const fresh = await fetchThisPage();
    const replacement = fresh.getElementById("model-result");
    const current = document.getElementById("model-result");
    if (replacement && current) current.replaceWith(document.importNode(replacement, true));
  }

  async function check() {
    let fit;
    try {
      fit = await fetchJson(config.url);
    } catch {
      return true; // A dropped request is asked again.
    }
    if (fit.status === "finished") {
      try {
        await showResult();
      } catch {
        return true; // Asked again: the result is saved, the page will show it.
      }
    }
    say(fit);
    return underWay(fit);
  }

  async function loop() {
    const again = document.hidden ? true : await check();
    if (again) {
      window.setTimeout(loop, Date.now() - since > SLOW_AFTER_MS ? SLOW_MS : BUSY_MS);
    }
  }

  window.setTimeout(loop, BUSY_MS);
}

if (typeof document !== "undefined" && document.getElementById("model-fit-config")) {
  start();
}
