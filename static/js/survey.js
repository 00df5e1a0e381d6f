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
//
// Each feature a page may use lives in a module of its own (static/js/survey/:
// pages and saved progress, display logic, the practice round, consent,
// access, the validation arm, boxes typed into), and a page loads only those
// it uses: the server lists them in the page's config
// (surveys/respond/page_modules.py).
//
// Where the site can, the page carries the randomizer and every module it
// needs inside itself, each byte for byte its file and allowed by its own
// hash in the page's policy (surveys/respond/inline.py): a phone on a slow
// network then waits for one round trip, not two. A module written inside a
// page cannot be imported, so each hands its exports over by its path, and
// the config names it "inline:<path>" instead of by its URL. Where it
// cannot, the page preloads each file with its integrity, so that every
// script is fetched in one wave from the HTML.

const DAY_MS = 24 * 60 * 60 * 1000;
// An optional question's "Prefer not to answer": a non-answer, never randomized.
const NO_ANSWER = "none";
const config = JSON.parse(document.getElementById("survey-config").textContent);
// Every word this script shows, in the survey's language (surveys/respond/messages.py).
const words = config.messages;
const form = document.getElementById("survey");
// The answers' buttons come bare from the server (the same four attributes
// on each were 2.9 KB of a twenty-question page): each becomes a radio of its
// group, the first in the tab order, or a checkbox, before anything reads
// them. The questions stay hidden until the script has run.
for (const group of form.querySelectorAll(".options")) {
  const role = group.getAttribute("role") === "group" ? "checkbox" : "radio";
  group.querySelectorAll("[data-option]").forEach((button, index) => {
    button.type = "button";
    button.setAttribute("role", role);
    button.setAttribute("aria-checked", "false");
    if (role === "radio") button.tabIndex = index ? -1 : 0;
  });
}
// Each distinct receipt note comes once (surveys/respond/selectors.py,
// shared_notes); a question names its note by index. Its answers' labels,
// which the receipt shows, are its buttons' (the data does not repeat
// them), by code.
for (const question of config.questions) {
  question.receipt_note = config.receiptNotes[question.note];
  question.options = [];
  for (const button of form.querySelectorAll(`[data-question="${question.id}"] [data-option]`)) {
    if (button.dataset.option !== NO_ANSWER) question.options[button.dataset.option] = button.textContent;
  }
}
// "{name}" placeholders filled from values: the translations reorder them freely.
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
// A counted sentence (surveys/respond/messages.py, counted_forms): the form the
// server's plural rule gave this count, filled in.
const counted = (sentence, count) => fill(sentence.forms[sentence.form[count - 1]], { count });
const storageKey = `rr-survey:${config.slug}`;
// Which way each question with a validation arm is asked, and the group a
// procedure drew, kept until the answers are sent, so a reload shows the
// same way rather than a new draw.
const armsKey = `rr-arms:${config.slug}`;
const statusLine = document.getElementById("status");
const sendButton = document.getElementById("send");
const byId = (id) => document.getElementById(id);
// Each kind's own code (surveys/kinds/<kind>/static/page.js), for the kinds
// this page shows only: the page carries each, or preloads it with its
// integrity, and each is given the randomizer, so every draw is still the
// pinned randomizer's.
// A kind may check and report its questions itself (check all that apply:
// the items ticked travel as one bit mask), and may run a procedure in which
// the respondent produces the report (a crosswise pairing; a device
// instruction's group and answer). A question names its kind's script by
// its place in config.scripts. The page's features, and the randomizer's
// parts its specs use (thresholds as a base and a rule, the validation arm),
// are taken at the same time, from the page or the URLs the server listed.
const CARRIED = "inline:";
const carried = globalThis.carriedModules ?? new Map();
// A module's exports, from the page itself or from its file. One the page
// should carry and does not (its text was changed, so the policy refused it)
// stops the page as a file that failed its integrity check would.
const exportsOf = async (source) => {
  if (!source.startsWith(CARRIED)) return import(source);
  const path = source.slice(CARRIED.length);
  if (!carried.has(path)) throw new Error(`The page's module ${path} did not run`);
  return carried.get(path);
};
const loaded = async (source) => (await exportsOf(source)).default;
const named = (sources) =>
  Promise.all(Object.entries(sources ?? {}).map(async ([name, source]) => [name, await loaded(source)]));
const randomizer = await exportsOf(config.randomizer);
const { SpecRefused, checkAnySpec, newRespondentKey, procedureRunner, randomize } = randomizer;
const [kindModules, featureModules, partModules] = await Promise.all([
  Promise.all((config.scripts ?? []).map(loaded)),
  named(config.modules),
  named(config.parts),
]);
// Each part is given the randomizer, as the kinds are (rr-arm.js gives it
// the arm's check).
const parts = Object.fromEntries(partModules.map(([name, make]) => [name, make(randomizer)]));
const kindsByScript = kindModules.map((make) => make(randomizer));
const kinds = [...kindsByScript];
const kindOf = (question) => kindsByScript[question.script] ?? {};

// What the page's features need of this script, given to each feature's
// module when it is loaded; a feature the page does not use is never loaded,
// and the script asks it nothing (``features.<name>?.``).
const core = {
  config,
  words,
  fill,
  counted,
  form,
  byId,
  say,
  sendButton,
  randomizer,
  parts,
  kinds,
  kindOf,
  truths: () => typedTruths(chosenTruths()),
  sealTruths: (truths, questions) => sealTruths(truths, questions),
  answersComplete,
  answerTo,
  expiryFrom,
  forgetTruths,
  forgetBox,
  keptItem,
  sendAnswers,
  NO_ANSWER,
};
const features = Object.fromEntries(featureModules.map(([name, make]) => [name, make(core)]));

// What this page's data asks for, feature by feature: a page whose data
// needs a feature the server did not list stops here rather than skip it
// (a condition never applied, a page never shown). A spec with a validation
// arm the server did not list is refused with the specs (checkQuestions).
function missingFeature() {
  const pages = form.querySelectorAll(".page");
  const needs = {
    pages: pages.length > 1 || form.querySelector(".page[data-shuffle], [data-shuffle-options]") !== null,
    displayLogic: config.questions.some((q) => q.condition),
    practice: Boolean(config.practice && byId("practice")),
    consent: config.consent,
    access: config.access.mode !== "open",
    boxes: typedBoxes().length > 0,
  };
  return Object.keys(needs).find((name) => needs[name] && !features[name]);
}

// The invitation or panel id the submission carries; {} on an open survey.
const accessCredential = () => (features.access ? features.access.credential() : {});


// What this browser keeps of the survey under `key` (localStorage): read back
// only until its date (`expires`), and removed once past it. Private browsing
// may refuse storage; the page then still works, it only keeps nothing (a
// reload could draw again, or lose the answers of earlier pages).
function keptItem(key) {
  const item = {
    load() {
      try {
        const kept = JSON.parse(localStorage.getItem(key));
        if (kept && !(kept.expires > Date.now())) {
          item.remove();
          return null;
        }
        return kept;
      } catch {
        return null;
      }
    },
    save(kept) {
      try {
        localStorage.setItem(key, JSON.stringify(kept));
      } catch {
        // Kept in this page's memory only.
      }
    },
    remove() {
      try {
        localStorage.removeItem(key);
      } catch {
        // Nothing was stored.
      }
    },
  };
  return item;
}

// The reports until they are sent, then the receipt.
const storage = keptItem(storageKey);
// What was drawn before the questions showed (validation arms, procedures'
// groups), so that a reload cannot draw again.
const keptArms = keptItem(armsKey);

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
// (not "Prefer not to answer"), or as its kind counts its box's (a count:
// 0 to its maximum). A spec must have exactly that many, or some answer
// could not be sent or some report could not be shown.
function shownAnswers(question) {
  const id = CSS.escape(String(question.id));
  const { boxes, answersShown } = kindOf(question);
  const box = answersShown && form.querySelector(`${boxes}[data-question="${id}"]`);
  if (box) return answersShown(box);
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
      // Without the rule's part, such a spec has no thresholds: refused.
      question.spec = parts.rule?.expandSpec(question.spec) ?? question.spec;
      // A procedure passes only the check of a kind this page loaded.
      const check = kindOf(question).check ?? checkAnySpec;
      kind = check(question.spec, answers, kinds);
      // An arm the server did not say this page asks (it listed no module to
      // draw it) is not one the page can ask: refused, never left undrawn.
      if (question.spec.direct_arm && !features.arms) {
        throw randomizer.refusal(randomizer.REFUSALS, "unreadableArm", { problem: "direct_arm" });
      }
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


// -- drawn before the questions show: validation arms, procedures' groups ------

// Drawn here, before any question is shown: what a procedure draws first
// (static/js/survey/arms.js draws the validation arms, on a page with any).
function assignArms() {
  const kept = config.preview ? null : keptArms.load();
  const groups = {};
  for (const question of config.questions) {
    if (!question.procedure) continue;
    // What the procedure draws before the question is shown: what it keeps
    // (a group, sent anyway) is kept, so that a reload cannot pick it; what
    // it shows (an instruction) is drawn anew and never written anywhere.
    const draw = procedureRunner(question.procedure, kinds).draw;
    if (draw) {
      // Given the question too: a kind may show what it drew (a list).
      const drawn = draw(question.spec, kept?.groups?.[question.id], question);
      question.kept = drawn.keep;
      groups[question.id] = drawn.keep;
      if (drawn.say) showInstruction(question, fill(words[drawn.say], drawn.values));
    }
  }
  const arms = features.arms?.assign(kept?.arms ?? {}) ?? {};
  if (!config.preview && Object.keys(arms).length + Object.keys(groups).length) {
    keptArms.save({ arms, groups, expires: expiryFrom(Date.now()) });
  }
}

// The instruction, shown above the answers; it lives only in the page.
function showInstruction(question, text) {
  const line = byId(`q${question.id}-instruction`);
  const strong = document.createElement("strong");
  strong.textContent = text;
  line.replaceChildren(strong);
}

// Whether a sent answer is a direct one: told by its code (k..2k-1), so a
// reload that finds answers drawn before tells them apart too.
function isDirect(question, answer) {
  // Only a randomized question with a validation arm has direct answers.
  if (question.procedure || question.plain || !question.spec.direct_arm) return false;
  return answer.report !== null && answer.report >= question.spec.k;
}

// The report sent for one true answer: as given (its direct code) when the
// question is asked directly of this respondent, else randomized.
function reportFor(question, truth) {
  if (question.arm === "direct") return parts.arm.directCode(truth, question.spec.k);
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
  group.addEventListener("click", (event) => {
    const button = event.target.closest("[role=radio]");
    if (button) choose(group, button);
  });
  group.addEventListener("keydown", (event) => {
    const steps = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    // Read when a key is pressed: a kind's draw may hide an answer it does
    // not allow (a list experiment's shorter list has no count J + 1).
    const options = [...group.querySelectorAll("[role=radio]:not([hidden])")];
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

// A kind that reads its own boxes (a count, a number, a text): each box's
// true answer, as the kind reads it (undefined when it is not one the
// question takes). Only the boxes of the kind's own questions: two kinds' boxes may share a
// class (free text's and a sealed answer's), and a box read by the wrong kind
// would send a sealed answer's words unsealed.
function typedBoxes() {
  const questionById = new Map(config.questions.map((q) => [String(q.id), q]));
  return kinds.flatMap((kind) =>
    kind.boxes
      ? [...form.querySelectorAll(kind.boxes)]
          .filter((box) => kindOf(questionById.get(box.dataset.question) ?? {}) === kind)
          .map((box) => [kind, box])
      : [],
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

// A typed box emptied by the module every such box shares (a page with one
// always loads it: missingFeature).
function forgetBox(box) {
  features.boxes?.forget(box);
}

function forgetTruths() {
  for (const [, box] of typedBoxes()) forgetBox(box);
  for (const option of form.querySelectorAll("[role=radio], [role=checkbox]")) {
    option.setAttribute("aria-checked", "false");
  }
  for (const line of form.querySelectorAll(".instruction")) line.replaceChildren();
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
  // A count's box has no buttons: its answers are its numbers.
  const code = report % question.spec.k;
  return question.options[code] ?? String(code);
}

function fillList(id, items) {
  const list = byId(`${id}-list`);
  list.replaceChildren(...items);
  byId(id).hidden = items.length === 0;
}

// The date the receipt names, in the page's language, not the browser's. A
// page's first date format loads the language's data, 148 to 327 ms at 4x
// CPU throttling (docs/benchmarks.md, "Load time"): prepareReceiptDate does it
// while the respondent reads the questions, not between "Send" and the
// receipt.
let dateFormat = null;
function receiptDate(time) {
  const lang = document.documentElement.lang || undefined;
  dateFormat ??= new Intl.DateTimeFormat(lang, { dateStyle: "long" });
  return dateFormat.format(new Date(time));
}
function prepareReceiptDate() {
  const later = globalThis.requestIdleCallback ?? ((task) => setTimeout(task, 0));
  later(() => receiptDate(Date.now()));
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
    keptText.textContent = fill(words.kept, { date: receiptDate(kept.expires) });
    forget.hidden = false;
  }
  form.hidden = true;
  const receipt = byId("receipt");
  receipt.hidden = false;
  receipt.focus();
}

function removeFromDevice() {
  storage.remove();
  keptArms.remove();
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
    keptArms.remove();
    showReceipt(state.answers, { kept: receipt });
    features.access?.continueTo(receipt.next);
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
  if (body.redirect && features.access) {
    // A panel's screen-out page (the survey is closed or full).
    byId("receipt-continue").hidden = false;
    form.append(byId("receipt-continue"));
    features.access.continueTo(body.redirect);
  }
}

// "Send": the answers as they will be sent (each randomized now, once, or
// settled on its page before), then stored and sent. Nothing is drawn until
// every answer the page needs is there.
async function onSend() {
  const stored = storage.load();
  if (stored) {
    send(stored);
    return;
  }
  sendButton.disabled = true;
  const answers = await (features.pages?.several ? features.pages.answers() : pageAnswers());
  sendButton.disabled = false;
  if (!answers) return;
  forgetTruths();
  sendAnswers(answers);
}

// The one page's answers as they will be sent, or null (and the respondent
// told what is missing) when some answer is not one the question takes, or
// one could not be sealed.
async function pageAnswers() {
  const truths = typedTruths(chosenTruths());
  features.displayLogic?.apply();
  // A question not shown is not answered: nothing is checked, drawn or sent for it.
  for (const q of config.questions) if (q.hidden) delete truths[q.id];
  const shown = config.questions.filter((q) => !q.hidden);
  if (!answersComplete(shown, truths)) return null;
  if (!(await sealTruths(truths, config.questions))) return null;
  return shown.map((q) => ({ question: q.id, ...answerTo(q, truths[q.id]) }));
}

// Says what stops the answers to `questions` (as shown, in order) from
// being sent, and takes the respondent there: the first box whose text its
// question does not take, or else how many questions that are not optional
// are left. True when nothing does.
function answersComplete(questions, truths) {
  const invalid = questions.find((q) => truths[q.id] === undefined);
  const typed = invalid ? kindOf(invalid) : {};
  if (typed.boxes) {
    const box = form.querySelector(`${typed.boxes}[data-question="${invalid.id}"]`);
    // Its number as the respondent sees it (sections and shuffles renumber).
    const number = box.closest("section.question").querySelector(".q-number").textContent;
    say(fill(words[typed.invalidWords ?? "numberInvalid"], { number, ...typed.invalid(box) }), true);
    box.querySelector("input, textarea").focus();
    return false;
  }
  const missing = questions.filter((q) => truths[q.id] === null && !q.optional);
  if (missing.length) {
    say(counted(words.questionsLeft, missing.length), true);
    form.querySelector(`[data-question="${missing[0].id}"] :is([tabindex="0"], input, textarea)`)?.focus();
    return false;
  }
  return true;
}

// What is sent for `question` (beside its id) given its true answer: its
// report, drawn here once, and a typed answer's value beside it, as typed. A
// question left out or answered "Prefer not to answer" is sent as missing
// (report null): nothing is drawn for it.
function answerTo(question, truth) {
  const missing = truth === null || truth === undefined || truth === NO_ANSWER;
  const { value } = kindOf(question);
  return {
    report: missing ? null : reportFor(question, truth),
    spec_version: question.spec_version,
    ...(value && !missing ? { value: value(truth) } : {}),
  };
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
  features.pages?.forget();
  send(state);
}

function start() {
  try {
    checkQuestions();
  } catch (error) {
    if (!(error instanceof SpecRefused)) throw error;
    refuse(error.message);
    return;
  }
  // A server's mistake, not the respondent's: the page stays hidden.
  const missing = missingFeature();
  if (missing) throw new Error(`missingFeature: ${missing}`);
  // Before the groups are wired, so that the arrow keys follow the order shown.
  features.pages?.arrange();
  for (const group of form.querySelectorAll("[role=radiogroup]")) wireGroup(group);
  for (const group of form.querySelectorAll(".options[role=group]")) wireChecklist(group);
  features.displayLogic?.wire();
  for (const [, box] of typedBoxes()) features.boxes.wire(box);
  sendButton.addEventListener("click", onSend);
  byId("forget").addEventListener("click", removeFromDevice);
  const stored = config.preview ? null : storage.load();
  features.practice?.wire(stored);
  if (stored?.sent) {
    showReceipt(stored.answers, { kept: stored });
    if (stored.next) features.access?.continueTo(stored.next);
    return;
  }
  const access = config.preview || stored ? null : features.access;
  if (access && access.credential() === null) {
    // Told now, not after answering: this page cannot be answered without
    // the invitation or the panel's id.
    access.refuse();
    return;
  }
  if (access) {
    access.check().then((refusal) => (refusal ? access.refuse(refusal) : openQuestions(stored)));
    return;
  }
  openQuestions(stored);
}

// The questions (or the consent statement first), or the reports drawn
// before and not yet confirmed.
function openQuestions(stored) {
  prepareReceiptDate();
  // Before consent and before any question shows: each question says which
  // way it is asked before it can be answered.
  if (!stored) assignArms();
  if (!stored) features.pages?.restore();
  if (config.consent && !stored) {
    features.consent.wire();
    return;
  }
  form.hidden = false;
  if (stored) {
    // Drawn before but not confirmed: offer to send the same reports again.
    for (const section of form.querySelectorAll(".question")) section.hidden = true;
    features.pages?.hide();
    sendButton.textContent = words.sendAgain;
    say(words.notConfirmed);
  }
}

start();
