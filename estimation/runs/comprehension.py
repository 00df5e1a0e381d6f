"""The results among those who passed the comprehension check: for each
sensitive question, its subgroup in the breakdown by the check question whose
answer is the passing one (breakdowns.py), options or, for a kind estimated
by parameters, its own view of the group (``Subgroup.compliance``). Nothing is estimated here: the
reading is the saved subgroup rows the breakdowns already show, picked out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from estimation.contract import Caution
from estimation.runs.dashboard import Dashboard
from estimation.runs.readings import group_cautions
from surveys.models import Question, Survey


@dataclass(frozen=True)
class PassedRow:
    """One sensitive question among those who passed; ``group`` is None when
    the group is hidden or has no estimate. ``hidden`` is the breakdown's
    smallest size a page may show when the passers' group is below it (hidden
    as every small group is), else None."""

    question: Question
    group: Any
    hidden: int | None = None


@dataclass(frozen=True)
class PassedReading:
    check: Question
    passing: str
    rows: tuple[PassedRow, ...]

    @property
    def cautions(self) -> tuple[Caution, ...]:
        """One caution per cause for the rows shown, naming their questions,
        as a breakdown's cautions name its groups."""
        return group_cautions(
            [(r.question.text, r.group.flags) for r in self.rows if r.group]
        )


def sound_check(survey: Survey) -> tuple[Question, int] | None:
    """The survey's comprehension check and its passing option code, or None
    when it has none or the check no longer fits (a changed question)."""
    check: Any = survey.comprehension_check
    code = survey.comprehension_pass
    if check is None or code is None or not check.in_strata:
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
        # A kind estimated by its own parameters (a device instruction's) has
        # its own view instead of options, and its groups carry one too.
        if result.estimate is None and result.compliance is None:
            continue
        by_check = [b for b in result.breakdowns if b.by.pk == check.pk]
        group = next(
            (g for b in by_check for g in b.shown if g.code == code),
            None,
        )
        hidden = None
        if group is None and by_check and by_check[0].hidden:
            hidden = by_check[0].min_size
        rows.append(PassedRow(question=result.question, group=group, hidden=hidden))
    return PassedReading(
        check=check, passing=str(check.options[code]), rows=tuple(rows)
    )
