"""What the browser tests check on a respondent page, shared by the test modules."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from surveys.languages import question_wording
from surveys.models import Question, Survey

RESPONDENT_KEY = re.compile(r"^[0-9a-f]{32}$")
STATIC_PREFIX = "/static/"
# The option indexes (data-option) currently chosen on the page.
CHOSEN = """() => [...document.querySelectorAll('[role=radio][aria-checked=true]')]
  .map((option) => option.dataset.option)"""
# Resolves true once the thank-you is shown, false after 10 s. Run in the
# page's own world: cheaper than a Playwright locator, which matters when it
# runs for hundreds of fresh pages.
RECEIPT_SHOWN = """() => new Promise((resolve) => {
  const receipt = document.getElementById("receipt");
  if (!receipt.hidden) return resolve(true);
  setTimeout(() => resolve(false), 10000);
  new MutationObserver(() => { if (!receipt.hidden) resolve(true); })
    .observe(receipt, { attributes: true });
})"""


def page_path(survey: Survey) -> str:
    return f"/s/{survey.slug}/"


def submit_path(survey: Survey) -> str:
    return f"/api/v1/public/surveys/{survey.slug}/responses/"


def storage_key(survey: Survey) -> str:
    return f"rr-survey:{survey.slug}"


def radio(scope: Any, label: str) -> Any:
    """The option called ``label``; its name stays the same once chosen."""
    return scope.get_by_role("radio", name=label, exact=True)


def choose(page: Any, question: Question, label: str) -> None:
    """Click the option ``label`` of ``question``: the respondent's true answer."""
    group = page.get_by_role("radiogroup", name=question.text)
    option = radio(group, label)
    option.click()
    expect(option).to_have_attribute("aria-checked", "true")


def answer_everything(page: Any, survey: Survey) -> None:
    """Choose the last option of every question."""
    for question in survey.questions.all():
        choose(page, question, question.options[-1])


def answer_and_send(visit: Any, survey: Survey) -> Any:
    """Open the survey, answer everything, send and wait for the thank-you;
    returns the recorded visit."""
    respondent = visit()
    respondent.goto(page_path(survey))
    answer_everything(respondent.page, survey)
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()
    return respondent


def send_button(page: Any) -> Any:
    return page.get_by_role("button", name="Send my answers")


# Each receipt entry as "question\nsent answer", in the order shown.
RECEIPT_ENTRIES = """(selector) => [...document.querySelectorAll(selector)].map((item) =>
  `${item.querySelector(".receipt-question").textContent}\n` +
  item.querySelector("strong").textContent)"""


def receipt_items(page: Any, section: str = "") -> list[str]:
    """The receipt's entries; ``section`` "randomized" or "plain" for one list."""
    selector = f"#receipt-{section}-list li" if section else "#receipt li"
    return page.evaluate(RECEIPT_ENTRIES, selector)


def expected_receipt(
    answers: list[dict[str, Any]],
    *,
    randomized: bool | None = None,
    language: str = "",
) -> list[str]:
    """What the thank-you must list for these (question, report) answers: the
    randomized ones first, then those asked plainly; or only one kind. In
    ``language``, the researcher's translation (the survey's own by default)."""
    questions = Question.objects.in_bulk([a["question"] for a in answers])
    kinds = [True, False] if randomized is None else [randomized]

    def entry(answer: dict[str, Any]) -> str:
        question = questions[answer["question"]]
        text, options = question_wording(question, language or "")
        return f"{text}\n{options[answer['report']]}"

    return [
        entry(a)
        for kind in kinds
        for a in answers
        if questions[a["question"]].is_sensitive == kind
    ]


def check_post_body(body: Any, survey: Survey) -> None:
    """A submission carries a respondent key and randomized reports, nothing else."""
    assert set(body) == {"respondent_key", "answers"}
    assert RESPONDENT_KEY.match(body["respondent_key"])
    questions = {q.pk: q for q in survey.questions.all()}
    assert [a["question"] for a in body["answers"]] == list(questions)
    for answer in body["answers"]:
        assert set(answer) == {"question", "report", "spec_version"}
        question = questions[answer["question"]]
        assert answer["spec_version"] == question.spec_version
        assert isinstance(answer["report"], int)
        assert 0 <= answer["report"] < len(question.options)


def check_requests(
    visit: Any, survey: Survey, *, languages: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The page's requests carry no answer except in the one POST; returns its
    body. ``languages``: the survey's pages in those languages were opened too."""
    allowed_paths = {page_path(survey), submit_path(survey)} | {
        f"{page_path(survey)}{code}/" for code in languages
    }
    for request in visit.requests:
        parts = re.match(r"^[a-z]+://[^/]+(?P<path>[^?#]*)(?P<rest>.*)$", request.url)
        assert parts is not None, request.url
        # No query string or fragment anywhere: a URL carries no answer.
        assert parts["rest"] == "", request.url
        path = parts["path"]
        assert path in allowed_paths or path.startswith(STATIC_PREFIX), request.url
        # No custom header smuggles anything.
        custom = {h for h in request.headers if h.lower().startswith("x-")}
        assert custom == set(), (request.url, custom)
    (post,) = visit.posts
    assert post.path == submit_path(survey)
    assert post.headers.get("content-type") == "application/json"
    others = [r for r in visit.requests if r is not post]
    assert all(r.method == "GET" and r.post_data is None for r in others), others
    body = post.json()
    check_post_body(body, survey)
    return body


def check_storage(visit: Any, survey: Survey, body: dict[str, Any]) -> None:
    """Cookies and storage hold no true answer: only the reports that were sent."""
    stored = visit.storage()
    assert stored["cookies"] == {}, stored["cookies"]
    assert set(stored["local"]) == {storage_key(survey)}, stored["local"]
    state = json.loads(stored["local"][storage_key(survey)])
    sensitive = {q.pk for q in survey.questions.all() if q.is_sensitive}
    expires = state.pop("expires")
    # Only a panel survey's receipt knows where to continue (its completion URL).
    assert state.pop("next") == (survey.completion_url or None)
    # The receipt keeps the randomized reports only, and not for ever.
    assert state == {
        "key": body["respondent_key"],
        "answers": [a for a in body["answers"] if a["question"] in sensitive],
        "sent": True,
    }
    now_ms = visit.page.evaluate("Date.now()")
    days = (expires - now_ms) / 86_400_000
    assert 29.9 < days <= 30 or survey.closes_at is not None, days
    assert visit.page.evaluate("sessionStorage.length") == 0
    # The page itself forgot the choices once they were randomized.
    assert visit.page.evaluate(CHOSEN) == []
