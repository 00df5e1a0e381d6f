// The results page keeps itself current, without reloading.
//
// The page passes, in a json_script element, the URL of the survey's results
// status, the finished run it shows, whether the survey is open, how often to
// ask, and the progress of a run under way. While a run is queued or running
// this says how far it got in the page's aria-live region; whenever a newer
// finished run exists (one a researcher asked for, or one new responses
// started) it fetches the page again and swaps in the parts marked data-live,
// so the estimates change under the reader's eyes while forms, focus and the
// scroll position stay. Times are shown in the reader's own time zone. Its
// sentences come translated with the configuration (``words``), in the page's
// language, as the page's own do.
// Without JavaScript the page shows what it was rendered with; reloading it
// shows the newest estimates.

import { fetchJson, fetchThisPage, fill } from "./live-fetch.js";

const BUSY_MS = 1500;
// A queued run may wait for a worker: after this long, ask less often.
const SLOW_AFTER_MS = 120_000;
const SLOW_MS = 10_000;

/** The sentence the live region shows for a run's progress, from the
 * server's ``words``. */
export function describe(run, words) {
  if (run.status === "queued") return words.queued;
  if (run.status === "running") return fill(words.running, run);
  if (run.status === "finished") return words.finished;
  return fill(words.failed, { error: run.error || words.no_reason });
}

/** A moment as "25 November 2026, 14:00 GMT-5" in the reader's time zone,
 * written by ``words.time`` with the month in ``locale``'s language. */
export function localTime(iso, timeZone, words, locale) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return null;
  const parts = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
    timeZoneName: "short",
  }).formatToParts(moment);
  const part = (type) => parts.find((p) => p.type === type)?.value ?? "";
  return fill(words.time, {
    day: part("day"),
    month: part("month"),
    year: part("year"),
    hour: part("hour"),
    minute: part("minute"),
    zone: part("timeZoneName"),
  });
}

/** Show every <time datetime> under ``root`` in the reader's zone; the
 * server's wording (the site's zone) stays in the title. */
export function localizeTimes(root, words, locale) {
  for (const element of root.querySelectorAll("time[datetime]")) {
    if (!element.getAttribute("datetime").includes("T")) continue; // a date only
    const text = localTime(element.getAttribute("datetime"), undefined, words, locale);
    if (text === null || element.dataset.localized === "yes") continue;
    element.title = element.textContent;
    element.textContent = text;
    element.dataset.localized = "yes";
  }
}

/** Replace each data-live part of ``page`` by its namesake in ``fresh``. */
export function swapLiveParts(page, fresh) {
  let swapped = 0;
  for (const part of page.querySelectorAll("[data-live][id]")) {
    const replacement = fresh.getElementById(part.id);
    if (replacement) {
      part.replaceWith(page.importNode(replacement, true));
      swapped += 1;
    }
  }
  return swapped;
}

function start() {
  const config = JSON.parse(
    document.getElementById("results-live-config").textContent,
  );
  const { words, locale } = config;
  let shownRun = config.run;
  let busySince = null;
  const idleMs = Math.max(config.poll_seconds, 1) * 1000;

  function region() {
    return document.getElementById("run-progress");
  }

  function say(text, failed = false) {
    const live = region();
    if (!live) return;
    live.hidden = false;
    let line = live.querySelector("[data-progress-text]");
    if (!line) {
      line = document.createElement("p");
      line.dataset.progressText = "";
      live.prepend(line);
    }
    line.textContent = text;
    line.classList.toggle("run-failed", failed);
  }

  function showProgress(run) {
    say(describe(run, words), run.status === "failed");
    const bar = region()?.querySelector("[data-progress-bar]");
    if (!bar) return;
    if (run.status === "failed") {
      bar.remove();
    } else {
      bar.max = Math.max(run.questions_total, 1);
      bar.value = run.status === "finished" ? bar.max : run.questions_done;
      bar.textContent = fill(words.of, { done: run.questions_done, total: run.questions_total });
    }
  }

  async function showNewEstimates(runId) {
    const fresh = await fetchThisPage();
    swapLiveParts(document, fresh);
    localizeTimes(document.querySelector("main") ?? document.body, words, locale);
    shownRun = runId;
    const computed = document.querySelector("#results-facts time[datetime]");
    const live = region();
    if (live) {
      live.querySelector("[data-progress-bar]")?.remove();
      say(computed ? fill(words.shown_computed, { when: computed.textContent }) : words.shown);
    }
  }

  async function check() {
    let status;
    try {
      status = await fetchJson(config.status_url);
    } catch {
      return; // A dropped request is asked again; the page stays as it was.
    }
    const latest = status.latest;
    const busy = latest && (latest.status === "queued" || latest.status === "running");
    busySince = busy ? (busySince ?? Date.now()) : null;
    if (latest) showProgress(latest);
    if (status.finished_run !== null && status.finished_run !== shownRun) {
      try {
        await showNewEstimates(status.finished_run);
      } catch {
        // Asked again next time.
      }
    }
  }

  function delay() {
    if (busySince === null) return idleMs;
    return Date.now() - busySince > SLOW_AFTER_MS ? SLOW_MS : BUSY_MS;
  }

  async function loop() {
    if (!document.hidden) await check();
    if (config.open || busySince !== null) window.setTimeout(loop, delay());
  }

  localizeTimes(document.querySelector("main") ?? document.body, words, locale);
  const progress = config.progress;
  if (progress && (progress.status === "queued" || progress.status === "running")) {
    busySince = Date.now();
  }
  if (config.open || busySince !== null) window.setTimeout(loop, delay());
}

if (typeof document !== "undefined" && document.getElementById("results-live-config")) {
  start();
}
