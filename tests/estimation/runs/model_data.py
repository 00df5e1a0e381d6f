"""A published survey for model fits, and responses whose true Yes follows a
known logistic model, stored through the real submission service."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from estimation import simulate_reports
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question, Survey
from surveys.respond.submissions import response_record

QUESTIONS = [
    {
        "text": "Have you ever driven after drinking?",
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.8},
    },
    {
        "text": "How often have you paid a bribe?",
        "kind": "multiple_choice",
        "options": ["Never", "Once", "Often"],
        "design": {"name": "krr", "k": 3, "epsilon": 1.0},
    },
    {
        "text": "What is your age group?",
        "kind": "direct",
        "options": ["18-29", "30-44", "45-64", "65 or over"],
        "design": {"name": "direct", "k": 4},
    },
    {
        "text": "Do you live in a city?",
        "kind": "direct",
        "options": ["No", "Yes"],
        "design": {"name": "direct", "k": 2},
        "optional": True,
    },
]
# The oldest group is rare, so some of its patterns are small cells.
AGE_SHARES = [0.45, 0.33, 0.18, 0.04]
CITY_MISSING = 0.1
# Intercept, age 30-44, 45-64, 65+, city Yes (reference: 18-29, No).
BETA = np.array([-1.2, 0.5, 0.9, 1.2, -0.6])


@dataclass(frozen=True)
class Stored:
    """What each stored response said: age code, city code (None: missing),
    the outcome's randomized report."""

    age: list[int]
    city: list[int | None]
    outcome: list[int]


def model_survey(owner) -> Survey:
    survey = survey_create(owner=owner, title="Who drives after drinking?")
    for question in QUESTIONS:
        question_create(survey=survey, **question)
    return survey_publish(survey=survey)


def parts(survey: Survey) -> tuple[Question, Question, Question, Question]:
    outcome, multiple, age, city = survey.questions.all()
    return outcome, multiple, age, city


def store(survey: Survey, n: int, seed: int) -> Stored:
    """``n`` responses: age and city drawn, the true answer from the logistic
    model, every sensitive answer randomized as the browser would."""
    rng = np.random.default_rng(seed)
    outcome, multiple, age_q, city_q = parts(survey)
    age = rng.choice(4, size=n, p=AGE_SHARES)
    city = rng.integers(0, 2, n)
    city_missing = rng.random(n) < CITY_MISSING
    eta = BETA[0] + np.r_[0.0, BETA[1:4]][age] + BETA[4] * city
    truth = (rng.random(n) < expit(eta)).astype(int)
    outcome_reports = simulate_reports(outcome.get_design(), truth, rng)
    other_reports = simulate_reports(multiple.get_design(), rng.integers(0, 3, n), rng)
    for i in range(n):
        answers = [
            (outcome, int(outcome_reports[i])),
            (multiple, int(other_reports[i])),
            (age_q, int(age[i])),
            (city_q, None if city_missing[i] else int(city[i])),
        ]
        key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
        response_record(
            survey=survey,
            payload={
                "respondent_key": key,
                "answers": [
                    {"question": q.pk, "report": r, "spec_version": q.spec_version}
                    for q, r in answers
                    if r is not None
                ],
            },
        )
    return Stored(
        age=[int(a) for a in age],
        city=[None if m else int(c) for c, m in zip(city, city_missing, strict=True)],
        outcome=[int(r) for r in outcome_reports],
    )
