"""Exports of a survey: its randomized answers, codebook and estimates.

The answers are one row per response, one column per question holding the
reported option's code (check all that apply: one 0/1 column per item, see
:func:`~surveys.results.codebook.export_columns`); never the respondent key. They are streamed: on
PostgreSQL the server pivots the answers and writes the rows itself
(``COPY ... TO STDOUT``), which we pass on block by block, so memory stays flat
and the export runs near the speed of a bare COPY. Elsewhere (SQLite on a
laptop) a server-side cursor over the answers is grouped in Python. Both read
from ``settings.EXPORTS_DATABASE``: the read replica when one is configured.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import groupby
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from surveys.models import Question, Response, Survey
from surveys.results.cells import FORMULA_STARTS, csv_line
from surveys.results.codebook import (
    TYPED_TEXT,
    TYPED_VALUE,
    ExportItem,
    Split,
    answer_columns,
    codebook,
    export_columns,
)
from surveys.results.estimate_exports import estimates_csv, estimates_export

__all__ = [
    "answer_columns",
    "answers_csv",
    "answers_jsonl",
    "codebook",
    "estimates_csv",
    "estimates_export",
]

# Bytes handed to the web server at a time: large enough that per-chunk costs
# vanish, small enough that memory does not notice.
CHUNK_BYTES = 1 << 16
# Rows fetched per round trip on the portable path.
FETCH_ROWS = 2000


def _reader() -> BaseDatabaseWrapper:
    return connections[settings.EXPORTS_DATABASE]


# An export column: its name, its question's index, and for check all that
# apply the item whose bit it holds (None: the report's code itself).
Cell = tuple[str, int, ExportItem]


def _cells(survey: Survey) -> tuple[list[Question], list[Cell]]:
    """The questions in order and the export's columns over them."""
    questions = [q for _, q in answer_columns(survey)]
    index = {q.pk: i for i, q in enumerate(questions)}
    return questions, [(n, index[q.pk], item) for n, q, item in export_columns(survey)]


def _header(cells: Sequence[Cell]) -> list[str]:
    return ["response", "received_on", *(name for name, _, _ in cells)]


def answers_csv(survey: Survey, *, guard: bool = True) -> Iterator[bytes]:
    """The answers as CSV (UTF-8, ``\\n`` line ends), header first; words
    typed that a spreadsheet would run get a leading apostrophe unless
    ``guard`` is False (for the SPSS and Stata files, made from this CSV)."""
    questions, cells = _cells(survey)
    yield csv_line(_header(cells)).encode()
    reader = _reader()
    if reader.vendor == "postgresql":
        fmt = "csv" if guard else "raw csv"
        yield from _copy_chunks(reader, _pivot_sql(survey, questions, cells, fmt))
        return
    rows = _portable_rows(reader, survey, questions, cells)
    yield from _batched_lines(
        rows, _csv_row if guard else lambda row: csv_line(row, guard=False)[:-1]
    )


def answers_jsonl(survey: Survey) -> Iterator[bytes]:
    """The answers as JSON lines: one object per response, keys as the CSV header."""
    questions, cells = _cells(survey)
    reader = _reader()
    if reader.vendor == "postgresql":
        yield from _copy_chunks(reader, _pivot_sql(survey, questions, cells, "jsonl"))
        return
    names = _header(cells)

    def line(row: Sequence[Any]) -> str:
        return json.dumps(dict(zip(names, row, strict=True)), separators=(",", ":"))

    yield from _batched_lines(_portable_rows(reader, survey, questions, cells), line)


# -- PostgreSQL: the server pivots and formats ---------------------------------


def _pivot_sql(
    survey: Survey, questions: Sequence[Question], cells: Sequence[Cell], fmt: str
) -> str:
    """``COPY`` of the answers pivoted to one row per response, in id order.

    The responses LEFT JOIN their answers, so a response with every question
    missing (all optional, none answered) is still a row; one filtered
    aggregate per question reads each answer once, and a missing answer is
    NULL. COPY takes no bind parameters; the ids inlined are integers from our
    own rows.
    """
    columns = "".join(
        f", max(a.report) FILTER (WHERE a.question_id = {int(q.pk)}) AS q{i}"
        for i, q in enumerate(questions, start=1)
    )
    # A typed answer (a number) beside its code, read from the same rows.
    typed = sorted({i + 1 for _, i, item in cells if item == TYPED_VALUE})
    columns += "".join(
        f", max(a.number) FILTER (WHERE a.question_id = "
        f"{int(questions[i - 1].pk)}) AS n{i}"
        for i in typed
    )
    # Words typed (free text) in place of a code.
    texts = sorted({i + 1 for _, i, item in cells if item == TYPED_TEXT})
    columns += "".join(
        f", max(a.text) FILTER (WHERE a.question_id = "
        f"{int(questions[i - 1].pk)}) AS t{i}"
        for i in texts
    )
    pivot = (
        f"SELECT r.id AS response_id, r.received_on{columns} "  # nosec B608  # ints, our columns
        "FROM surveys_response r LEFT JOIN surveys_answer a ON a.response_id = r.id "
        f"WHERE r.survey_id = {int(survey.pk)} GROUP BY r.id"
    )
    # An item's column is its bit of the mask; a missing answer stays NULL.
    values = [
        _split_sql(f"p.q{i + 1}", item)
        if isinstance(item, Split)
        else f"p.q{i + 1}"
        if item is None
        else _number_sql(f"p.n{i + 1}")
        if item == TYPED_VALUE
        else _text_sql(f"p.t{i + 1}", fmt)
        if item == TYPED_TEXT
        else f"((p.q{i + 1} >> {int(item)}) & 1)"
        for _, i, item in cells
    ]
    names = [name for name, _, _ in cells]
    number = "row_number() OVER (ORDER BY p.response_id)"
    day = "to_char(p.received_on, 'YYYY-MM-DD')"
    if fmt in ("csv", "raw csv"):
        select = ", ".join([number, day, *values])
        options = "(FORMAT csv)"
    else:
        # Codes and ISO dates need no JSON escaping; text COPY leaves them as is.
        parts = [
            f"'{{\"response\":' || {number}",
            f"',\"received_on\":\"' || {day} || '\"'",
        ]
        parts += [
            f"',\"{n}\":' || coalesce({v}::text, 'null')"
            for n, v in zip(names, values, strict=True)
        ]
        select = " || ".join(parts) + " || '}'"
        # Each line as built: text COPY would escape the backslashes of a
        # JSON string, and no JSON text holds these two control characters,
        # so CSV COPY with them as delimiter and quote never quotes a line.
        options = "(FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')"
    return (
        f"COPY (SELECT {select} FROM ({pivot}) p "  # nosec B608  # ints and q1.. names
        f"ORDER BY p.response_id) TO STDOUT {options}"
    )


def _split_sql(column: str, split: Split) -> str:
    """One part of a code cut at ``split.at`` (:class:`Split`); NULL stays NULL."""
    above = f"({column} >= {int(split.at)})::int"
    if split.part == "group":
        return above
    return f"({column} - {int(split.at)} * {above})"


def _split_value(code: int, split: Split) -> int:
    above = int(code >= split.at)
    return above if split.part == "group" else code - split.at * above


def _number_sql(column: str) -> str:
    """A stored number as Python's ``repr`` writes it (the portable path's
    form): whole numbers without a fraction, others in the shortest form that
    reads back exactly, no exponent for the sizes a format allows."""
    return (
        f"CASE WHEN {column} = trunc({column}) THEN trunc({column})::bigint::text "
        f"ELSE {column}::text END"
    )


def _text_sql(column: str, fmt: str) -> str:
    """Words as typed: in CSV as :func:`~surveys.results.cells.neutralise`
    writes them (a leading apostrophe where a spreadsheet would read a
    formula; COPY quotes commas, quotes and line breaks), in JSON a string."""
    if fmt == "raw csv":
        return column
    if fmt != "csv":
        return f"to_json({column})::text"
    starts = ", ".join(_sql_text(c) for c in FORMULA_STARTS)
    return (
        f"CASE WHEN left({column}, 1) IN ({starts}) "
        f"THEN {_sql_text(chr(39))} || {column} ELSE {column} END"
    )


def _sql_text(text: str) -> str:
    """A constant as an escaped SQL string (E'...'), control characters too."""
    escaped = "".join(
        f"\\x{ord(c):02x}" if ord(c) < 32 or c in "'\\" else c for c in text
    )
    return f"E'{escaped}'"


def _copy_chunks(reader: BaseDatabaseWrapper, sql: str) -> Iterator[bytes]:
    """Stream a ``COPY ... TO STDOUT`` in chunks of about :data:`CHUNK_BYTES`."""
    reader.ensure_connection()
    with reader.connection.cursor() as cursor:
        with cursor.copy(sql) as copy:
            buffer = bytearray()
            for block in copy:
                buffer += block
                if len(buffer) >= CHUNK_BYTES:
                    yield bytes(buffer)
                    buffer.clear()
            if buffer:
                yield bytes(buffer)


# -- anywhere: group the answers in Python --------------------------------------


def _portable_rows(
    reader: BaseDatabaseWrapper,
    survey: Survey,
    questions: Sequence[Question],
    cells: Sequence[Cell],
) -> Iterator[list[Any]]:
    """``[number, ISO date, value per column]`` per response, in id order;
    the responses LEFT JOIN their answers, so one with none is a row too."""
    index = {q.pk: i for i, q in enumerate(questions)}
    rows = (
        Response.objects.using(reader.alias)
        .filter(survey=survey)
        .order_by("id")
        .values_list(
            "id",
            "received_on",
            "answers__question_id",
            "answers__report",
            "answers__number",
            "answers__text",
        )
        .iterator(chunk_size=FETCH_ROWS)
    )
    for number, (_, group) in enumerate(groupby(rows, key=lambda a: a[0]), start=1):
        answers_of_one = list(group)
        codes: list[Any] = [None] * len(questions)
        numbers: list[Any] = [None] * len(questions)
        texts: list[str | None] = [None] * len(questions)
        for _, _, question_id, report, typed, words in answers_of_one:
            if question_id is not None:
                codes[index[question_id]] = report
                numbers[index[question_id]] = _number_text(typed)
                texts[index[question_id]] = words
        values = [
            codes[i]
            if item is None or codes[i] is None
            else _split_value(codes[i], item)
            if isinstance(item, Split)
            else numbers[i]
            if item == TYPED_VALUE
            else texts[i]
            if item == TYPED_TEXT
            else codes[i] >> item & 1
            for _, i, item in cells
        ]
        yield [number, answers_of_one[0][1].isoformat(), *values]


def _number_text(value: float | None) -> int | float | None:
    """A stored number as written: whole numbers without a fraction."""
    if value is None:
        return None
    return int(value) if value.is_integer() else value


def _csv_row(row: Sequence[Any]) -> str:
    return csv_line(row)[:-1]


def _batched_lines(rows: Iterator[list[Any]], line: Any) -> Iterator[bytes]:
    batch: list[str] = []
    size = 0
    for row in rows:
        text = line(row)
        batch.append(text)
        size += len(text) + 1
        if size >= CHUNK_BYTES:
            yield ("\n".join(batch) + "\n").encode()
            batch, size = [], 0
    if batch:
        yield ("\n".join(batch) + "\n").encode()
