"""Two direct questions crossed, in the estimates export (JSON, the API) and
as a CSV of its own: the cells the results page shows, read from the same
unsaved rows (estimation/runs/crossed.py) and written by the same functions
as the one-way subgroups (estimate_exports.py), so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.conf import settings

from estimation.runs.crossed import (
    COMPLEMENTARY,
    SMALL,
    Crossing,
    crossing_pair,
    survey_crossing,
)
from estimation.runs.selectors import latest_runs
from surveys.models import Question, Survey
from surveys.results.cells import csv_line

CROSSED_RULE = (
    "cells with fewer than {n} responses are withheld (withheld: 'small'), as "
    "one-way subgroups are; while a row or column of the crossed table has "
    "exactly one withheld cell, the smallest cell shown beside it is withheld "
    "too (withheld: 'complementary'), so that no withheld cell is the margin "
    "minus the cells shown. A withheld cell has no n and no estimate. Cells "
    "are estimated from the counts the run read, with its method and level "
    "(docs/methodology.md, 'Two questions crossed')"
)
WITHHELD_REASONS = {
    SMALL: "fewer than {n} responses",
    COMPLEMENTARY: "it could be worked out from the cells beside it and the totals",
}
# The crossed CSV: estimates.csv's columns with the second question's after
# the first's, and why a cell is withheld.
SECOND_GROUP = (
    "group2_column",
    "group2_question_id",
    "group2_question_text",
    "group2_option_code",
    "group2_option_label",
)


def requested_crossing(survey: Survey, query: Mapping[str, Any]) -> Crossing:
    """The crossing an export's address asks for (``cross_rows`` and
    ``cross_columns``); raises ``CrossingError`` naming a wrong parameter."""
    pair = crossing_pair(survey, query)
    _, finished = latest_runs(survey)
    return survey_crossing(
        survey, finished, pair, min_size=settings.DASHBOARD_MIN_GROUP_SIZE
    )


def _by(column: str, question: Question) -> dict[str, Any]:
    return {"column": column, "question_id": question.pk, "text": question.text}


def crossing_head(
    crossing: Crossing, columns: Mapping[int, str]
) -> dict[str, Any] | None:
    """What the export says of the two questions crossed; None when none."""
    if crossing.rows_by is None or crossing.columns_by is None:
        return None
    min_size = settings.DASHBOARD_MIN_GROUP_SIZE
    return {
        "rows": _by(columns[crossing.rows_by.pk], crossing.rows_by),
        "columns": _by(columns[crossing.columns_by.pk], crossing.columns_by),
        "rule": CROSSED_RULE.format(n=min_size),
        "unavailable": crossing.unavailable or None,
    }


def question_crossed(
    crossing: Crossing, question: Question, estimate: Any
) -> dict[str, Any] | None:
    """One question's cells for the export (``estimate`` writes a row as
    the one-way subgroups are written); None when none are shown."""
    table = crossing.by_question.get(question.pk)
    if table is None:
        return None
    min_size = table.min_size
    cells = []
    for cell in table.cells:
        head = {
            "row_code": cell.row,
            "row_label": cell.row_label,
            "column_code": cell.column,
            "column_label": cell.column_label,
            "withheld": cell.withheld or None,
            "withheld_reason": WITHHELD_REASONS[cell.withheld].format(n=min_size)
            if cell.withheld
            else None,
        }
        if cell.withheld:
            cells.append({**head, "n": None, "options": []})
        elif cell.saved is None:  # no responses in this cell
            cells.append({**head, "n": 0, "options": []})
        else:
            cells.append({**head, **estimate(cell.saved, question)})
    return {"cells": cells, "withheld": table.withheld}


def crossed_csv(
    data: dict[str, Any], header: tuple[str, ...], lines: Any
) -> Iterator[str]:
    """The crossed cells of ``data`` (the estimates export with a crossing),
    one row per option per cell, as estimates.csv writes a subgroup's rows
    (``lines``), with the second question's columns and why a cell is
    withheld at the end; a withheld cell is one row without numbers."""
    yield csv_line([*header, *SECOND_GROUP, "withheld"])
    crossed, run = data.get("crossed"), data["run"]
    if run is None or crossed is None:
        return
    rows_by, columns_by = crossed["rows"], crossed["columns"]
    for question in data["questions"]:
        table = question.get("crossed")
        if table is None:
            continue
        lead = [question["column"], question["question_id"], question["text"]]
        for cell in table["cells"]:
            first = {
                "group_column": rows_by["column"],
                "group_question_id": rows_by["question_id"],
                "group_question_text": rows_by["text"],
                "group_option_code": cell["row_code"],
                "group_option_label": cell["row_label"],
            }
            second = [
                columns_by["column"],
                columns_by["question_id"],
                columns_by["text"],
                cell["column_code"],
                cell["column_label"],
            ]
            if cell["withheld"] or not cell["options"]:
                empty = [cell["n"], *[None] * (len(header) - 10)]
                yield csv_line(
                    [
                        *lead,
                        *first.values(),
                        *empty,
                        question["shown_to"],
                        *second,
                        cell["withheld"] or "",
                    ]
                )
                continue
            for line in lines(lead, first, cell, run):
                yield (
                    line.removesuffix("\n")
                    + ","
                    + csv_line([question["shown_to"], *second, ""])
                )
