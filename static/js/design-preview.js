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
const DESIGN_FIELDS = [
  "design_name",
  "maximum",
  "mode",
  "epsilon",
  "p",
  "q",
  "p_truth",
  "p_forced",
  "p1",
  "p2",
  "group_share",
];
const PARAMETERS = ["kind", "options", ...DESIGN_FIELDS];
const DELAY_MS = 300;

let timer = null;
let inFlight = null;

function value(name) {
  const field = form.elements.namedItem(name);
  return field ? field.value : "";
}

/** The names of the fields the chosen kind and design use. */
export function usedFields(kind, design, mode) {
  const used = new Set(["text", "kind"]);
  if (kind === "count") {
    // The options are the counts 0..M; only geometric noise has an epsilon.
    used.add("maximum").add("design_name");
    return design === "geometric" ? used.add("epsilon") : used;
  }
  if (kind === "instructed") return new Set([...used, "design_name", "p1", "p2", "group_share"]);
  if (kind !== "yes_no") used.add("options");
  if (kind === "direct") return used;
  used.add("design_name");
  // k-RR and check all that apply's unary encodings are set by epsilon alone.
  if (design === "krr" || design === "sue" || design === "oue") return used.add("epsilon");
  if (design === "unrelated_question") return new Set([...used, "p", "q"]);
  if (design === "crosswise") return used.add("p");
  used.add("mode");
  if (mode === "epsilon") return used.add("epsilon");
  if (design === "warner") return used.add("p");
  return new Set([...used, "p_truth", "p_forced"]);
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
  const used = usedFields(kind, value("design_name"), value("mode"));
  for (const name of ["options", ...DESIGN_FIELDS]) {
    const element = wrapper(name);
    // A field with an error stays visible, so that the error can be read.
    if (element) element.hidden = !used.has(name) && !element.classList.contains("has-error");
  }
  const group = form.querySelector('[data-group="design"]');
  if (group) group.hidden = kind === "direct";
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
  const dash = document.createElement("span");
  dash.setAttribute("aria-hidden", "true");
  dash.textContent = "—";
  const words = document.createElement("span");
  words.className = "not-private";
  words.textContent = "not private";
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
    entry("How answers are randomized", data.sentence),
    entry("Epsilon", ...epsilonDetails(data)),
    entry("Protection", band, `: ${data.band_meaning}`),
    entry("What an observer could learn", data.observer),
  );
  if (data.precision) list.append(entry("Expected precision", data.precision));
  if (data.recommendation) list.append(entry("Which encoding", data.recommendation));
  const shown = [list];
  if (data.warning) {
    const warning = paragraph(data.warning, "design-warning");
    warning.setAttribute("role", "alert");
    shown.push(warning);
  }
  region.replaceChildren(...shown);
}

async function refresh() {
  const query = new URLSearchParams();
  for (const name of PARAMETERS) query.set(name, value(name));
  query.set("n", String(config.n));
  inFlight?.abort();
  inFlight = new AbortController();
  try {
    const response = await fetch(`${config.url}?${query}`, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      signal: inFlight.signal,
    });
    const data = await response.json();
    render(response.ok || data.error ? data : { error: "The preview is not available." });
  } catch (error) {
    if (error.name !== "AbortError") {
      render({ error: "The preview could not be loaded. Saving still checks the design." });
    }
  }
}

function changed(event) {
  if (event.target.name === "text") return;
  showUsedFields();
  clearTimeout(timer);
  timer = setTimeout(refresh, DELAY_MS);
}

form.addEventListener("input", changed);
form.addEventListener("change", changed);
showUsedFields();
