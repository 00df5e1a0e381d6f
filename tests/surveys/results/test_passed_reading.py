"""The results among those who passed the comprehension check, on the results
page of a finished run: the same numbers as the estimator gives on the
passers' own counts, with the cautions and the small-group rule of every other
subgroup, and the check question's text escaped."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import numpy as np
import pytest
from django.urls import reverse

from estimation import estimate_question
from estimation.contract import percent_text
from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute
from surveys.builder.services import survey_publish
from surveys.models import Answer, Question, Survey
from surveys.respond.submissions import response_record

pytestmark = pytest.mark.django_db

PASSING = 1  # "30-44"


def questions(survey: Survey) -> tuple[list[Question], Question]:
    every = list(survey.questions.all())
    return [q for q in every if q.is_sensitive], next(
        q for q in every if not q.is_sensitive
    )


def with_check(draft: Survey) -> Survey:
    _, age = questions(draft)
    draft.comprehension_check, draft.comprehension_pass = age, PASSING
    draft.save()
    return survey_publish(survey=draft)


def answer(survey: Survey, rng: np.random.Generator, count: int, passer=None) -> None:
    """``count`` responses with uniform reports; ``passer`` may fix the
    reports of those who gave the passing answer (question -> report)."""
    sensitive, age = questions(survey)
    for _ in range(count):
        group = int(rng.integers(0, len(age.options)))
        reports: dict[Question, Any] = {age: group}
        for q in sensitive:
            fixed = (passer or {}).get(q.pk) if group == PASSING else None
            reports[q] = (
                fixed if fixed is not None else int(rng.integers(0, len(q.options)))
            )
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        response_record(
            survey=survey,
            payload={
                "respondent_key": key,
                "answers": [
                    {"question": q.pk, "report": r, "spec_version": q.spec_version}
                    for q, r in reports.items()
                ],
            },
        )


def estimate(survey: Survey) -> EstimateRun:
    run = EstimateRun.objects.filter(survey=survey).first()
    return estimate_run_execute(run_id=run.pk)


def section(survey: Survey, client) -> str:
    page = client.get(reverse("surveys:results", args=[survey.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="passed-reading"' in html
    return html.split('id="passed-reading"')[1].split("</section>")[0]


def passers_counts(survey: Survey, question: Question) -> list[int]:
    _, age = questions(survey)
    passed = set(
        Answer.objects.filter(question=age, report=PASSING).values_list(
            "response_id", flat=True
        )
    )
    reports = Counter(
        report
        for response, report in Answer.objects.filter(question=question).values_list(
            "response_id", "report"
        )
        if response in passed
    )
    return [reports.get(code, 0) for code in range(len(question.options))]


@pytest.fixture
def answered(draft_survey):
    survey = with_check(draft_survey)
    answer(survey, np.random.default_rng(30), 240)
    estimate(survey)
    return survey


def test_the_passers_estimates_are_the_estimator_on_their_counts(
    as_owner, answered, settings
):
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["OPTIONS"]["string_if_invalid"] = "INVALID{%s}"
    settings.TEMPLATES = templates
    run = EstimateRun.objects.get(survey=answered)
    block = section(answered, as_owner)
    assert "INVALID" not in block
    assert "Among those who passed the comprehension check" in block
    assert "“30-44”" in block
    sensitive, _ = questions(answered)
    for question in sensitive:
        counts = passers_counts(answered, question)
        expected = estimate_question(
            counts, question.get_design(), level=run.level, ci_method=run.ci_method
        )
        row = block.split(f'id="passed-{question.pk}"')[1].split("</tr>")[0]
        assert f'class="num">{sum(counts)}</td>' in row
        for label, share in zip(question.options, expected.estimate, strict=True):
            assert f"{label}: {percent_text(share)}" in row


def test_the_check_question_is_escaped(as_owner, answered):
    _, age = questions(answered)
    Question.objects.filter(pk=age.pk).update(text='<b>Age</b> & "group"')
    block = section(answered, as_owner)
    assert "<b>Age</b>" not in block
    assert "&lt;b&gt;Age&lt;/b&gt; &amp; &quot;group&quot;" in block


def test_a_hidden_group_says_why_as_the_breakdowns_do(as_owner, answered, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1000
    block = section(answered, as_owner)
    assert "fewer than 1000 responses" in block
    assert 'class="num">–</td>' in block


def test_a_flagged_group_carries_its_caution(as_owner, draft_survey):
    survey = with_check(draft_survey)
    sensitive, _ = questions(survey)
    warner = sensitive[0]
    # Every passer reports Yes under Warner's design (p = 0.75): their
    # unbiased share is 1.5, beyond what the design can give.
    answer(survey, np.random.default_rng(31), 240, passer={warner.pk: 1})
    estimate(survey)
    page = as_owner.get(reverse("surveys:results", args=[survey.pk])).content.decode()
    block = section(survey, as_owner)
    row = block.split(f'id="passed-{warner.pk}"')[1].split("</tr>")[0]
    assert "(caution)" in row
    # The same caution as the group's row in the breakdown by the check.
    breakdown = page.split(f'id="result-{warner.pk}"')[1].split("</article>")[0]
    caution = breakdown.split('class="warnings group-cautions"')[1].split("</ul>")[0]
    assert "Caution:" in block
    title = caution.split("<strong>Caution:</strong> ")[1].split(":")[0]
    assert title in block
    assert warner.text in block.split('class="warnings group-cautions"')[1]
