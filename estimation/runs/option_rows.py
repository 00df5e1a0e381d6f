"""The run role that most kinds share: one estimate over the question's
options (yes/no, multiple choice, counts, plain questions), overall and, for a
sensitive question, in every subgroup, saved as one row per option.

A kind's ``run`` module (``surveys/kinds/<kind>/run.py``) provides
``question_rows(question, *, overall, subgroups, run)`` (the rows to save, each
a dict of a saved estimate's fields with ``result`` and ``reported``) and
``save_row(run, row)`` (saves one and returns its unsaved option rows) and,
for a kind whose cells a crossed breakdown may show, ``unsaved_row(run, row)``
(the same rows, none saved); these
are the ones a kind takes when its estimate is one matrix over its options.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from estimation.inference.validation import split_counts
from estimation.results import estimate_question
from estimation.runs.models import EstimateRun, OptionEstimate, QuestionEstimate
from surveys.models import Question

# Each subgroup (direct question, its level) with its report counts.
Subgroups = Sequence[tuple[Question, int, dict[int, int]]]


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Subgroups,
    run: EstimateRun,
    count: bool = False,
) -> list[dict[str, Any]]:
    """The question's overall row, then its subgroups' rows if it is
    sensitive; ``count`` estimates a mean and a distribution too."""
    design = question.get_design()
    # n per question: those who answered it (missing answers have no row).
    # Codes 0..k-1 only: a validation arm's direct answers (codes k..2k-1)
    # never enter the randomized estimate; they are saved beside it.
    by_code = overall
    vector = _vector(by_code, design.k)
    row = _row(question, None, None, vector, design, run, count=count)
    if question.has_direct_arm:
        row["direct_reported"] = list(split_counts(by_code, design.k)[1])
    rows = [row]
    if question.is_sensitive:
        for group, option, by_report in subgroups:
            rows.append(
                _row(
                    question,
                    group,
                    option,
                    _vector(by_report, design.k),
                    design,
                    run,
                    count=count,
                )
            )
    return rows


def _vector(by_report: dict[int, int], k: int) -> list[int]:
    return [by_report.get(r, 0) for r in range(k)]


def _row(
    question: Question,
    group: Question | None,
    option: int | None,
    vector: list[int],
    design: Any,
    run: EstimateRun,
    *,
    count: bool,
) -> dict[str, Any]:
    base = {
        "question": question,
        "group_question": group,
        "group_option": option,
        "n": sum(vector),
        "epsilon": design.epsilon if math.isfinite(design.epsilon) else None,
        "reported": vector,
    }
    if sum(vector) == 0:
        return {**base, "result": None}
    result = estimate_question(
        vector,
        design,
        level=run.level,
        ci_method=run.ci_method,
        labels=question.options,
        count=count,
    )
    return {**base, "result": result}


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    """Save ``row`` (its estimate, or none without answers); its options' rows
    are returned for one bulk insert."""
    saved, options = unsaved_row(run, row)
    saved.save()
    for option in options:
        option.question_estimate = saved
    return options


def unsaved_row(
    run: EstimateRun, row: dict[str, Any]
) -> tuple[QuestionEstimate, list[OptionEstimate]]:
    """``row`` as the rows :func:`save_row` saves, left unsaved: a crossed
    breakdown (estimation/runs/crossed.py) reads them as saved ones."""
    result, reported = row["result"], row["reported"]
    fields = {k: v for k, v in row.items() if k not in ("result", "reported")}
    saved = QuestionEstimate(
        run=run,
        warnings=[w.to_dict() for w in result.warnings] if result else [],
        solver=result.solver.to_dict() if result else {},
        mean=result.mean.to_dict() if result and result.mean else None,
        distribution=result.distribution.to_dict()
        if result and result.distribution
        else None,
        **fields,
    )
    if result is None:
        return saved, []
    return saved, [
        OptionEstimate(
            question_estimate=saved,
            option=r,
            reported=reported[r],
            estimate=float(result.estimate[r]),
            unbiased=float(result.unbiased[r]),
            std_error=float(result.std_error[r]),
            ci_lower=float(result.ci_lower[r]),
            ci_upper=float(result.ci_upper[r]),
        )
        for r in range(len(reported))
    ]
