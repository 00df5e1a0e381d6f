"""Simulated people for the demo survey, so its first results page shows what
the platform is for: estimates, intervals and a breakdown, next to the truth.

Each simulated person has known true answers, and each answer goes through the
browser's own randomizer (:func:`estimation.simulate.randomize`, the twin of
``static/js/rr.js``) with the question's frozen spec and a fixed seed, then
through the store every real submission uses. Only the randomized reports are
stored, as for a real respondent; the true shares are kept on the survey
(``Survey.simulation``) so the results page can show them.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np
from django.utils import timezone

from estimation.runs.services import estimate_run_now
from estimation.simulate import randomize
from surveys.models import Question, Survey
from surveys.respond.response_store import NewResponse, response_store
from surveys.respond.submissions import response_stratum

DEMO_RESPONDENTS = 600
DEMO_SEED = 20261125
# Shares of the simulated people in each age group (the demo's direct
# question, at AGE_POSITION), and within each group the true shares of each
# sensitive question's options, by the question's position in DEMO_QUESTIONS.
# The truth differs by age, so the breakdown has something to find.
AGE_POSITION = 3
AGE_SHARES = (0.30, 0.30, 0.25, 0.15)
TRUE_SHARES_BY_AGE: dict[int, tuple[tuple[float, ...], ...]] = {
    0: ((0.65, 0.35), (0.78, 0.22), (0.88, 0.12), (0.95, 0.05)),
    1: ((0.55, 0.45), (0.65, 0.35), (0.75, 0.25), (0.80, 0.20)),
    2: (
        (0.45, 0.25, 0.18, 0.12),
        (0.50, 0.22, 0.18, 0.10),
        (0.60, 0.18, 0.14, 0.08),
        (0.75, 0.12, 0.08, 0.05),
    ),
}


def allocate(n: int, shares: Sequence[float]) -> list[int]:
    """Whole counts summing to ``n`` in the given shares (largest remainders)."""
    exact = [n * share for share in shares]
    counts = [int(value) for value in exact]
    by_remainder = sorted(
        range(len(shares)), key=lambda i: counts[i] - exact[i]
    )  # largest remainder first
    for index in by_remainder[: n - sum(counts)]:
        counts[index] += 1
    return counts


def simulated_truths(n: int, rng: np.random.Generator) -> list[list[int]]:
    """Each person's true answers, one per demo question, in question order.

    Counts are allocated exactly (no sampling noise in who is what), so the
    stated true shares are the shares among these very people; only the
    randomization is random, as it is for real respondents' reports.
    """
    people: list[list[int]] = []
    for group, size in enumerate(allocate(n, AGE_SHARES)):
        columns = {AGE_POSITION: [group] * size}
        for position, by_age in TRUE_SHARES_BY_AGE.items():
            counts = allocate(size, by_age[group])
            truths = [option for option, c in enumerate(counts) for _ in range(c)]
            columns[position] = list(rng.permutation(truths))
        people.extend(
            [int(columns[p][i]) for p in sorted(columns)] for i in range(size)
        )
    order = rng.permutation(len(people))
    return [people[i] for i in order]


def true_shares(
    questions: Sequence[Question], people: Sequence[Sequence[int]]
) -> dict[str, Any]:
    """The true share of every option, overall and per age group, by question id."""
    truths = np.asarray(people)
    ages = truths[:, AGE_POSITION]
    groups = questions[AGE_POSITION].options
    shares: dict[str, Any] = {}
    for position, question in enumerate(questions):
        k = len(question.options)
        column = truths[:, position]
        shares[str(question.pk)] = {
            "overall": _shares(column, k),
            "by_group": {
                label: _shares(column[ages == g], k) for g, label in enumerate(groups)
            },
        }
    return shares


def _shares(column: np.ndarray, k: int) -> list[float]:
    counts = np.bincount(column, minlength=k)
    return [round(float(c) / max(len(column), 1), 6) for c in counts]


def _fits(questions: Sequence[Question]) -> bool:
    """The survey still has the demo's shape (the simulation assumes it)."""
    return (
        len(questions) == AGE_POSITION + 1
        and not questions[AGE_POSITION].is_sensitive
        and all(q.spec for q in questions)
        and all(
            len(q.options) == len(TRUE_SHARES_BY_AGE[p][0])
            for p, q in enumerate(questions)
            if p in TRUE_SHARES_BY_AGE
        )
    )


def demo_simulate(
    *, survey: Survey, respondents: int = DEMO_RESPONDENTS, seed: int = DEMO_SEED
) -> int:
    """Store ``respondents`` simulated responses once, then estimate them.

    Returns how many were stored now: none if the survey was simulated
    before, has real responses (never mixed with simulated ones), or does not
    accept responses.
    """
    now = timezone.now()
    questions = sorted(survey.questions.all(), key=lambda q: (q.position, q.pk))
    if (
        respondents <= 0
        or survey.simulation is not None
        or survey.responses.exists()
        or not survey.accepts_responses_at(now)
        or not _fits(questions)
    ):
        return 0
    rng = np.random.default_rng(seed)
    people = simulated_truths(respondents, rng)
    stored = sum(_store(survey, questions, truths, rng, now) for truths in people)
    survey.simulation = {
        "respondents": stored,
        "seed": seed,
        "true_shares": true_shares(questions, people),
    }
    survey.save(update_fields=["simulation"])
    estimate_run_now(survey=survey)
    return stored


def _store(
    survey: Survey,
    questions: Sequence[Question],
    truths: Sequence[int],
    rng: np.random.Generator,
    now: Any,
) -> int:
    """One simulated person's reports, stored as a real submission is."""
    answers = [
        (q, _report(q, truth, rng)) for q, truth in zip(questions, truths, strict=True)
    ]
    assert survey.published_at is not None  # an open survey was published
    result = response_store(
        NewResponse(
            survey_id=survey.pk,
            published_at=survey.published_at,
            respondent_key=secrets.token_hex(16),
            received_on=timezone.localdate(now, timezone.get_default_timezone()),
            stratum=response_stratum(answers),
            answers=[(q.pk, report, q.spec_version) for q, report in answers],
        ),
        now=now,
    )
    return int(result.response_id is not None)


def _report(question: Question, truth: int, rng: np.random.Generator) -> int:
    """What the browser would send for ``truth``: a direct answer as given."""
    if not question.is_sensitive:
        return truth
    spec = question.spec or {}
    return randomize(truth, spec, int(rng.integers(0, spec["denominator"])))
