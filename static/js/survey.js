// The respondent page: wires the pure randomizer (rr.js) to the DOM.
//
// The true answers live only in this page's memory (the aria-checked state of
// buttons with no name, outside any form). On "Send", each is randomized once
// (on a survey of several pages, when the respondent leaves its page: see
// "pages" below); only the reports are kept in localStorage and sent, so a reload, a double
// click or a retry sends the same reports and the noise cannot be averaged
// away by answering again. Once the server confirms, the browser keeps only the
// randomized reports (the receipt), and only until it expires or the
// respondent removes it.
import * as randomizer from "./rr.js";
import {
  SpecRefused,
  assignArm,
  checkAnySpec,
  directCode,
  expandSpec,
  newRespondentKey,
  procedureRunner,
  randomize,
} from "./rr.js";
import { conditionMet } from "./conditions.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const config = JSON.parse(document.getElementById("survey-config").textContent);
// Every word this script shows, in the survey's language (surveys/respond/messages.py).
const words = config.messages;
// "{name}" placeholders filled from values: the translations reorder them freely.
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
const storageKey = `rr-survey:${config.slug}`;
// Which way each question with a validation arm is asked, kept until the
// answers are sent, so a reload shows the same way rather than a new draw.
const armsKey = `rr-arms:${config.slug}`;
const form = document.getElementById("survey");
const statusLine = document.getElementById("status");
const sendButton = document.getElementById("send");
const byId = (id) => document.getElementById(id);
// An optional question's "Prefer not to answer": a non-answer, never randomized.
const NO_ANSWER = "none";
const REDIRECT_MS = 5000;
// Each kind's own code (surveys/kinds/<kind>/static/page.js), for the kinds
// this page shows only: the page preloads each with its integrity, and each
// is given the randomizer, so every draw is still the pinned randomizer's.
// A kind may check and report its questions itself (check all that apply:
// the items ticked travel as one bit mask), and may run a procedure in which
// the respondent produces the report (a crosswise pairing; a device
// instruction's group and answer).
const scripts = [...new Set(config.questions.map((q) => q.script).filter(Boolean))];
const kindsByScript = new Map(
  await Promise.all(scripts.map(async (url) => [url, (await import(url)).default(randomizer)])),
);
const kinds = [...kindsByScript.values()];
const kindOf = (question) => kindsByScript.get(question.script) ?? {};

// -- access: an invitation token or a panel's participant id -------------------

// The invitation travels in the link's fragment (#invitation=...), which the
// browser never sends with a page request, so it reaches no server or proxy
// log; only the submission's body carries it, to be counted once.
function accessCredential() {
  const access = config.access || { mode: "open" };
  if (access.mode === "invitation") {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("invitation");
    return token ? { invitation: token } : null;
  }
  if (access.mode === "panel") {
    const id = new URLSearchParams(window.location.search).get(access.parameter);
    return id ? { participant: id } : null;
  }
  return {};
}

// A link to the page in another language keeps this address's query and
// fragment, which hold a panel's id or an invitation; the server never sees
// the fragment, so only the page can carry it over.
function keepAccessInLanguageLinks() {
  for (const link of document.querySelectorAll("nav.languages a")) {
    link.href = link.pathname + window.location.search + window.location.hash;
  }
}

// A refusal in place of the questions: no invitation or id in the address,
// or the one there would be refused (unknown, already used). A panel's
// refusal may name where the respondent goes instead (the screen-out URL).
function refuseAccess(refusal = {}) {
  const messages = config.access.messages;
  const line = byId("access-refusal");
  line.textContent =
    refusal.error ||
    (config.access.mode === "invitation" ? messages.missingInvitation : messages.missingParticipant);
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
async function accessRefusal() {
  try {
    const reply = await fetch(config.accessUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept-Language": config.language },
      body: JSON.stringify(accessCredential()),
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
  link.textContent = config.access.messages.continue;
  byId("receipt-continue").hidden = false;
  window.setTimeout(() => window.location.assign(url), REDIRECT_MS);
}

const storage = {
  load() {
    try {
      const state = JSON.parse(localStorage.getItem(storageKey));
      // Receipts from before expiry existed, or past their date, are removed.
      if (state && !(state.expires > Date.now())) {
        this.remove();
        return null;
      }
      return state;
    } catch {
      return null;
    }
  },
  save(state) {
    try {
      localStorage.setItem(storageKey, JSON.stringify(state));
    } catch {
      // Private browsing may refuse storage; the in-page state still guards
      // against double clicks, only a reload could draw again.
    }
  },
  remove() {
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // Nothing was stored.
    }
  },
};

// When the receipt leaves this browser: after the set number of days, or when
// the survey closes, whichever comes first.
function expiryFrom(now) {
  const byDays = now + config.receipt.days * DAY_MS;
  const closes = config.receipt.closesAt ? Date.parse(config.receipt.closesAt) : Infinity;
  return Math.min(byDays, closes);
}

function say(message, isError = false) {
  statusLine.textContent = message;
  statusLine.classList.toggle("error", isError);
}

// -- the page's own check of what the server sent -----------------------------

// How many answers the page shows for a question: its boxes, its options
// (not "Prefer not to answer"), or the counts 0 to its maximum. A spec must
// have exactly that many, or some answer could not be sent or some report
// could not be shown.
function shownAnswers(question) {
  const id = CSS.escape(String(question.id));
  const count = form.querySelector(`.count-answer[data-question="${id}"]`);
  if (count) return Number(count.dataset.max) + 1;
  const group = form.querySelector(`.options[data-question="${id}"]`);
  return group?.querySelectorAll("[role=radio]:not([data-option=none]), [role=checkbox]").length ?? 0;
}

// Decided here from each spec, not from the server's words: a question whose
// spec sends answers as given is marked "asked plainly" whatever the server
// says, and a spec above the randomizer's cap, a validation arm above its
// limit, a procedure that does not fit the design, or a spec whose answers
// are not the question's stops the page before anything is drawn or sent.
function checkQuestions() {
  config.questions.forEach((question, index) => {
    let kind;
    try {
      const answers = shownAnswers(question);
      // Thresholds sent as a base and a rule are written out first, and the
      // check below reads every row of them, as of thresholds sent in full.
      question.spec = expandSpec(question.spec);
      // A procedure passes only the check of a kind this page loaded.
      const check = kindOf(question).check ?? checkAnySpec;
      kind = check(question.spec, answers, kinds);
    } catch (error) {
      if (!(error instanceof SpecRefused)) throw error;
      throw new SpecRefused(fill(words.unsafe, { number: index + 1, reason: reasonOf(error) }));
    }
    question.plain = kind === "plain";
    // A procedure: the respondent produces the report, and it is sent as
    // given (a crosswise pairing; a group and an answer).
    question.procedure = kind === "plain" || kind === "randomized" ? null : kind;
    if (question.plain && question.sensitive) markPlain(question);
  });
}

function markPlain(question) {
  const how = byId(`q${question.id}-how`);
  how.replaceChildren();
  const label = document.createElement("strong");
  label.textContent = words.plainLabel;
  how.append(label, " ", words.plainText);
  how.classList.add("plain");
  question.receipt_note = words.plainReceipt;
}

// -- the validation arm: asked directly, and told so before answering ----------

function loadArms() {
  try {
    const kept = JSON.parse(localStorage.getItem(armsKey));
    return kept && kept.expires > Date.now() ? kept : null;
  } catch {
    return null;
  }
}

function forgetArms() {
  try {
    localStorage.removeItem(armsKey);
  } catch {
    // Nothing was stored.
  }
}

// Drawn here, before any question is shown: each question with an arm is
// asked directly with its spec's probability, independently of the
// respondent and of every answer.
function assignArms() {
  const kept = config.preview ? null : loadArms();
  const arms = {};
  const groups = {};
  for (const question of config.questions) {
    if (question.procedure) {
      // What the procedure draws before the question is shown: what it keeps
      // (a group, sent anyway) is kept, so that a reload cannot pick it; what
      // it shows (an instruction) is drawn anew and never written anywhere.
      const draw = procedureRunner(question.procedure, kinds).draw;
      if (draw) {
        const drawn = draw(question.spec, kept?.groups?.[question.id]);
        question.kept = drawn.keep;
        groups[question.id] = drawn.keep;
        showInstruction(question, fill(words[drawn.say], drawn.values));
      }
      continue;
    }
    const arm = question.spec.direct_arm;
    if (!arm || question.plain) continue;
    question.arm = kept?.arms?.[question.id] ?? assignArm(arm);
    arms[question.id] = question.arm;
    if (question.arm === "direct") markDirect(question);
  }
  const anyDirect = Object.values(arms).includes("direct");
  const note = byId("direct-arm-note");
  if (note) note.hidden = !anyDirect;
  if (!config.preview && Object.keys(arms).length + Object.keys(groups).length) {
    try {
      const kept = { arms, groups, expires: expiryFrom(Date.now()) };
      localStorage.setItem(armsKey, JSON.stringify(kept));
    } catch {
      // Without storage a reload may draw again; nothing else changes.
    }
  }
}

// The instruction, shown above the answers; it lives only in the page.
function showInstruction(question, text) {
  const line = byId(`q${question.id}-instruction`);
  const strong = document.createElement("strong");
  strong.textContent = text;
  line.replaceChildren(strong);
}

function markDirect(question) {
  const how = byId(`q${question.id}-how`);
  how.replaceChildren();
  const label = document.createElement("strong");
  label.textContent = words.directLabel;
  how.append(label, " ", words.directText);
  how.classList.add("plain", "direct-arm");
  question.receipt_note = words.directReceipt;
}

// Whether a sent answer is a direct one: told by its code (k..2k-1), so a
// reload that finds answers drawn before tells them apart too.
function isDirect(question, answer) {
  // Only a randomized question has a validation arm's direct answers.
  if (question.procedure || question.plain) return false;
  return answer.report !== null && answer.report >= question.options.length;
}

// The report sent for one true answer: as given (its direct code) when the
// question is asked directly of this respondent, else randomized.
function reportFor(question, truth) {
  if (question.arm === "direct") return directCode(truth, question.options.length);
  // A report the respondent produced is sent as given: nothing is drawn.
  if (question.procedure) return procedureRunner(question.procedure, kinds).report(question, truth);
  const report = kindOf(question).report ?? randomize;
  return report(truth, question.spec);
}

// Why a spec was refused, in the page's language: rr.js and the kinds say it
// in English, and the page's messages translate each reason by its code.
function reasonOf(error) {
  const sentence = words.refusals?.[error.code];
  return sentence === undefined ? error.message : fill(sentence, error.values);
}

function refuse(message) {
  const refusal = byId("refusal");
  refusal.textContent = fill(words.refused, { reason: message });
  refusal.hidden = false;
  form.remove();
}

// -- choosing the true answer: an ARIA radio group per question -------------

function choose(group, button) {
  for (const option of group.querySelectorAll("[role=radio]")) {
    const chosen = option === button;
    option.setAttribute("aria-checked", String(chosen));
    option.tabIndex = chosen ? 0 : -1;
  }
  button.focus();
}

function wireGroup(group) {
  const options = [...group.querySelectorAll("[role=radio]")];
  group.addEventListener("click", (event) => {
    const button = event.target.closest("[role=radio]");
    if (button) choose(group, button);
  });
  group.addEventListener("keydown", (event) => {
    const steps = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    const index = options.indexOf(document.activeElement);
    const next = (index + steps[event.key] + options.length) % options.length;
    choose(group, options[next]);
  });
}

// Check all that apply: each item a checkbox of its own, in the tab order;
// Space and Enter toggle it as they press any button.
function wireChecklist(group) {
  group.addEventListener("click", (event) => {
    const box = event.target.closest("[role=checkbox]");
    if (!box) return;
    box.setAttribute("aria-checked", String(box.getAttribute("aria-checked") !== "true"));
  });
}

function chosenTruths() {
  const truths = {};
  // Ticking nothing is an answer too ("none of these"), never a missing one.
  for (const group of form.querySelectorAll(".options[role=group]")) {
    truths[group.dataset.question] = [...group.querySelectorAll("[role=checkbox]")].map(
      (box) => box.getAttribute("aria-checked") === "true",
    );
  }
  for (const group of form.querySelectorAll("[role=radiogroup]")) {
    const checked = group.querySelector("[aria-checked=true]");
    const option = checked?.dataset.option;
    truths[group.dataset.question] =
      option === undefined ? null : option === NO_ANSWER ? NO_ANSWER : Number(option);
  }
  return truths;
}

// A count question's true answer: a number input with no name, in no form.
// Returns the count, NO_ANSWER, null (left empty) or undefined (not a whole
// number from 0 to the maximum).
function countTruth(box) {
  if (box.querySelector("[data-no-answer]")?.checked) return NO_ANSWER;
  const text = box.querySelector("input[type=number]").value.trim();
  if (text === "") return null;
  const count = Number(text);
  const max = Number(box.dataset.max);
  return Number.isInteger(count) && count >= 0 && count <= max ? count : undefined;
}

function wireCount(box) {
  const input = box.querySelector("input[type=number]");
  const none = box.querySelector("[data-no-answer]");
  none?.addEventListener("change", () => {
    input.disabled = none.checked;
  });
}

function countTruths(truths) {
  for (const box of form.querySelectorAll(".count-answer")) {
    truths[box.dataset.question] = countTruth(box);
  }
  return truths;
}

// A kind that reads its own boxes (a number): each box's true answer, as the
// kind reads it (undefined when it is not one the question takes).
function typedBoxes() {
  return kinds.flatMap((kind) =>
    kind.boxes ? [...form.querySelectorAll(kind.boxes)].map((box) => [kind, box]) : [],
  );
}

function typedTruths(truths) {
  for (const [kind, box] of typedBoxes()) truths[box.dataset.question] = kind.truthOf(box);
  return truths;
}

// A kind may seal a typed answer before anything keeps or sends it (an open
// answer encrypted for the research team: surveys/kinds/sealed/): each of
// `questions`' truths is replaced by what its kind's async `seal` returns,
// awaited here, once, before the answers are built. False (and said) when
// one cannot be sealed: nothing is then kept or sent.
async function sealTruths(truths, questions) {
  try {
    for (const q of questions) {
      const seal = kindOf(q).seal;
      if (seal && truths[q.id] && typeof truths[q.id] === "object") truths[q.id] = await seal(truths[q.id]);
    }
    return true;
  } catch (error) {
    say(fill(words.sealFailed, { reason: error.message }), true);
    return false;
  }
}

function forgetTruths() {
  for (const [kind, box] of typedBoxes()) kind.forget(box);
  for (const option of form.querySelectorAll("[role=radio], [role=checkbox]")) {
    option.setAttribute("aria-checked", "false");
  }
  for (const line of form.querySelectorAll(".instruction")) line.replaceChildren();
  for (const input of form.querySelectorAll(".count-answer input")) {
    if (input.type === "checkbox") input.checked = false;
    else input.value = "";
    input.disabled = false;
  }
}

// -- the receipt -----------------------------------------------------------------

function receiptItem(question, answer) {
  const item = document.createElement("li");
  const text = document.createElement("span");
  text.className = "receipt-question";
  // The page's heading holds the text after its number (the page data leaves it
  // out); its line breaks are <br> elements, read as spaces.
  const heading = [...byId(`q${question.id}-text`).childNodes]
    .map((node) => (node.nodeName === "BR" ? " " : node.textContent))
    .join("");
  text.textContent = heading.replace(/^\d+\. /, "");
  const missing = answer.report === null;
  const sent = document.createElement("strong");
  // A typed answer (a number) is shown as sent, not as its bin.
  sent.textContent = missing
    ? words.noAnswer
    : (kindOf(question).receiptText?.(question) ?? answer.value?.toString() ?? reportLabel(question, answer.report));
  const note = document.createElement("span");
  note.className = "receipt-note";
  note.textContent = missing
    ? words.noAnswerNote
    : isDirect(question, answer)
      ? words.directReceipt
      : question.receipt_note;
  item.append(text, " ", sent, " ", note);
  return item;
}

// What was sent, in words: an option, or as the question's kind says (the
// items sent ticked).
function reportLabel(question, report) {
  const label = kindOf(question).label;
  if (label) return label(report, question.options, words.nothingTicked);
  // A validation arm's direct answer is sent as the option's code plus k.
  return question.options[report % question.options.length];
}

function fillList(id, items) {
  const list = byId(`${id}-list`);
  list.replaceChildren(...items);
  byId(id).hidden = items.length === 0;
}

function showReceipt(answers, { kept }) {
  const randomized = [];
  const plain = [];
  for (const answer of answers) {
    const question = config.questions.find((q) => q.id === answer.question);
    if (!question) continue;
    // A missing answer was sent as it is: listed with those sent as answered.
    const asIs =
      question.plain ||
      question.procedure ||
      isDirect(question, answer) ||
      answer.report === null;
    (asIs ? plain : randomized).push(receiptItem(question, answer));
  }
  fillList("receipt-randomized", randomized);
  fillList("receipt-plain", plain);
  const keptText = byId("receipt-kept-text");
  const forget = byId("forget");
  if (config.preview) {
    byId("receipt-intro").textContent = words.previewIntro;
    keptText.textContent = words.previewKept;
    forget.hidden = true;
  } else if (kept) {
    // The date in the page's language, not the browser's.
    const lang = document.documentElement.lang || undefined;
    const until = new Date(kept.expires).toLocaleDateString(lang, { dateStyle: "long" });
    keptText.textContent = fill(words.kept, { date: until });
    forget.hidden = false;
  }
  form.hidden = true;
  const receipt = byId("receipt");
  receipt.hidden = false;
  receipt.focus();
}

function removeFromDevice() {
  storage.remove();
  forgetArms();
  byId("receipt-randomized-list").replaceChildren();
  byId("receipt-plain-list").replaceChildren();
  byId("receipt-intro").textContent = words.received;
  byId("receipt-kept-text").textContent = words.removed;
  byId("forget").hidden = true;
  byId("receipt-randomized").hidden = true;
  byId("receipt-plain").hidden = true;
}

// -- sending -------------------------------------------------------------------

async function send(state) {
  sendButton.disabled = true;
  say(words.sending);
  let reply;
  try {
    reply = await fetch(config.submitUrl, {
      method: "POST",
      credentials: "same-origin",
      // The page's language, so that a refusal speaks it (never stored).
      headers: { "Content-Type": "application/json", "Accept-Language": config.language },
      body: JSON.stringify({
        respondent_key: state.key,
        answers: state.answers,
        ...(state.access || {}),
      }),
    });
  } catch {
    sendButton.disabled = false;
    sendButton.textContent = words.retry;
    say(words.offline, true);
    return;
  }
  const body = await reply.json().catch(() => ({}));
  if (reply.ok) {
    // From here on only the randomized reports stay: the receipt. Direct
    // answers are true answers, and a report the respondent produced (a
    // crosswise pairing) is their own choice: neither is kept, no more than
    // plain ones.
    const questionsById = new Map(config.questions.map((q) => [q.id, q]));
    const randomizedOnly = (a) => {
      const q = questionsById.get(a.question);
      return q && !q.plain && !q.procedure && a.report !== null && !isDirect(q, a);
    };
    const receipt = {
      key: state.key,
      answers: state.answers.filter(randomizedOnly),
      sent: true,
      expires: state.expires,
      next: body.completion_url || null,
    };
    storage.save(receipt);
    forgetArms();
    showReceipt(state.answers, { kept: receipt });
    continueTo(receipt.next);
    return;
  }
  if (reply.status >= 500 || reply.status === 429) {
    sendButton.disabled = false;
    sendButton.textContent = words.retry;
    say(reply.status === 429 && body.error ? body.error : words.busy, true);
    return;
  }
  // Refused (for example, the survey has closed). The reports stay stored and
  // are never drawn again: the server has seen them once already, and a fresh
  // draw of the same true answers would let the noise be averaged away.
  say(body.error || fill(words.refusedStatus, { status: reply.status }), true);
  if (body.redirect) {
    // A panel's screen-out page (the survey is closed or full).
    byId("receipt-continue").hidden = false;
    form.append(byId("receipt-continue"));
    continueTo(body.redirect);
  }
}

async function onSend() {
  const stored = storage.load();
  if (stored) {
    send(stored);
    return;
  }
  if (pages.length > 1) {
    sendPages();
    return;
  }
  const truths = typedTruths(countTruths(chosenTruths()));
  applyDisplayLogic();
  // A question not shown is not answered: nothing is checked, drawn or sent for it.
  for (const q of config.questions) if (q.hidden) delete truths[q.id];
  const invalid = config.questions.findIndex((q) => !q.hidden && truths[q.id] === undefined);
  const typed = invalid >= 0 ? kindOf(config.questions[invalid]) : {};
  if (typed.boxes) {
    const box = form.querySelector(`${typed.boxes}[data-question="${config.questions[invalid].id}"]`);
    say(fill(words[typed.invalidWords ?? "numberInvalid"], { number: invalid + 1, ...typed.invalid(box) }), true);
    box.querySelector("input, textarea").focus();
    return;
  }
  if (invalid >= 0) {
    const box = form.querySelector(`.count-answer[data-question="${config.questions[invalid].id}"]`);
    say(fill(words.countInvalid, { number: invalid + 1, max: box.dataset.max }), true);
    box.querySelector("input, textarea").focus();
    return;
  }
  const missing = config.questions.filter((q) => !q.hidden && truths[q.id] === null && !q.optional);
  if (missing.length) {
    say(words.questionsLeft[missing.length], true);
    const group = form.querySelector(
      `[data-question="${missing[0].id}"] [tabindex="0"], .count-answer[data-question="${missing[0].id}"] input, .number-answer[data-question="${missing[0].id}"] input, [data-question="${missing[0].id}"] textarea`,
    );
    group?.focus();
    return;
  }
  sendButton.disabled = true;
  const sealed = await sealTruths(truths, config.questions);
  sendButton.disabled = false;
  if (!sealed) return;
  // A question left out or answered "Prefer not to answer" is sent as missing
  // (report null): nothing is drawn for it.
  const answers = config.questions.filter((q) => !q.hidden).map((q) => ({
    question: q.id,
    report:
      truths[q.id] === null || truths[q.id] === NO_ANSWER
        ? null
        : reportFor(q, truths[q.id]),
    spec_version: q.spec_version,
    // A kind that takes a typed answer sends it beside its report, as typed.
    ...(kindOf(q).value && truths[q.id] !== null && truths[q.id] !== NO_ANSWER
      ? { value: kindOf(q).value(truths[q.id]) }
      : {}),
  }));
  forgetTruths();
  sendAnswers(answers);
}

// The answers drawn (or kept as given), from here on the only record: kept
// in storage until the server confirms, then sent.
function sendAnswers(answers) {
  if (config.preview) {
    showReceipt(answers, { kept: null });
    return;
  }
  const state = {
    key: newRespondentKey(),
    answers,
    sent: false,
    expires: expiryFrom(Date.now()),
    access: accessCredential() || {},
  };
  storage.save(state);
  // The reports are in the state now: the pages' record of them goes.
  forgetProgress();
  send(state);
}

// -- consent: a step of this page only ------------------------------------------

// Agreeing shows the questions; declining sends nothing at all (no request)
// and can be undone. Neither choice is stored anywhere.
function wireConsent() {
  const consent = byId("consent");
  const declined = byId("declined");
  byId("consent-agree").addEventListener("click", () => {
    consent.hidden = true;
    form.hidden = false;
    const first = form.querySelector(".practice h2, .page:not([hidden]) h2");
    if (first) {
      first.tabIndex = -1;
      first.focus();
    }
  });
  byId("consent-decline").addEventListener("click", () => {
    consent.hidden = true;
    declined.hidden = false;
    declined.focus();
  });
  byId("consent-reconsider").addEventListener("click", () => {
    declined.hidden = true;
    consent.hidden = false;
    byId("consent-agree").focus();
  });
  consent.hidden = false;
}

// -- display logic: a question shown only after some direct answers -------------

// Whether a condition is met: conditionMet (static/js/conditions.js), the
// same rule as the server's (surveys/display_logic/conditions.py).

// Shows the questions whose conditions the plain answers given so far meet
// and hides the others, in order, so a question hidden hides what depends on
// it. A hidden question (the hidden attribute) leaves the tab order and what
// a screen reader reads, is not required, and sends nothing; nothing is
// announced, as a question appearing below is found in reading order.
function applyDisplayLogic() {
  const truths = typedTruths(countTruths(chosenTruths()));
  const answers = {};
  // A kind that takes a typed answer (a number): its code is its report (its
  // range), and a range clause reads the number itself.
  const numbers = {};
  for (const question of config.questions) {
    question.hidden = !conditionMet(question.condition, answers, numbers);
    if (question.condition) byId(`q${question.id}-text`).closest(".question").hidden = question.hidden;
    const truth = truths[question.id];
    if (question.hidden || !question.plain) continue;
    const kind = kindOf(question);
    if (kind.value && truth !== null && typeof truth === "object") {
      answers[question.id] = kind.report(truth);
      numbers[question.id] = kind.value(truth);
    } else if (typeof truth === "number") answers[question.id] = truth;
  }
}

function wireDisplayLogic() {
  if (!config.questions.some((q) => q.condition)) return;
  for (const type of ["click", "keydown", "input", "change"]) form.addEventListener(type, applyDisplayLogic);
  applyDisplayLogic();
}

// -- the practice round: randomized here like a real question, never sent -------

// The practice answer and its report live only in this function's variables
// and the buttons' state: no storage, no form, no request carries them. The
// spec passes the page's own check first, as every real one does.
function wirePractice(stored) {
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
  // Wired with the page's other radio groups (start).
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

function start() {
  keepAccessInLanguageLinks();
  try {
    checkQuestions();
  } catch (error) {
    if (!(error instanceof SpecRefused)) throw error;
    refuse(error.message);
    return;
  }
  // Before the groups are wired, so that the arrow keys follow the order shown.
  arrangePages();
  for (const group of form.querySelectorAll("[role=radiogroup]")) wireGroup(group);
  for (const group of form.querySelectorAll(".options[role=group]")) wireChecklist(group);
  for (const box of form.querySelectorAll(".count-answer")) wireCount(box);
  wireDisplayLogic();
  for (const [kind, box] of typedBoxes()) kind.wire(box);
  sendButton.addEventListener("click", onSend);
  byId("forget").addEventListener("click", removeFromDevice);
  const stored = config.preview ? null : storage.load();
  wirePractice(stored);
  if (stored?.sent) {
    showReceipt(stored.answers, { kept: stored });
    if (stored.next) continueTo(stored.next);
    return;
  }
  if (!config.preview && !stored && accessCredential() === null) {
    // Told now, not after answering: this page cannot be answered without
    // the invitation or the panel's id.
    refuseAccess();
    return;
  }
  if (!config.preview && !stored && config.access.mode !== "open") {
    accessRefusal().then((refusal) => (refusal ? refuseAccess(refusal) : openQuestions(stored)));
    return;
  }
  openQuestions(stored);
}

// The questions (or the consent statement first), or the reports drawn
// before and not yet confirmed.
function openQuestions(stored) {
  // Before consent and before any question shows: each question says which
  // way it is asked before it can be answered.
  if (!stored) assignArms();
  if (!stored) restoreProgress();
  if (config.consent && !stored) {
    wireConsent();
    return;
  }
  form.hidden = false;
  if (stored) {
    // Drawn before but not confirmed: offer to send the same reports again.
    for (const section of form.querySelectorAll(".question")) section.hidden = true;
    hidePages();
    sendButton.textContent = words.sendAgain;
    say(words.notConfirmed);
  }
}

// -- pages: sections, progress, answers kept between pages, order -------------
//
// A survey of several sections shows one page at a time. Leaving a page (Next
// or Back) settles its answers: a randomized question's answer is randomized
// then, once, with the same code "Send" uses, and only the report is kept; the
// page forgets the choice, so it cannot be shown again. An answer sent as given
// (asked plainly) is kept as given and shown again. The reports, the page
// reached and the order drawn are kept in localStorage under progressKey, so a
// reload on this device finds the answers exactly as they will be sent, and
// nothing else. They go once the answers are stored for sending.
//
// Questions of a shuffled section, and the options of a question whose
// researcher asked for it, are shown in an order drawn here
// (crypto.getRandomValues, through the randomizer's uniformBelow); an option's
// code stays its place in the researcher's order, and the order drawn is
// never sent.

const progressKey = `rr-progress:${config.slug}`;
const pages = [...form.querySelectorAll(".page")];
const questionsById = new Map(config.questions.map((q) => [String(q.id), q]));
// What a reload must find: the page reached, each settled answer's report,
// and the order drawn ({pages: {index: [question ids]}, options: {id: [codes]}}).
const progress = { page: 0, answers: {}, order: null };

// Display logic's hook: whether a page (a .page element) or a question (its
// config entry) is shown to this respondent. Everything is, until a condition
// says otherwise (applyDisplayLogic sets a question's ``hidden``); navigation,
// progress and sending ask only these two.
function pageShown(page) {
  return page.dataset.hiddenByCondition === undefined;
}
function questionShown(question) {
  return question.hidden !== true && question.hiddenByCondition !== true;
}

function questionsOn(page) {
  return [...page.querySelectorAll("section.question")]
    .map((section) => questionsById.get(section.dataset.questionId))
    .filter((question) => question && questionShown(question));
}

function shownPages() {
  return pages.filter(pageShown);
}

// An unbiased shuffle (Fisher-Yates), each swap drawn uniformly.
function shuffled(items) {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = randomizer.uniformBelow(i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

function drawOrder() {
  const order = { pages: {}, options: {} };
  pages.forEach((page, index) => {
    if (page.dataset.shuffle === undefined) return;
    const ids = [...page.querySelectorAll("section.question")].map((q) => q.dataset.questionId);
    order.pages[index] = shuffled(ids);
  });
  for (const section of form.querySelectorAll("section.question[data-shuffle-options]")) {
    const group = section.querySelector("[role=radiogroup]");
    if (!group) continue;
    const codes = [...group.querySelectorAll("[role=radio]:not([data-option=none])")].map(
      (option) => option.dataset.option,
    );
    order.options[section.dataset.questionId] = shuffled(codes);
  }
  return order;
}

// Puts the questions and options in the order drawn (or kept from before a
// reload), numbers the questions as shown, and shows the first page.
function arrangePages() {
  const kept = config.preview ? null : loadProgress();
  progress.order = kept?.order ?? drawOrder();
  pages.forEach((page, index) => {
    for (const id of progress.order.pages[index] ?? []) {
      const question = page.querySelector(`section.question[data-question-id="${CSS.escape(id)}"]`);
      if (question) page.append(question);
    }
  });
  for (const [id, codes] of Object.entries(progress.order.options)) {
    const group = form.querySelector(`[role=radiogroup][data-question="${CSS.escape(id)}"]`);
    if (!group) continue;
    const none = group.querySelector("[data-option=none]");
    for (const code of codes) {
      const option = group.querySelector(`[role=radio][data-option="${CSS.escape(code)}"]`);
      if (option) group.insertBefore(option, none);
    }
    group.querySelectorAll("[role=radio]").forEach((option, index) => {
      option.tabIndex = index === 0 ? 0 : -1;
    });
  }
  form.querySelectorAll(".q-number").forEach((number, index) => {
    number.textContent = String(index + 1);
  });
  if (pages.length > 1) {
    byId("next").addEventListener("click", () => leavePage(1));
    byId("back").addEventListener("click", () => leavePage(-1));
    form.addEventListener("click", (event) => {
      const again = event.target.closest("[data-answer-again]");
      if (again) answerAgain(questionsById.get(again.closest("section.question").dataset.questionId));
    });
    showPage(0);
  }
}

function loadProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(progressKey));
    return kept && kept.expires > Date.now() ? kept : null;
  } catch {
    return null;
  }
}

function saveProgress() {
  if (config.preview) return;
  try {
    localStorage.setItem(
      progressKey,
      JSON.stringify({ ...progress, expires: expiryFrom(Date.now()) }),
    );
  } catch {
    // Without storage a reload loses the answers; nothing is sent meanwhile.
  }
}

function forgetProgress() {
  try {
    localStorage.removeItem(progressKey);
  } catch {
    // Nothing was stored.
  }
}

// Whether an answer kept between pages is shown again: a choice among
// options asked plainly, whose report is the choice itself.
function shownAgain(question) {
  return (
    question.plain &&
    !question.procedure &&
    question.arm !== "direct" &&
    form.querySelector(`[role=radiogroup][data-question="${CSS.escape(String(question.id))}"]`) !== null
  );
}

function isRandomized(question) {
  return !question.plain && !question.procedure && question.arm !== "direct";
}

// The question's own parts: all but its heading and its "answered" note.
function answerParts(question) {
  const section = form.querySelector(`section.question[data-question-id="${CSS.escape(String(question.id))}"]`);
  return [...section.children].filter(
    (child) => child.tagName !== "H2" && !child.classList.contains("answered-note") && !child.id.endsWith("-how"),
  );
}

// Shown in place of a settled answer that is not shown again; the choice
// itself is forgotten.
function showAnswered(question) {
  const id = CSS.escape(String(question.id));
  for (const option of form.querySelectorAll(`[data-question="${id}"] [role=radio], [data-question="${id}"] [role=checkbox]`)) {
    option.setAttribute("aria-checked", "false");
  }
  for (const input of form.querySelectorAll(`.count-answer[data-question="${id}"] input`)) {
    if (input.type === "checkbox") input.checked = false;
    else input.value = "";
    input.disabled = false;
  }
  for (const part of answerParts(question)) part.hidden = true;
  const note = byId(`q${question.id}-answered`);
  note.querySelector("p").textContent = isRandomized(question)
    ? words.answeredRandomized
    : words.answeredKept;
  note.hidden = false;
}

function answerAgain(question) {
  if (!question) return;
  delete progress.answers[question.id];
  saveProgress();
  for (const part of answerParts(question)) part.hidden = false;
  byId(`q${question.id}-answered`).hidden = true;
  const first = form.querySelector(
    `[data-question="${CSS.escape(String(question.id))}"] [tabindex="0"], .count-answer[data-question="${CSS.escape(String(question.id))}"] input`,
  );
  first?.focus();
}

// The page's answers as they will be sent: each randomized now, once, unless
// settled before; left out when not answered (sent as missing).
async function settlePage(page) {
  const truths = typedTruths(countTruths(chosenTruths()));
  if (!(await sealTruths(truths, questionsOn(page)))) return false;
  for (const question of questionsOn(page)) {
    const settled = progress.answers[question.id];
    if (settled && !shownAgain(question)) continue;
    const truth = truths[question.id];
    if (truth === null || truth === undefined || truth === NO_ANSWER) {
      delete progress.answers[question.id];
      continue;
    }
    // A typed answer (a number) is asked plainly: kept as typed, as it is sent.
    const typed = kindOf(question);
    progress.answers[question.id] = {
      report: reportFor(question, truth),
      spec_version: question.spec_version,
      ...(typed.value ? { value: typed.value(truth) } : {}),
    };
    if (!shownAgain(question)) showAnswered(question);
  }
  saveProgress();
  return true;
}

// Whether the page's questions are answered as they must be; says which is not.
function pageComplete(page) {
  const truths = typedTruths(countTruths(chosenTruths()));
  const open = questionsOn(page).filter((q) => !progress.answers[q.id] || shownAgain(q));
  const invalid = open.find((q) => truths[q.id] === undefined);
  const typed = invalid ? kindOf(invalid) : {};
  if (typed.boxes) {
    const box = form.querySelector(`${typed.boxes}[data-question="${invalid.id}"]`);
    const number = box.closest("section.question").querySelector(".q-number").textContent;
    say(fill(words[typed.invalidWords ?? "numberInvalid"], { number, ...typed.invalid(box) }), true);
    box.querySelector("input, textarea").focus();
    return false;
  }
  if (invalid) {
    const box = form.querySelector(`.count-answer[data-question="${invalid.id}"]`);
    const number = box.closest("section.question").querySelector(".q-number").textContent;
    say(fill(words.countInvalid, { number, max: box.dataset.max }), true);
    box.querySelector("input, textarea").focus();
    return false;
  }
  const missing = open.filter((q) => truths[q.id] === null && !q.optional);
  if (missing.length) {
    say(words.questionsLeft[missing.length], true);
    form
      .querySelector(
        `[data-question="${missing[0].id}"] [tabindex="0"], .count-answer[data-question="${missing[0].id}"] input, [data-question="${missing[0].id}"] textarea`,
      )
      ?.focus();
    return false;
  }
  return true;
}

// Answers stored for sending but not confirmed: no page is shown, only "Send again".
function hidePages() {
  if (pages.length < 2) return;
  for (const page of pages) page.hidden = true;
  byId("progress").hidden = true;
  byId("next").hidden = true;
  byId("back").hidden = true;
  sendButton.hidden = false;
}

function showPage(index) {
  pages.forEach((page, i) => {
    page.hidden = i !== index;
  });
  progress.page = index;
  const shown = shownPages();
  const at = shown.indexOf(pages[index]);
  const last = at === shown.length - 1;
  const text = fill(words.pageOf, { page: at + 1, pages: shown.length });
  byId("progress-text").textContent = text;
  const bar = byId("progress-bar");
  bar.max = shown.length;
  bar.value = at + 1;
  byId("back").hidden = at === 0;
  byId("next").hidden = last;
  sendButton.hidden = !last;
}

// Next checks the page first; Back does not (a page may be left unfinished).
async function leavePage(step) {
  const page = pages[progress.page];
  if (step > 0 && !pageComplete(page)) return;
  if (!(await settlePage(page))) return;
  say("");
  const shown = shownPages();
  const target = shown[shown.indexOf(page) + step];
  if (!target) return;
  showPage(pages.indexOf(target));
  saveProgress();
  target.querySelector(".page-title, .question h2").tabIndex = -1;
  target.querySelector(".page-title, .question h2").focus();
}

// After a reload: the page reached and the answers settled, the randomized
// ones told as answered, those asked plainly chosen again.
function restoreProgress() {
  const kept = config.preview || pages.length < 2 ? null : loadProgress();
  if (!kept) return;
  for (const [id, answer] of Object.entries(kept.answers ?? {})) {
    const question = questionsById.get(id);
    if (!question || answer.spec_version !== question.spec_version) continue;
    progress.answers[id] = {
      report: answer.report,
      spec_version: answer.spec_version,
      ...(answer.value !== undefined && kindOf(question).value ? { value: answer.value } : {}),
    };
    const option = shownAgain(question)
      ? form.querySelector(`[role=radiogroup][data-question="${CSS.escape(id)}"] [data-option="${answer.report}"]`)
      : null;
    if (option) {
      const group = option.closest("[role=radiogroup]");
      for (const other of group.querySelectorAll("[role=radio]")) {
        other.setAttribute("aria-checked", String(other === option));
        other.tabIndex = other === option ? 0 : -1;
      }
    } else {
      showAnswered(question);
    }
  }
  const page = pages[kept.page];
  showPage(page && pageShown(page) ? kept.page : 0);
}

// Sending from the last page: every shown question's report, settled on its
// page; a question not answered is sent as missing.
async function sendPages() {
  const page = pages[progress.page];
  if (!pageComplete(page)) return;
  if (!(await settlePage(page))) return;
  const shown = config.questions.filter(questionShown);
  const missing = shown.find((q) => !q.optional && !progress.answers[q.id]);
  if (missing) {
    // Left out on an earlier page (a page left with Back): go back to it.
    const section = form.querySelector(`section.question[data-question-id="${missing.id}"]`);
    showPage(pages.indexOf(section.closest(".page")));
    pageComplete(section.closest(".page"));
    return;
  }
  const answers = shown.map((q) => ({
    question: q.id,
    report: progress.answers[q.id]?.report ?? null,
    spec_version: q.spec_version,
    ...(progress.answers[q.id]?.value !== undefined ? { value: progress.answers[q.id].value } : {}),
  }));
  forgetTruths();
  sendAnswers(answers);
}

start();
