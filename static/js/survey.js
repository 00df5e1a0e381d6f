// The respondent page: wires the pure randomizer (rr.js) to the DOM.
//
// The true answers live only in this page's memory (the aria-checked state of
// buttons with no name, outside any form). On "Send", each is randomized once;
// only the randomized reports are kept in localStorage and sent, so a reload,
// a double click or a retry sends the same reports and the noise cannot be
// averaged away by answering again.
import { newRespondentKey, randomize } from "./rr.js";

const config = JSON.parse(document.getElementById("survey-config").textContent);
const storageKey = `rr-survey:${config.slug}`;
const form = document.getElementById("survey");
const statusLine = document.getElementById("status");
const sendButton = document.getElementById("send");

const storage = {
  load() {
    try {
      return JSON.parse(localStorage.getItem(storageKey));
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
};

function say(message, isError = false) {
  statusLine.textContent = message;
  statusLine.classList.toggle("error", isError);
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

function chosenTruths() {
  const truths = {};
  for (const group of form.querySelectorAll("[role=radiogroup]")) {
    const checked = group.querySelector("[aria-checked=true]");
    truths[group.dataset.question] = checked ? Number(checked.dataset.option) : null;
  }
  return truths;
}

function forgetTruths() {
  for (const option of form.querySelectorAll("[role=radio]")) {
    option.setAttribute("aria-checked", "false");
  }
}

// -- sending -------------------------------------------------------------------

function showReceipt(answers) {
  const list = document.getElementById("receipt-list");
  list.replaceChildren();
  for (const answer of answers) {
    const question = config.questions.find((q) => q.id === answer.question);
    const item = document.createElement("li");
    const sent = document.createElement("strong");
    sent.textContent = question.options[answer.report];
    item.append(question.text, document.createElement("br"), sent);
    list.append(item);
  }
  if (config.preview) {
    document.getElementById("receipt-intro").textContent =
      "Preview: nothing was sent. A respondent's device would have sent:";
  }
  form.hidden = true;
  const receipt = document.getElementById("receipt");
  receipt.hidden = false;
  receipt.focus();
}

async function send(state) {
  sendButton.disabled = true;
  say("Sending your scrambled answers…");
  let reply;
  try {
    reply = await fetch(config.submitUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ respondent_key: state.key, answers: state.answers }),
    });
  } catch {
    sendButton.disabled = false;
    sendButton.textContent = "Try sending again";
    say("Your answers could not be sent: check your connection and try again.", true);
    return;
  }
  const body = await reply.json().catch(() => ({}));
  if (reply.ok) {
    storage.save({ ...state, sent: true });
    showReceipt(state.answers);
    return;
  }
  if (reply.status >= 500 || reply.status === 429) {
    sendButton.disabled = false;
    sendButton.textContent = "Try sending again";
    const wait = "The server could not take your answers just now. Please try again in a moment.";
    say(reply.status === 429 && body.error ? body.error : wait, true);
    return;
  }
  // Refused (for example, the survey has closed). The reports stay stored and
  // are never drawn again: the server has seen them once already, and a fresh
  // draw of the same true answers would let the noise be averaged away.
  say(body.error || `Your answers were refused (error ${reply.status}).`, true);
}

function onSend() {
  const stored = storage.load();
  if (stored) {
    send(stored);
    return;
  }
  const truths = chosenTruths();
  const missing = config.questions.filter((q) => truths[q.id] === null);
  if (missing.length) {
    say(`Please answer every question (${missing.length} left).`, true);
    const group = form.querySelector(`[data-question="${missing[0].id}"] [tabindex="0"]`);
    group?.focus();
    return;
  }
  const answers = config.questions.map((q) => ({
    question: q.id,
    report: randomize(truths[q.id], q.spec),
    spec_version: q.spec_version,
  }));
  forgetTruths();
  if (config.preview) {
    showReceipt(answers);
    return;
  }
  const state = { key: newRespondentKey(), answers, sent: false };
  storage.save(state);
  send(state);
}

function start() {
  for (const group of form.querySelectorAll("[role=radiogroup]")) wireGroup(group);
  sendButton.addEventListener("click", onSend);
  const stored = config.preview ? null : storage.load();
  if (stored?.sent) {
    showReceipt(stored.answers);
    return;
  }
  form.hidden = false;
  if (stored) {
    // Drawn before but not confirmed: offer to send the same reports again.
    for (const section of form.querySelectorAll(".question")) section.hidden = true;
    sendButton.textContent = "Send my answers again";
    say("Your scrambled answers were not confirmed yet. Send them again to finish.");
  }
}

start();
