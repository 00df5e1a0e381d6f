"""The results among those who passed the comprehension check: for each
sensitive question, its subgroup in the breakdown by the check question whose
answer is the passing one (breakdowns.py). Nothing is estimated here: the
reading is the saved subgroup rows the breakdowns already show, picked out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from estimation.runs.dashboard import Dashboard
from surveys.models import Question, Survey


@dataclass(frozen=True)
class PassedRow:
    """One sensitive question among those who passed; ``group`` is None when
    the group is hidden (fewer than the smallest size a page may show) or has
    no estimate."""

    question: Question
    group: Any


@dataclass(frozen=True)
class PassedReading:
    check: Question
    passing: str
    rows: tuple[PassedRow, ...]


def sound_check(survey: Survey) -> tuple[Question, int] | None:
    """The survey's comprehension check and its passing option code, or None
    when it has none or the check no longer fits (a changed question)."""
    check: Any = survey.comprehension_check
    code = survey.comprehension_pass
    if check is None or code is None or check.is_sensitive:
        return None
    if not 0 <= code < len(check.options):
        return None
    return check, code


def passed_reading(survey: Survey, dashboard: Dashboard) -> PassedReading | None:
    """Each sensitive question among those who gave the passing answer."""
    found = sound_check(survey)
    if found is None:
        return None
    check, code = found
    rows = []
    for result in dashboard.results:
        if result.estimate is None:
            continue
        by_check = [b for b in result.breakdowns if b.by.pk == check.pk]
        group = next(
            (g for b in by_check for g in b.shown if g.code == code),
            None,
        )
        rows.append(PassedRow(question=result.question, group=group))
    return PassedReading(
        check=check, passing=str(check.options[code]), rows=tuple(rows)
    )
