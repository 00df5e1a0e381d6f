"""Fit the regression of one randomized yes/no question on direct questions,
from a survey's exported answers and codebook.

Each response contributes its outcome report and its covariate answers; the
responses are tallied into reported No/Yes counts per covariate pattern and
fitted with :func:`~estimation.inference.regression.fit_logistic`, the function the
platform calls, so the same counts give the same numbers. A response with a
missing outcome or covariate is left out (complete cases), and the output says
how many were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from estimation.designs import Design
from estimation.inference.covariates import Covariate
from estimation.inference.exported import Column, UsageError, code_of, read_codebook
from estimation.inference.regression import Factor, LogisticFit, Numeric, fit_logistic


def _column(columns: Mapping[str, Column], name: str, role: str) -> Column:
    if name not in columns:
        raise UsageError(
            f"{role} {name!r} is not a column of the codebook "
            f"(it has {', '.join(columns)})"
        )
    return columns[name]


def _outcome(columns: Mapping[str, Column], name: str) -> Column:
    column = _column(columns, name, "the outcome")
    if column.unary:
        raise UsageError(
            f"the outcome {name} is a check-all-that-apply question; the "
            "regression needs a randomized yes/no question"
        )
    if column.design.k != 2 or not column.design.randomized:
        kind = (
            "asked directly"
            if not column.design.randomized
            else f"a question with {column.design.k} options"
        )
        raise UsageError(
            f"the outcome {name} is {kind}; the regression needs a randomized "
            "yes/no question"
        )
    return column


def _covariates(
    columns: Mapping[str, Column], names: Sequence[str], outcome: str
) -> list[Column]:
    if len(set(names)) != len(names):
        raise UsageError("a covariate is named twice")
    chosen = []
    for name in names:
        column = _column(columns, name, "the covariate")
        if name == outcome:
            raise UsageError(f"{name} is the outcome; it cannot be a covariate too")
        if column.design.randomized:
            raise UsageError(
                f"the covariate {name} is randomized ({column.design.name}); "
                "covariates must be questions asked directly"
            )
        chosen.append(column)
    return chosen


def parse_references(
    texts: Sequence[str], covariates: Sequence[Column]
) -> dict[str, int]:
    """``name=label`` pairs into the reference level's code per covariate."""
    by_name = {c.name: c for c in covariates}
    references: dict[str, int] = {}
    for text in texts:
        name, equals, label = text.partition("=")
        if not equals:
            raise UsageError(f"--reference takes COVARIATE=LEVEL, got {text!r}")
        if name not in by_name:
            raise UsageError(
                f"--reference {text!r}: {name} is not one of the covariates"
            )
        if by_name[name].count:
            raise UsageError(
                f"--reference {text!r}: {name} is a count, a numeric covariate "
                "with no reference level"
            )
        labels = by_name[name].labels
        if label not in labels:
            raise UsageError(
                f"--reference {text!r}: {name} has no level {label!r} "
                f"(its levels: {', '.join(labels)})"
            )
        references[name] = labels.index(label)
    return references


def tally_patterns(
    outcome: Column,
    covariates: Sequence[Column],
    rows: Iterable[tuple[str, Mapping[str, Any]]],
) -> tuple[dict[tuple[int, ...], list[int]], int, int]:
    """Reported No/Yes counts per covariate pattern; responses read; dropped."""
    counts: dict[tuple[int, ...], list[int]] = {}
    read = dropped = 0
    needed = [outcome, *covariates]
    for where, row in rows:
        if read == 0:
            missing = [c.name for c in needed if c.name not in row]
            if missing:
                raise UsageError(
                    f"{where}: no column {', '.join(missing)}, which the codebook lists"
                )
        read += 1
        report = code_of(row.get(outcome.name), outcome, where)
        pattern = tuple(code_of(row.get(c.name), c, where) for c in covariates)
        if report is None or any(code is None for code in pattern):
            dropped += 1
            continue
        key = tuple(int(code) for code in pattern if code is not None)
        counts.setdefault(key, [0, 0])[report] += 1
    return counts, read, dropped


def _covariate(column: Column, reference: Mapping[str, int]) -> Covariate:
    """A count asked directly is numeric (its value, one coefficient per unit);
    any other direct question is categorical."""
    if column.count:
        return Numeric(column.name, 0, column.design.k - 1)
    return Factor(column.name, column.labels, reference=reference.get(column.name, 0))


def regress_exported(
    codebook: Any,
    rows: Iterable[tuple[str, Mapping[str, Any]]],
    *,
    outcome: str,
    covariates: Sequence[str],
    references: Sequence[str] = (),
    level: float,
) -> tuple[dict[str, Any], LogisticFit]:
    """The fit and a plain description of what was fitted, for the command line."""
    columns = {c.name: c for c in read_codebook(codebook)}
    target = _outcome(columns, outcome)
    chosen = _covariates(columns, covariates, outcome)
    reference = parse_references(references, chosen)
    factors = [_covariate(c, reference) for c in chosen]
    counts, read, dropped = tally_patterns(target, chosen, rows)
    if not counts:
        raise UsageError(
            f"no response answers {outcome} and every covariate: nothing to fit"
        )
    keys = sorted(counts)
    patterns = np.array(keys, dtype=np.int64).reshape(len(keys), len(chosen))
    reports = np.array([counts[k] for k in keys], dtype=np.int64)
    design = target.design
    if not isinstance(design, Design):  # _outcome refused check all that apply
        raise UsageError(f"the outcome {outcome} is not a yes/no design")
    fit = fit_logistic(
        design=design,
        factors=factors,
        patterns=patterns,
        reports=reports,
        level=level,
    )
    survey = codebook.get("survey") if isinstance(codebook, dict) else None
    output = {
        "survey": survey,
        "outcome": {"column": target.name, "text": target.text},
        "covariates": [{"column": c.name, "text": c.text} for c in chosen],
        "responses": read,
        "used": read - dropped,
        "dropped": dropped,
        "dropped_reason": "a missing answer to the outcome or a covariate",
        "fit": fit.to_dict(),
    }
    return output, fit
