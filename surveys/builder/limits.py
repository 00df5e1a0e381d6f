"""The site's privacy limits (settings ``MAX_QUESTION_EPSILON`` and
``MAX_SURVEY_EPSILON``): which questions of a survey break them, in words a
researcher can act on."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.conf import settings

from estimation import Design, survey_epsilon
from estimation.words import format_epsilon


def _quoted(text: str, limit: int = 60) -> str:
    short = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return f"“{short}”"


def limit_problems(questions: Sequence[tuple[str, Design]]) -> list[str]:
    """Why these ``(text, design)`` questions may not be published; empty if
    they may. A design exactly at a limit is within it."""
    per_question = settings.MAX_QUESTION_EPSILON
    per_survey = settings.MAX_SURVEY_EPSILON
    problems = []
    for number, (text, design) in enumerate(questions, start=1):
        if not design.randomized or design.epsilon <= per_question:
            continue
        if math.isinf(design.epsilon):
            problems.append(
                f"Question {number} ({_quoted(text)}) sends some answers only when "
                "they are true, so its epsilon is unbounded; this site allows at "
                f"most {per_question:g} per question. Give every answer a chance "
                "of being a set answer, or choose another design."
            )
        else:
            problems.append(
                f"Question {number} ({_quoted(text)}) has epsilon "
                f"{format_epsilon(design.epsilon)}, above this site's limit of "
                f"{per_question:g} per question. Lower its epsilon before publishing."
            )
    total = survey_epsilon(design for _, design in questions)
    if math.isfinite(total) and total > per_survey:
        problems.append(
            f"The survey's total epsilon is {format_epsilon(total)}, above this "
            f"site's limit of {per_survey:g} per survey (all of one person's "
            "answers together). Lower some questions' epsilons or remove a question."
        )
    return problems
