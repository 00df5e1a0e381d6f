"""The truth behind a simulated survey (the demo), for its results page.

A simulated survey records the true shares of its simulated people
(``Survey.simulation``, written by surveys/builder/demo_answers.py), so the
page can put each estimate next to the truth it estimates.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from estimation.words import percent
from surveys.models import Question, Survey
from surveys.words import active_translator


@dataclass(frozen=True)
class Simulation:
    respondents: int
    seed: int
    # question id -> {"overall": [share per option], "by_group": {label: [...]}}
    truths: dict[int, dict[str, Any]]
    # (question text, "No 79.2%, Yes 20.8%") for the sensitive questions.
    summary: tuple[tuple[str, str], ...]


def simulation_of(survey: Survey, questions: Iterable[Question]) -> Simulation | None:
    """What the page says about a simulated survey; None for a real one."""
    data = survey.simulation
    if not data:
        return None
    truths = {int(pk): value for pk, value in data.get("true_shares", {}).items()}
    summary = tuple(
        (
            q.text,
            ", ".join(
                f"{label} {percent(share, active_translator())}"
                for label, share in zip(
                    q.options, truths[q.pk]["overall"], strict=False
                )
            ),
        )
        for q in questions
        if q.is_sensitive and q.pk in truths
    )
    return Simulation(
        respondents=int(data.get("respondents", 0)),
        seed=int(data.get("seed", 0)),
        truths=truths,
        summary=summary,
    )
