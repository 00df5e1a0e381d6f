"""A published survey with optional questions, and simulated responses that
leave some of them missing, for the respond and results tests."""

from __future__ import annotations

import numpy as np

from estimation import simulate_reports
from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.respond.submissions import response_record
from tests.surveys.results.export_data import SHARES

# The demo's questions; the Warner question (offers "Prefer not to answer") and
# the age group (may be left out) are optional.
OPTIONAL_AT = (0, 3)
# Chance of a missing answer per question, given the true answer: refusing the
# Warner question is more likely among those whose answer is Yes.
MISSING_GIVEN_TRUTH = ([0.05, 0.30], None, None, [0.1, 0.1, 0.1, 0.1])


def optional_survey(owner, *, consent: str = "") -> Survey:
    survey = survey_create(
        owner=owner, title="With optional questions", consent=consent
    )
    for index, question in enumerate(DEMO_QUESTIONS):
        question_create(survey=survey, optional=index in OPTIONAL_AT, **question)
    return survey_publish(survey=survey)


def store_with_missing(
    survey: Survey, n: int, seed: int = 16
) -> list[list[int | None]]:
    """Store ``n`` responses randomized as the browser would, some optional
    answers missing (sent as ``"report": null`` or left out, alternately).
    Returns each response's reports, ``None`` where missing."""
    rng = np.random.default_rng(seed)
    questions = list(survey.questions.all())
    columns = []
    for question, shares, missing in zip(
        questions, SHARES, MISSING_GIVEN_TRUTH, strict=True
    ):
        truths = rng.choice(len(shares), size=n, p=shares)
        reports = simulate_reports(question.get_design(), truths, rng)
        skipped = (
            rng.random(n) < np.asarray(missing)[truths]
            if missing
            else np.zeros(n, bool)
        )
        columns.append(
            [None if s else int(r) for r, s in zip(reports, skipped, strict=True)]
        )
    rows = [list(row) for row in zip(*columns, strict=True)]
    for i, row in enumerate(rows):
        answers = [
            {"question": q.pk, "report": r, "spec_version": q.spec_version}
            for q, r in zip(questions, row, strict=True)
            if r is not None or i % 2 == 0  # odd rows leave missing ones out
        ]
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
    return rows
