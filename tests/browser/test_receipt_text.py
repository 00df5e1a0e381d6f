"""In the browser: the receipt names each question by its text as the page
shows it, a text written on several lines included."""

from __future__ import annotations

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from tests.browser.helpers import answer_and_send, receipt_items


def test_a_question_on_several_lines_is_named_in_one_line(owner, visit):
    survey = survey_create(owner=owner, title="Two lines", introduction="")
    question_create(
        survey=survey,
        text="In the past year,\nhave you driven after drinking?",
        kind="yes_no",
        design={"name": "warner", "p": 0.75},
    )
    survey = survey_publish(survey=survey)
    respondent = answer_and_send(visit, survey)
    (entry,) = receipt_items(respondent.page)
    assert entry.startswith("In the past year, have you driven after drinking?\n")
