// Progress of an estimate run on the results page, without reloading it.
//
// The page passes the run's progress URL and status in a json_script element.
// While the run is queued or running this polls it, says how far it got in the
// page's aria-live region, and reloads the page once the run has finished (or
// says why it failed). Without JavaScript the page still shows the status it
// was rendered with; reloading it shows the new estimates.

const POLL_MS = 1500;
// After this long, poll less often: a queued run may wait for a worker.
const SLOW_AFTER_MS = 120_000;
const SLOW_POLL_MS = 10_000;

const config = JSON.parse(
  document.getElementById("run-progress-config").textContent,
);
const region = document.getElementById("run-progress");
const started = Date.now();

/** The sentence the live region shows for a run's progress. */
export function describe(run) {
  if (run.status === "queued") return "A recomputation is queued.";
  if (run.status === "running") {
    return `Computing: ${run.questions_done} of ${run.questions_total} questions done.`;
  }
  if (run.status === "finished") return "Done. Loading the new estimates…";
  const reason = run.error || "no reason was recorded";
  return `The computation failed: ${reason}. The estimates shown are from the last one that finished.`;
}

function show(run) {
  region.hidden = false;
  let text = region.querySelector("[data-progress-text]");
  if (!text) {
    text = document.createElement("p");
    text.dataset.progressText = "";
    region.prepend(text);
  }
  text.textContent = describe(run);
  text.classList.toggle("run-failed", run.status === "failed");
  const bar = region.querySelector("[data-progress-bar]");
  if (bar) {
    if (run.status === "failed") {
      bar.remove();
    } else {
      bar.max = Math.max(run.questions_total, 1);
      bar.value = run.status === "finished" ? bar.max : run.questions_done;
      bar.textContent = `${run.questions_done} of ${run.questions_total}`;
    }
  }
}

async function poll() {
  let run;
  try {
    const response = await fetch(config.url, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    run = await response.json();
  } catch {
    schedule(); // A dropped request is retried; the page stays as it was.
    return;
  }
  show(run);
  if (run.status === "finished") {
    window.location.reload();
  } else if (run.status !== "failed") {
    schedule();
  }
}

function schedule() {
  const slow = Date.now() - started > SLOW_AFTER_MS;
  window.setTimeout(poll, slow ? SLOW_POLL_MS : POLL_MS);
}

if (config.status === "queued" || config.status === "running") schedule();
