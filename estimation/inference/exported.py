"""Re-analyse a survey from its exported answers and codebook, without the platform.

Reads the codebook (JSON) and the answers (CSV or JSON lines, one row per
response, one column per question holding the reported option's code, and for
check all that apply one 0/1 column per item, the codebook's ``item_columns``;
an older export's single bit-mask column is read too), tallies
each question's reports overall and within each answer to the direct questions,
and estimates them exactly as the platform does: the same counts into the same
:func:`~estimation.results.estimate_question` give the same numbers.

A missing answer (an empty cell, or null) is skipped: each question's estimate
uses only those who answered it, its ``n``, and ``missing`` says how many did
not. An optional direct question's subgroups end with "No answer", as on the
platform.

Reading a question's cells is one matrix over its options unless its design's
kind says otherwise: its ``exported`` role (``estimation/kinds/<kind>/exported.py``)
may hold a :class:`Reading` of its own (``READING``), found through the
kinds' registry, as a database backend of Django subclasses its base
operations.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TextIO

from estimation.designs import Design
from estimation.inference.validation import compare_arms, validate_direct_percent
from estimation.kinds import AnyDesign, any_design_from_dict, design_role
from estimation.results import estimate_question

CODEBOOK_FORMATS = (1,)
NO_ANSWER = "No answer"


class UsageError(ValueError):
    """Bad input from the command line, a case file or an export."""


class Reading:
    """How a question's cells are read and estimated: here, one option code
    per cell of a design that is one matrix over the options; a kind whose
    design is not (estimation/kinds/<kind>/exported.py) subclasses it."""

    # Cells are bit masks of items, tallied per item (check all that apply).
    per_item = False
    # Codes k..2k-1 may be a validation arm's direct answers.
    takes_validation_arm = True
    # What an export cell holds, for the error naming a bad one.
    cell = "an option code"

    def options(self, design: Any) -> int:
        """How many options the codebook labels."""
        return int(design.k)

    def width(self, design: Any) -> int:
        """Counts kept per column: one per option."""
        return int(design.k)

    def estimate(
        self, counts: list[int], column: Column, level: float, ci_method: str, n: int
    ) -> dict[str, Any] | None:
        """The estimate of ``n`` answers' counts (never none)."""
        assert isinstance(column.design, Design)
        return estimate_question(
            counts,
            column.design,
            level=level,
            ci_method=ci_method,
            labels=column.labels,
            count=column.count,
        ).to_dict()

    def compare_arms(
        self,
        randomized: list[int],
        direct: list[int],
        column: Column,
        level: float,
        ci_method: str,
    ) -> Any:
        """A validation arm's direct answers against the randomized estimate."""
        assert isinstance(column.design, Design)
        return compare_arms(
            randomized, direct, column.design, level=level, ci_method=ci_method
        )


MATRIX = Reading()


@cache
def reading_of(name: str) -> Reading:
    """The reading of the design called ``name``: its kind's own, or
    :data:`MATRIX`."""
    role = design_role(name, "exported")
    reading = getattr(role, "READING", MATRIX)
    assert isinstance(reading, Reading)
    return reading


@dataclass(frozen=True)
class Column:
    """One question of the codebook: its export column and its design."""

    name: str
    question_id: Any
    text: str
    labels: tuple[str, ...]
    design: AnyDesign
    sensitive: bool
    optional: bool = False
    # A validation arm (estimation/inference/validation.py): codes k..2k-1 are direct
    # answers; 0 without one.
    direct_percent: int = 0

    @property
    def reading(self) -> Reading:
        return reading_of(self.design.name)

    @property
    def code_count(self) -> int:
        """How many different codes a cell may hold, as the design says (one
        per subset of the items for check all that apply, a bit mask); with a
        validation arm, ``k..2k-1`` are direct answers."""
        return self.design.code_count(self.direct_percent)

    @property
    def unary(self) -> bool:
        """Check all that apply: cells hold bit masks, tallied per item."""
        return self.reading.per_item

    @property
    def width(self) -> int:
        """Counts kept per column: one per option, ticked counts per item, or
        the four reports of a question with a device instruction."""
        return self.reading.width(self.design)

    # The options are the counts 0..k-1: the mean count is estimated too.
    count: bool = False
    # Check all that apply: the 0/1 column of each item, in item order;
    # empty for an export with one bit-mask column.
    items: tuple[str, ...] = ()

    @property
    def cells(self) -> tuple[str, ...]:
        """The export columns this question's reports are read from."""
        return self.items or (self.name,)

    @property
    def group_labels(self) -> tuple[str, ...]:
        """Subgroups by this (direct) column: its options, and "No answer"
        after them when it is optional."""
        return (*self.labels, NO_ANSWER) if self.optional else self.labels


@dataclass
class Tally:
    """Report counts per column, and per (sensitive, direct) column pair the
    counts of the sensitive question's reports within each direct answer."""

    responses: int = 0
    counts: dict[str, list[int]] = field(default_factory=dict)
    answered: dict[str, int] = field(default_factory=dict)
    tables: dict[tuple[str, str], list[list[int]]] = field(default_factory=dict)
    # Check all that apply: the reports in each direct answer, which the
    # table's ticked counts per item do not sum to.
    group_n: dict[tuple[str, str], list[int]] = field(default_factory=dict)


def read_codebook(data: Any) -> list[Column]:
    """The codebook's questions, validated; a :class:`UsageError` names the fault."""
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise UsageError("the codebook must be a JSON object with a list of questions")
    if data.get("format") not in CODEBOOK_FORMATS:
        raise UsageError(
            f"codebook format {data.get('format')!r} is not one this version reads "
            f"({', '.join(map(str, CODEBOOK_FORMATS))})"
        )
    columns = []
    for index, entry in enumerate(data["questions"]):
        where = f"codebook question {index + 1}"
        if not isinstance(entry, dict) or not isinstance(entry.get("column"), str):
            raise UsageError(f"{where} has no column name")
        if entry.get("estimated") is False:
            # Words typed as they are: nothing to estimate, no subgroups.
            continue
        try:
            design = any_design_from_dict(entry["design"])
            labels = tuple(str(o["label"]) for o in entry["options"])
        except (KeyError, TypeError, ValueError) as error:
            raise UsageError(f"{where} ({entry['column']}): {error}") from error
        expected = reading_of(design.name).options(design)
        if len(labels) != expected:
            raise UsageError(
                f"{where} ({entry['column']}) has {len(labels)} options but its "
                f"design has {expected}"
            )
        try:
            direct_percent = validate_direct_percent(entry.get("direct_percent", 0))
            items = _item_columns(entry, design)
        except ValueError as error:
            raise UsageError(f"{where} ({entry['column']}): {error}") from error
        columns.append(
            Column(
                name=entry["column"],
                question_id=entry.get("question_id"),
                text=str(entry.get("text", "")),
                labels=labels,
                design=design,
                sensitive=bool(entry.get("sensitive", design.randomized)),
                optional=entry.get("optional") is True,
                direct_percent=direct_percent,
                count=entry.get("kind") == "count",
                items=items,
            )
        )
    names = [name for c in columns for name in {c.name, *c.cells}]
    if len(set(names)) != len(names):
        raise UsageError("the codebook names a column twice")
    return columns


def _item_columns(entry: Mapping[str, Any], design: AnyDesign) -> tuple[str, ...]:
    """Check all that apply: each item's column name, in item order."""
    listed = entry.get("item_columns")
    if listed is None:
        return ()
    if not reading_of(design.name).per_item:
        raise ValueError("item_columns are for check all that apply only")
    items = reading_of(design.name).options(design)
    try:
        names = {int(i["code"]): str(i["column"]) for i in listed}
    except (KeyError, TypeError, ValueError):
        raise ValueError(
            "item_columns must list a column and a code per item"
        ) from None
    if sorted(names) != list(range(items)):
        raise ValueError(f"item_columns must give one column to each of {items} items")
    return tuple(names[code] for code in range(items))


def read_rows(stream: TextIO, source: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(where, row)`` per response, from CSV or JSON lines (told by the first line)."""
    first = stream.readline()
    if first.lstrip().startswith("{"):
        yield from _jsonl_rows(first, stream, source)
    else:
        yield from _csv_rows(first, stream, source)


def _csv_rows(
    first: str, stream: TextIO, source: str
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    header = next(csv.reader([first]), None)
    if not header:
        raise UsageError(f"{source} is empty: expected a header line")
    width = len(header)
    for number, values in enumerate(csv.reader(stream), start=2):
        if not values:
            continue
        if len(values) != width:
            raise UsageError(
                f"{source}, line {number}: {len(values)} cells, the header has {width}"
            )
        yield f"{source}, line {number}", dict(zip(header, values, strict=True))


def _jsonl_rows(
    first: str, stream: TextIO, source: str
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for number, line in enumerate(_chain(first, stream), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"{source}, line {number}: not JSON ({error.msg})"
            ) from None
        if not isinstance(row, dict):
            raise UsageError(f"{source}, line {number}: expected a JSON object")
        yield f"{source}, line {number}", row


def _chain(first: str, rest: Iterable[str]) -> Iterator[str]:
    yield first
    yield from rest


def code_of(value: Any, column: Column, where: str) -> int | None:
    """The reported option code of one cell; None for an unanswered question."""
    if value is None or value == "":
        return None
    code: Any = value
    if isinstance(value, str):
        try:
            code = int(value)
        except ValueError:
            code = None
    codes = column.code_count
    if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < codes:
        kind = column.reading.cell
        raise UsageError(
            f"{where}, column {column.name}: {value!r} is not {kind} "
            f"(a whole number from 0 to {codes - 1})"
        )
    return code


def report_of(row: Mapping[str, Any], column: Column, where: str) -> int | None:
    """One question's report in one row: its cell's code, or for check all
    that apply exported per item the bit mask of the items sent ticked (item
    ``i`` in bit ``i``, as stored); None when unanswered, which is every item
    column empty, never some."""
    if not column.items:
        return code_of(row.get(column.name), column, where)
    bits = [_bit(row.get(name), name, where) for name in column.items]
    if all(bit is None for bit in bits):
        return None
    if any(bit is None for bit in bits):
        raise UsageError(
            f"{where}: {column.name}'s items are partly empty; a missing answer "
            f"is empty in every item column ({', '.join(column.items)})"
        )
    return sum(bit << item for item, bit in enumerate(bits) if bit is not None)


def _bit(value: Any, name: str, where: str) -> int | None:
    if value is None or value == "":
        return None
    if value in (0, 1, "0", "1") and not isinstance(value, bool | float):
        return int(value)
    raise UsageError(
        f"{where}, column {name}: {value!r} is not 0 or 1 (an item sent ticked or not)"
    )


def tally(
    columns: Sequence[Column], rows: Iterable[tuple[str, Mapping[str, Any]]]
) -> Tally:
    """Count every column's reports, overall and within each direct answer."""
    direct = [c for c in columns if not c.sensitive]
    result = Tally(
        counts={c.name: [0] * (c.width if c.unary else c.code_count) for c in columns},
        answered={c.name: 0 for c in columns},
        tables={
            (c.name, g.name): [[0] * c.width for _ in g.group_labels]
            for c in columns
            if c.sensitive
            for g in direct
        },
        group_n={
            (c.name, g.name): [0] * len(g.group_labels)
            for c in columns
            if c.unary
            for g in direct
        },
    )
    checked = False
    for where, row in rows:
        if not checked:
            missing = [name for c in columns for name in c.cells if name not in row]
            if missing:
                raise UsageError(
                    f"{where}: no column {', '.join(missing)}, which the codebook lists"
                )
            checked = True
        codes = {c.name: report_of(row, c, where) for c in columns}
        result.responses += 1
        for column in columns:
            code = codes[column.name]
            if code is None:
                continue
            result.answered[column.name] += 1
            if column.unary:
                # Per item, overall and within each direct answer.
                _add_mask(result.counts[column.name], code)
                for group, level in _levels(direct, codes):
                    result.group_n[(column.name, group.name)][level] += 1
                    _add_mask(result.tables[(column.name, group.name)][level], code)
                continue
            result.counts[column.name][code] += 1
            # A direct answer (a validation arm's) is in no randomized table.
            if column.sensitive and code < column.width:
                for group, level in _levels(direct, codes):
                    result.tables[(column.name, group.name)][level][code] += 1
    return result


def _add_mask(ticked: list[int], mask: int) -> None:
    for item in range(len(ticked)):
        ticked[item] += mask >> item & 1


def _levels(
    direct: Sequence[Column], codes: Mapping[str, int | None]
) -> Iterator[tuple[Column, int]]:
    """The response's subgroup in each direct question, as the platform's
    strata have it."""
    for group in direct:
        level = codes[group.name]
        if level is None and group.optional:
            level = group.design.k  # the "No answer" subgroup
        if level is not None:
            yield group, level


def _estimate(
    counts: list[int], column: Column, level: float, ci_method: str, n: int
) -> dict[str, Any] | None:
    if n == 0:
        return None
    return column.reading.estimate(counts, column, level, ci_method, n)


def _validation(
    by_code: list[int], column: Column, level: float, ci_method: str
) -> dict[str, Any]:
    """A validation arm's direct answers and their comparison with the
    randomized estimate, as the dashboard shows them; nothing without an arm."""
    # Check all that apply and the instructed designs take no arm (the
    # builder refuses one).
    if not column.direct_percent or not column.reading.takes_validation_arm:
        return {}
    k = column.width
    randomized, direct = by_code[:k], by_code[k:]
    both = sum(randomized) > 0 and sum(direct) > 0
    compared = (
        column.reading.compare_arms(randomized, direct, column, level, ci_method)
        if both
        else None
    )
    return {
        "direct_percent": column.direct_percent,
        "direct_n": sum(direct),
        "direct_counts": direct,
        "validation": compared.to_dict() if compared is not None else None,
    }


def estimate_exported(
    codebook: Any,
    rows: Iterable[tuple[str, Mapping[str, Any]]],
    *,
    level: float,
    ci_method: str,
) -> dict[str, Any]:
    """Every question's estimate, and by each direct question's answers."""
    columns = read_codebook(codebook)
    counts = tally(columns, rows)
    direct = [c for c in columns if not c.sensitive]
    questions = []
    for column in columns:
        subgroups = [
            {
                "group_column": group.name,
                "group_question_id": group.question_id,
                "group_option_code": code,
                "group_option_label": label,
                "n": size,
                "result": _estimate(table_row, column, level, ci_method, size),
            }
            for group in (direct if column.sensitive else [])
            for code, (label, table_row) in enumerate(
                zip(
                    group.group_labels,
                    counts.tables[(column.name, group.name)],
                    strict=True,
                )
            )
            for size in [
                counts.group_n[(column.name, group.name)][code]
                if column.unary
                else sum(table_row)
            ]
        ]
        by_code = counts.counts[column.name]
        answered = counts.answered[column.name]
        # Check all that apply: ticked counts per item. Otherwise the
        # randomized codes 0..k-1; a validation arm's direct ones come after.
        estimated = by_code[: column.width]
        n = answered if column.unary else sum(estimated)
        questions.append(
            {
                "column": column.name,
                "question_id": column.question_id,
                "text": column.text,
                "sensitive": column.sensitive,
                "optional": column.optional,
                "n": n,
                "missing": counts.responses - answered,
                "result": _estimate(estimated, column, level, ci_method, n),
                "subgroups": subgroups,
                **_validation(by_code, column, level, ci_method),
            }
        )
    survey = codebook.get("survey") if isinstance(codebook, dict) else None
    return {
        "survey": survey,
        "responses": counts.responses,
        "level": level,
        "ci_method": ci_method,
        "questions": questions,
    }
