"""Responses for job and dashboard tests, stored through the real service."""

from __future__ import annotations

from typing import Any

import numpy as np

from surveys.models import Survey
from surveys.respond.submissions import response_record


def submit(survey: Survey, rng: np.random.Generator, count: int) -> None:
    """Store ``count`` responses with uniformly random reports."""
    questions = list(survey.questions.all())
    for _ in range(count):
        answers: list[dict[str, Any]] = [
            {
                "question": q.pk,
                "report": int(rng.integers(0, q.report_count)),
                "spec_version": q.spec_version,
            }
            for q in questions
        ]
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        response_record(
            survey=survey, payload={"respondent_key": key, "answers": answers}
        )
