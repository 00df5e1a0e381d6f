"""A survey of several pages in a real browser: next, back and progress; a
reload in the middle finds the answers as they will be sent, and storage
holds only randomized reports and direct answers; questions and options in a
random order differ between respondents while the answers stored do not."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from surveys.builder.services import survey_publish
from surveys.models import Answer, Question, Survey
from tests.browser.helpers import choose, page_path, send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.surveys.sections.sectioned import FRUITS, sectioned_survey

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility

# Every draw near the top of the range: Warner's report of a No is then Yes,
# so a stored No would be the stored truth.
# (Below 2**32 - 1, so the rejection sampling of small bounds still accepts.)
HIGH_DRAWS = """(() => {
  const fill = (array) => { array.fill(0xfffffff0); return array; };
  Object.defineProperty(crypto, "getRandomValues", { value: fill });
})();"""


def progress_key(survey: Survey) -> str:
    return f"rr-progress:{survey.slug}"


def shown_page(page: Any) -> Any:
    return page.locator("#survey .page:not([hidden])")


def expect_page(page: Any, number: int, of: int) -> None:
    expect(page.locator("#progress-text")).to_have_text(f"Page {number} of {of}")
    expect(page.locator("#progress-bar")).to_have_attribute("value", str(number))


def next_page(page: Any) -> None:
    page.get_by_role("button", name="Next", exact=True).click()


@pytest.fixture
def survey(owner: Any) -> Survey:
    return survey_publish(survey=sectioned_survey(owner))


def answer_fruits(page: Any, survey: Survey) -> dict[int, int]:
    """Choose, for Fruit n, the option FRUITS[n % 5]; returns its code per id."""
    codes = {}
    for question in survey.questions.filter(text__startswith="Fruit"):
        n = int(question.text.split()[1].rstrip("?"))
        choose(page, question, FRUITS[n % len(FRUITS)])
        codes[question.pk] = n % len(FRUITS)
    return codes


def test_a_reload_between_pages_keeps_only_reports_and_direct_answers(
    visit, survey, axe_source
):
    respondent = visit()
    page = respondent.page
    page.add_init_script(HIGH_DRAWS)
    respondent.goto(page_path(survey))
    age = survey.questions.get(kind="direct", text__contains="age")
    warner = survey.questions.get(design__name="warner")
    forced = survey.questions.get(design__name="forced_response")
    krr = survey.questions.get(design__name="krr")

    expect_page(page, 1, 3)
    expect(shown_page(page).get_by_role("heading", name="About you")).to_be_visible()
    expect(page.get_by_text("A few words about you first.")).to_be_visible()
    expect(page.get_by_role("button", name="Back")).to_be_hidden()
    expect(send_button(page)).to_be_hidden()
    assert violations(page, axe_source) == [], "first page"
    next_page(page)  # nothing answered: refused, nothing stored
    expect(page.locator("#status")).to_contain_text("1 question left")
    assert respondent.storage()["local"] == {}
    choose(page, age, "30-44")
    next_page(page)

    expect_page(page, 2, 3)
    expect(page.get_by_role("heading", name="Sensitive questions")).to_be_focused()
    choose(page, warner, "No")
    choose(page, forced, "Yes")
    choose(page, krr, "Often")
    next_page(page)
    expect_page(page, 3, 3)
    expect(send_button(page)).to_be_visible()

    stored = json.loads(respondent.storage()["local"][progress_key(survey)])
    assert set(stored) == {"page", "answers", "order", "expires"}
    assert stored["page"] == 2
    answers = stored["answers"]
    assert set(answers) == {str(q.pk) for q in (age, warner, forced, krr)}
    for answer in answers.values():
        assert set(answer) == {"report", "spec_version"}
    assert answers[str(age.pk)]["report"] == 1  # asked plainly: as given
    # The true answer (No, 0) of the randomized question is not stored: its
    # report, drawn when the page was left, is Yes.
    assert answers[str(warner.pk)]["report"] == 1
    # Nothing on the page holds the choices made on the sensitive page either.
    assert page.evaluate(
        """(ids) => ids.map((id) => document.querySelector(
             `[data-question="${id}"] [aria-checked=true]`))""",
        [warner.pk, forced.pk, krr.pk],
    ) == [None, None, None]
    assert respondent.posts == []

    page.reload()
    expect_page(page, 3, 3)
    page.get_by_role("button", name="Back").click()
    expect_page(page, 2, 3)
    note = page.locator(f"#q{warner.pk}-answered")
    expect(note).to_contain_text("Your device randomized this answer")
    expect(note).to_contain_text("cannot be shown again")
    expect(page.get_by_role("radiogroup", name=warner.text)).to_be_hidden()
    assert violations(page, axe_source) == [], "answered, after a reload"
    page.get_by_role("button", name="Back").click()
    expect_page(page, 1, 3)
    age_group = page.get_by_role("radiogroup", name=age.text)
    expect(age_group.get_by_role("radio", name="30-44")).to_have_attribute(
        "aria-checked", "true"
    )
    next_page(page)
    next_page(page)
    codes = answer_fruits(page, survey)
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()

    [post] = respondent.posts
    sent = {a["question"]: a["report"] for a in post.json()["answers"]}
    assert sent[warner.pk] == answers[str(warner.pk)]["report"]
    assert sent[forced.pk] == answers[str(forced.pk)]["report"]
    assert sent[age.pk] == 1
    assert {pk: sent[pk] for pk in codes} == codes
    assert set(post.json()) == {"respondent_key", "answers"}
    local = respondent.storage()["local"]
    assert progress_key(survey) not in local
    assert Answer.objects.get(question=warner).report == 1


def test_answering_again_replaces_the_report(visit, survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    age = survey.questions.get(kind="direct", text__contains="age")
    sensitive = list(survey.questions.filter(section__title="Sensitive questions"))
    choose(page, age, "18-29")
    next_page(page)
    for question in sensitive:
        choose(page, question, question.options[0])
    next_page(page)
    page.reload()
    page.get_by_role("button", name="Back").click()
    warner = sensitive[0]
    section = page.locator(f'section.question[data-question-id="{warner.pk}"]')
    section.get_by_role("button", name="Answer again").click()
    group = page.get_by_role("radiogroup", name=warner.text)
    expect(group).to_be_visible()
    stored = json.loads(respondent.storage()["local"][progress_key(survey)])
    assert str(warner.pk) not in stored["answers"]
    next_page(page)  # the question is open again: it must be answered
    expect(page.locator("#status")).to_contain_text("1 question left")
    choose(page, warner, "No")
    next_page(page)
    stored = json.loads(respondent.storage()["local"][progress_key(survey)])
    assert stored["answers"][str(warner.pk)]["report"] in (0, 1)


def visible_order(page: Any, survey: Survey) -> tuple[list[int], list[list[str]]]:
    """The third page's question ids and each question's options, as shown."""
    return page.evaluate(
        """() => {
          const page = [...document.querySelectorAll("#survey .page")][2];
          const questions = [...page.querySelectorAll("section.question")];
          return [questions.map((q) => Number(q.dataset.questionId)),
                  questions.map((q) => [...q.querySelectorAll("[role=radio]")]
                    .map((o) => o.textContent))];
        }"""
    )


def test_random_order_differs_between_respondents_and_answers_do_not(visit, owner):
    survey = survey_publish(survey=sectioned_survey(owner, shuffled=True))
    fruits = list(survey.questions.filter(text__startswith="Fruit"))
    orders = []
    sent_codes = []
    # Six questions of five options: two respondents see the same order with
    # probability 1 / (6! * 5!**6), so three visits are plenty.
    for _ in range(3):
        respondent = visit()
        page = respondent.page
        respondent.goto(page_path(survey))
        for question in survey.questions.exclude(text__startswith="Fruit"):
            if question.section.title == "Sensitive questions":
                continue
            choose(page, question, question.options[0])
        next_page(page)
        for question in survey.questions.filter(section__title="Sensitive questions"):
            choose(page, question, question.options[0])
        next_page(page)
        ids, options = visible_order(page, survey)
        orders.append((ids, options))
        assert sorted(ids) == sorted(q.pk for q in fruits)
        assert all(sorted(shown) == sorted(FRUITS) for shown in options)
        numbers = page.locator(".page:not([hidden]) .q-number").all_text_contents()
        assert numbers == [str(n) for n in range(5, 11)]
        codes = answer_fruits(page, survey)
        send_button(page).click()
        expect(page.locator("#receipt")).to_be_visible()
        [post] = respondent.posts
        sent = {a["question"]: a["report"] for a in post.json()["answers"]}
        sent_codes.append({pk: sent[pk] for pk in codes})
        assert sent_codes[-1] == codes
        # The order drawn is nowhere in what was sent.
        assert set(post.json()) == {"respondent_key", "answers"}
        respondent.close()
    assert len({json.dumps(order) for order in orders}) > 1
    assert sent_codes[0] == sent_codes[1] == sent_codes[2]
    stored = Answer.objects.filter(question__in=fruits)
    assert stored.count() == 18
    for question in fruits:
        n = int(question.text.split()[1].rstrip("?"))
        assert set(
            stored.filter(question=question).values_list("report", flat=True)
        ) == {n % len(FRUITS)}


def test_a_survey_without_sections_is_one_page(visit, open_survey):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(open_survey))
    expect(page.locator("#progress")).to_have_count(0)
    expect(page.get_by_role("button", name="Next")).to_have_count(0)
    expect(send_button(page)).to_be_visible()
    assert (
        Question.objects.filter(survey=open_survey, section__isnull=False).count() == 0
    )


def test_the_builders_sections_page_has_no_violation(visit, owner, axe_source):
    from tests.browser.test_researcher import log_in

    draft = sectioned_survey(owner, shuffled=True)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{draft.pk}/")
    page.get_by_role("link", name="Sections and order").click()
    expect(page.get_by_role("heading", name="Sections and order")).to_be_visible()
    assert violations(page, axe_source) == [], "sections page, draft"
    page.get_by_label("Title").last.fill("Closing")
    page.get_by_role("button", name="Add section").click()
    expect(page.get_by_role("status")).to_contain_text("Added the section “Closing”")
    assert draft.sections.filter(title="Closing").exists()
    survey_publish(survey=draft)
    page.reload()
    expect(page.locator("#sections-frozen")).to_contain_text("frozen since publishing")
    assert violations(page, axe_source) == [], "sections page, published"
