// The question form's live design preview.
//
// As the researcher changes the kind, design or parameters, the server (the
// same statistical core that will randomize and estimate) says what the design
// means: its epsilon, the probabilities in plain words, what an observer could
// learn and the precision to expect. This module also shows only the fields the
// chosen design uses. Without it the form still works, with every field shown.

const config = JSON.parse(
  document.getElementById("design-preview-config").textContent,
);
const form = document.getElementById("question-form");
const region = document.getElementById("design-preview");
// Every field the kinds' designs may use, in the form's order (the server's
// list: each kind says which fields it brings).
const FIELDS = config.fields;
const PARAMETERS = ["kind", ...FIELDS];
const DELAY_MS = 300;

let timer = null;
let inFlight = null;

function value(name) {
  const field = form.elements.namedItem(name);
  return field ? field.value : "";
}

/**
 * The names of the fields the chosen kind and design use, set by `mode`, as
 * the kind says (`config.fieldsUsed`: kind -> design -> mode -> fields), or
 * null for a kind or design the server did not describe.
 */
export function usedFields(kind, design, mode) {
  const modes = config.fieldsUsed[kind]?.[design];
  if (!modes) return null;
  // A mode not offered is read as the first, the form's default.
  const fields = modes[mode] ?? Object.values(modes)[0];
  return new Set(["text", "kind", ...fields]);
}

function wrapper(name) {
  return form.querySelector(`.field[data-field="${name}"]`);
}

function offerDesignsFor(kind) {
  const select = form.elements.namedItem("design_name");
  const allowed = config.designsForKind[kind] || [];
  for (const option of select.options) {
    option.disabled = !allowed.includes(option.value);
    option.hidden = option.disabled;
  }
  if (allowed.length && !allowed.includes(select.value)) select.value = allowed[0];
}

function showUsedFields() {
  const kind = value("kind");
  offerDesignsFor(kind);
  // Without a description every field stays shown, as without this script.
  const used = usedFields(kind, value("design_name"), value("mode")) ?? new Set(FIELDS);
  for (const name of FIELDS) {
    const element = wrapper(name);
    // A field with an error stays visible, so that the error can be read.
    if (element) element.hidden = !used.has(name) && !element.classList.contains("has-error");
  }
  // A kind with no design to choose (asked plainly) has no design settings.
  const group = form.querySelector('[data-group="design"]');
  if (group) group.hidden = !used.has("design_name");
}

function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

function entry(term, ...details) {
  const div = document.createElement("div");
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.append(...details);
  div.append(dt, dd);
  return div;
}

function epsilonDetails(data) {
  if (data.epsilon !== null) return [data.epsilon_text];
  // A design with no epsilon at all says so in its own words (a list experiment).
  if (data.epsilon_statement) return [data.epsilon_statement];
  const dash = document.createElement("span");
  dash.setAttribute("aria-hidden", "true");
  dash.textContent = "—";
  const words = document.createElement("span");
  words.className = "not-private";
  words.textContent = config.labels.notPrivate;
  return [dash, " ", words];
}

/** Render a preview (or its error) the way the server renders it. */
export function render(data) {
  if (data.error) {
    region.replaceChildren(paragraph(data.error, "preview-error"));
    return;
  }
  const list = document.createElement("dl");
  list.className = "summary";
  const band = document.createElement("span");
  band.className = `band band-${data.band}`;
  band.textContent = data.band_name;
  list.append(
    entry(config.labels.randomized, data.sentence),
    entry(config.labels.epsilon, ...epsilonDetails(data)),
    entry(config.labels.protection, band, `: ${data.band_meaning}`),
    entry(config.labels.observer, data.observer),
  );
  if (data.precision) list.append(entry(config.labels.precision, data.precision));
  if (data.assumption) list.append(entry(config.labels.assumption, data.assumption));
  if (data.groups) list.append(entry(config.labels.groups, data.groups.sentence));
  if (data.recommendation) list.append(entry(config.labels.encoding, data.recommendation));
  const shown = [list];
  if (data.warning) {
    const warning = paragraph(data.warning, "design-warning");
    warning.setAttribute("role", "alert");
    shown.push(warning);
  }
  region.replaceChildren(...shown);
}

// The planner's assumptions, typed in percent and sent as shares; they have
// no name, so the question form never saves them.
const planner = document.getElementById("planner");
const plannerError = document.getElementById("planner-error");
const planInputs = planner ? [...planner.querySelectorAll("[data-plan]")] : [];

/** The planner's query parameters: each filled-in percentage as a share. */
export function planningQuery(inputs) {
  const query = {};
  for (const input of inputs) {
    const typed = input.value.trim();
    if (typed === "") continue;
    const number = Number(typed);
    // Sent as typed when not a number, so the server's 400 names the field.
    query[input.dataset.plan] = Number.isFinite(number) ? String(number / 100) : typed;
  }
  return query;
}

/** Mark the planner field the server refused (or none) and say why. */
function showPlanningError(data) {
  const fields = data && data.fields ? Object.keys(data.fields) : [];
  let shown = false;
  for (const input of planInputs) {
    const refused = fields.includes(input.dataset.plan);
    if (refused) {
      input.setAttribute("aria-invalid", "true");
      const label = planner.querySelector(`label[for="${input.id}"]`);
      plannerError.textContent = `${label ? label.textContent + ": " : ""}${data.error}`;
      shown = true;
    } else {
      input.removeAttribute("aria-invalid");
    }
  }
  if (plannerError) plannerError.hidden = !shown;
  return shown;
}

async function refresh() {
  const query = new URLSearchParams();
  for (const name of PARAMETERS) query.set(name, value(name));
  query.set("n", String(config.n));
  for (const [name, share] of Object.entries(planningQuery(planInputs))) query.set(name, share);
  inFlight?.abort();
  inFlight = new AbortController();
  try {
    const response = await fetch(`${config.url}?${query}`, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      signal: inFlight.signal,
    });
    const data = await response.json();
    // A refused assumption is told beside the planner; the preview stays.
    if (showPlanningError(response.ok ? null : data)) return;
    render(response.ok || data.error ? data : { error: config.labels.unavailable });
  } catch (error) {
    if (error.name !== "AbortError") {
      render({ error: config.labels.unloaded });
    }
  }
}

function changed(event) {
  if (event.target.name === "text") return;
  showUsedFields();
  clearTimeout(timer);
  timer = setTimeout(refresh, DELAY_MS);
}

if (planner) planner.hidden = false;
form.addEventListener("input", changed);
form.addEventListener("change", changed);
showUsedFields();
