// -- pages: sections, progress, answers kept between pages, order -------------
//
// A survey of several sections shows one page at a time. Leaving a page (Next
// or Back) settles its answers: a randomized question's answer is randomized
// then, once, with the same code "Send" uses, and only the report is kept; the
// page forgets the choice, so it cannot be shown again. An answer sent as given
// (asked plainly) is kept as given and shown again. The reports, the page
// reached and the order drawn are kept in localStorage ("rr-progress:<slug>"),
// so a reload on this device finds the answers exactly as they will be sent,
// and nothing else. They go once the answers are stored for sending.
//
// Questions of a shuffled section, and the options of a question whose
// researcher asked for it, are shown in an order drawn here
// (crypto.getRandomValues, through the randomizer's uniformBelow); an option's
// code stays its place in the researcher's order, and the order drawn is
// never sent.
//
// Loaded only by a page of several sections, or one whose questions or
// options are shown in an order drawn here (surveys/respond/page_modules.py).

/**
 * The pages of the survey, over the page's core (static/js/survey.js).
 *
 * @param {object} core what the page's script shares with its features
 * @returns {object} what the core asks of the pages
 */
export default function sectionPages(core) {
  const { config, form, byId, words, fill, say, sendButton, kindOf } = core;
  const { answersComplete, answerTo, expiryFrom, NO_ANSWER } = core;

  const savedProgress = core.keptItem(`rr-progress:${config.slug}`);
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
      const j = core.randomizer.uniformBelow(i + 1);
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
    const kept = config.preview ? null : savedProgress.load();
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

  function saveProgress() {
    if (!config.preview) savedProgress.save({ ...progress, expires: expiryFrom(Date.now()) });
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
    return [...sectionOf(question).children].filter(
      (child) => child.tagName !== "H2" && !child.classList.contains("answered-note") && !child.id.endsWith("-how"),
    );
  }

  // The question's "answered" note, made the first time it is needed rather
  // than sent hidden in the markup of every question.
  function answeredNote(question) {
    const id = `q${question.id}-answered`;
    let note = byId(id);
    if (!note) {
      note = document.createElement("div");
      note.className = "answered-note";
      note.id = id;
      const again = document.createElement("button");
      again.type = "button";
      again.classList.add("secondary", "small");
      again.dataset.answerAgain = "";
      again.textContent = words.answerAgain;
      note.append(document.createElement("p"), again);
      sectionOf(question).append(note);
    }
    return note;
  }

  function sectionOf(question) {
    return form.querySelector(`section.question[data-question-id="${CSS.escape(String(question.id))}"]`);
  }

  // Shown in place of a settled answer that is not shown again; the choice
  // itself is forgotten.
  function showAnswered(question) {
    const id = CSS.escape(String(question.id));
    for (const option of form.querySelectorAll(`[data-question="${id}"] [role=radio], [data-question="${id}"] [role=checkbox]`)) {
      option.setAttribute("aria-checked", "false");
    }
    const { boxes } = kindOf(question);
    if (boxes) for (const box of form.querySelectorAll(`${boxes}[data-question="${id}"]`)) core.forgetBox(box);
    for (const part of answerParts(question)) part.hidden = true;
    const note = answeredNote(question);
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
    answeredNote(question).hidden = true;
    const first = form.querySelector(
      `[data-question="${CSS.escape(String(question.id))}"] :is([tabindex="0"], input)`,
    );
    first?.focus();
  }

  // The page's answers as they will be sent: each randomized now, once, unless
  // settled before; left out when not answered (sent as missing). False when
  // one could not be sealed (a kind that encrypts a typed answer): nothing of
  // the page is then kept.
  async function settlePage(page) {
    const truths = core.truths();
    if (!(await core.sealTruths(truths, questionsOn(page)))) return false;
    for (const question of questionsOn(page)) {
      const settled = progress.answers[question.id];
      if (settled && !shownAgain(question)) continue;
      const truth = truths[question.id];
      if (truth === null || truth === undefined || truth === NO_ANSWER) {
        delete progress.answers[question.id];
        continue;
      }
      // A typed answer (a number) is asked plainly: kept as typed, as it is sent.
      progress.answers[question.id] = answerTo(question, truth);
      if (!shownAgain(question)) showAnswered(question);
    }
    saveProgress();
    return true;
  }

  // Whether the page's questions are answered as they must be; says which is not.
  function pageComplete(page) {
    const truths = core.truths();
    const open = questionsOn(page).filter((q) => !progress.answers[q.id] || shownAgain(q));
    return answersComplete(open, truths);
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
    const kept = config.preview || pages.length < 2 ? null : savedProgress.load();
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
  // page; a question not answered is sent as missing. Null (and the
  // respondent taken to what is missing) when some answer is not there.
  async function pagesAnswers() {
    const page = pages[progress.page];
    if (!pageComplete(page)) return null;
    if (!(await settlePage(page))) return null;
    const shown = config.questions.filter(questionShown);
    const missing = shown.find((q) => !q.optional && !progress.answers[q.id]);
    if (missing) {
      // Left out on an earlier page (a page left with Back): go back to it.
      const section = form.querySelector(`section.question[data-question-id="${missing.id}"]`);
      showPage(pages.indexOf(section.closest(".page")));
      pageComplete(section.closest(".page"));
      return null;
    }
    // Not answered (optional): sent as missing.
    return shown.map((q) => ({ question: q.id, ...(progress.answers[q.id] ?? answerTo(q, null)) }));
  }


  return {
    // More than one page: Next, Back and "Send" on the last page.
    several: pages.length > 1,
    arrange: arrangePages,
    restore: restoreProgress,
    hide: hidePages,
    answers: pagesAnswers,
    forget: () => savedProgress.remove(),
  };
}

// Carried inside the respondent page, a module cannot be imported: it hands
// its exports to the page script by its path (surveys/respond/inline.py).
(globalThis.carriedModules ??= new Map()).set("js/survey/pages.js", { default: sectionPages });
