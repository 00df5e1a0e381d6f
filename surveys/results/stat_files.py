"""The answers as SPSS ``.sav`` and Stata ``.dta`` files, labelled for reading.

The columns and codes are the CSV export's (``response``, ``received_on`` as
a date, ``q1 .. qN`` holding each reported option's code 0..k-1, and for check
all that apply ``qN_1 .. qN_m`` holding 0 or 1 per item); a missing answer is
system missing. Each question column carries the question text as its variable
label and its reports as the respondent saw them as value labels
(surveys/respond/report_labels.py); an item column, the question text and the
item, said to be a randomized report. The survey's title is the file label.
Where the design goes depends on what the format holds:

* SPSS: the file's documents (notes) list every question's design, parameters
  and matrix P(report | truth).
* Stata: pyreadstat writes no notes, so each variable label ends with the
  design and its parameters in brackets; the matrix is in codebook.json.

Both formats limit label lengths (SPSS in bytes of UTF-8, Stata in
characters, see :data:`LIMITS`); a longer label is cut and ends in ``…``.

The writer (pyreadstat) writes a whole table to a file in one call, so the
rows are read from the streamed CSV export (kept on disk meanwhile) into
compact columns (a 32-bit response number, one shared ``date`` per day, 8-bit
nullable codes) a chunk at a time, and each chunk's rows are copied into one
file (surveys/results/stat_chunks.py): memory holds a chunk, not the table
(a measured peak rise of 7 MB at 10^6 responses of ten questions against the
CSV's 4 MB; 77 MB with the whole table; docs/benchmarks.md).
"""

from __future__ import annotations

import datetime
import io
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from django.utils import translation

from surveys.models import Survey
from surveys.respond.report_labels import item_values
from surveys.results.codebook import FILE_LANGUAGE, answer_columns, question_entry
from surveys.results.exports import CHUNK_BYTES, answers_csv
from surveys.results.stat_chunks import (
    CHUNK_ROWS,
    spill,
    stream_back,
    write_chunked,
)

if TYPE_CHECKING:  # pandas is imported only when a file is written
    import pandas as pd

SAV = "sav"
DTA = "dta"
# Rows parsed at a time from the CSV stream.
PARSE_ROWS = 100_000
ELLIPSIS = "…"
# Characters of question text a Stata variable label keeps beside its design.
STATA_MIN_TEXT = 20


@dataclass(frozen=True)
class Limit:
    """The longest text a label may hold: characters and UTF-8 bytes."""

    chars: int
    bytes: int


@dataclass(frozen=True)
class Limits:
    file_label: Limit
    variable_label: Limit
    value_label: Limit
    note_line: Limit | None  # None: the format (as written) has no notes


# What readstat accepts, measured with pyreadstat 1.3.7: SPSS counts bytes
# (file label 64, variable label 256, value label 120, document lines 80);
# Stata 118 counts characters (80 for the file and variable labels; value
# labels up to Stata's 32,000).
LIMITS = {
    SAV: Limits(
        file_label=Limit(64, 64),
        variable_label=Limit(256, 256),
        value_label=Limit(120, 120),
        note_line=Limit(80, 80),
    ),
    DTA: Limits(
        file_label=Limit(80, 320),
        variable_label=Limit(80, 320),
        value_label=Limit(32000, 32000),
        note_line=None,
    ),
}


@dataclass
class Labels:
    """Everything the file says besides the values."""

    file_label: str
    variable_labels: dict[str, str]
    value_labels: dict[str, dict[int, str]]
    notes: list[str] = field(default_factory=list)
    code_types: dict[str, str] = field(default_factory=dict)
    # SPSS's measure of a coded column when it is not nominal: a rating
    # scale's codes are ordinal.
    measures: dict[str, str] = field(default_factory=dict)


def fit(text: str, limit: Limit) -> str:
    """``text`` cut to ``limit``, ending in ``…`` when cut."""
    text = " ".join(text.split())
    if len(text) <= limit.chars and len(text.encode()) <= limit.bytes:
        return text
    cut = text[: limit.chars - 1]
    while len((cut + ELLIPSIS).encode()) > limit.bytes:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def wrap(text: str, limit: Limit) -> list[str]:
    """``text`` as lines within ``limit``, broken between words where possible."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if _within(candidate, limit):
            line = candidate
            continue
        if line:
            lines.append(line)
        while not _within(word, limit):  # a word longer than a line
            size = limit.chars
            while not _within(word[:size], limit):
                size -= 1
            lines.append(word[:size])
            word = word[size:]
        line = word
    if line:
        lines.append(line)
    return lines


def _within(text: str, limit: Limit) -> bool:
    return len(text) <= limit.chars and len(text.encode()) <= limit.bytes


def design_tag(design: dict[str, Any]) -> str:
    """``warner(p=0.75)``: the design's name and parameters, compactly."""
    params = ",".join(
        f"{name}={_compact(value)}" for name, value in design.items() if name != "name"
    )
    return f"{design['name']}({params})"


def _compact(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_compact(v) for v in value) + "]"
    if isinstance(value, float):
        return format(value, ".10g")
    return str(value)


def _matrix(matrix: list[list[float]]) -> str:
    return "[" + "; ".join(" ".join(_compact(p) for p in row) for row in matrix) + "]"


def labels_for(survey: Survey, file_format: str) -> Labels:
    """The labels of one survey's answers file in ``file_format``."""
    limits = LIMITS[file_format]
    # The codebook's entries in the files' language, whoever downloads.
    with translation.override(FILE_LANGUAGE):
        entries = [question_entry(name, q) for name, q in answer_columns(survey)]
    labels = Labels(
        file_label=fit(survey.title, limits.file_label),
        variable_labels={
            "response": fit(
                "Response number (1..n, no meaning)", limits.variable_label
            ),
            "received_on": fit("Date the response arrived", limits.variable_label),
        },
        value_labels={},
    )
    ticks = {
        code: fit(label, limits.value_label)
        for code, label in item_values(survey.language).items()
    }
    for entry in entries:
        if "item_columns" in entry:
            # Check all that apply: one 0/1 variable per item.
            for item in entry["item_columns"]:
                labels.variable_labels[item["column"]] = _variable_label(
                    entry, limits, item=item["label"]
                )
                labels.value_labels[item["column"]] = dict(ticks)
                labels.code_types[item["column"]] = "Int8"
            continue
        column = entry["column"]
        labels.variable_labels[column] = _variable_label(entry, limits)
        if "text_answer" in entry:
            # Words as typed: a string variable, no codes to label.
            labels.code_types[column] = "str"
            labels.measures[column] = "nominal"
            continue
        # Every code as the respondent saw it: a crosswise pairing, group
        # and answer, a validation arm's direct answers (codebook.py).
        codes = entry["report_codes"]
        labels.value_labels[column] = {
            o["code"]: fit(o["label"], limits.value_label) for o in codes
        }
        labels.code_types[column] = "Int8" if len(codes) <= 100 else "Int16"
        if entry.get("ordered_codes"):
            labels.measures[column] = "ordinal"
        for decoded in entry.get("decoded_columns", []):
            # A code decoded into parts (a list experiment's list and count).
            labels.variable_labels[decoded["column"]] = fit(
                f"{decoded['label']}: {entry['text']}", limits.variable_label
            )
            labels.code_types[decoded["column"]] = "Int8"
            if decoded["value_labels"]:
                labels.value_labels[decoded["column"]] = {
                    o["code"]: fit(o["label"], limits.value_label)
                    for o in decoded["value_labels"]
                }
        typed = entry.get("value_column")
        if typed is not None:
            # A number as typed, beside its range's code: a decimal number,
            # no value labels, measured on a scale.
            labels.variable_labels[typed["column"]] = fit(
                f"{typed['label']}: {entry['text']}", limits.variable_label
            )
            labels.code_types[typed["column"]] = "Float64"
            labels.measures[typed["column"]] = "scale"
    if limits.note_line is not None:
        labels.notes = [
            line
            for paragraph in _notes(survey, entries)
            for line in wrap(paragraph, limits.note_line)
        ]
    return labels


def _variable_label(
    entry: dict[str, Any], limits: Limits, item: str | None = None
) -> str:
    """The question text (an item's column: the item first, then that it is a
    randomized report, then the text); for Stata, which keeps no notes, the
    text cut to leave room for the design and its parameters, which come
    whole unless they would leave the text fewer than :data:`STATA_MIN_TEXT`
    characters."""
    label = limits.variable_label
    text = entry["text"]
    if item is not None:
        text = f"{item} (randomized report, 1 = sent ticked): {text}"
    if limits.note_line is not None:
        return fit(text, label)
    tag = f"[{design_tag(entry['design'])}{check_tag(entry)}]"
    if label.chars - len(tag) - 1 < STATA_MIN_TEXT:
        tag = fit(tag, Limit(label.chars - STATA_MIN_TEXT - 1, label.bytes // 2))
    room = Limit(label.chars - len(tag) - 1, label.bytes - len(tag.encode()) - 1)
    return f"{fit(text, room)} {tag}"


def _notes(survey: Survey, entries: list[dict[str, Any]]) -> list[str]:
    notes = [
        f"{survey.title}. One row per response. Codes are the options REPORTED "
        "(0..k-1; check all that apply: one 0/1 variable per item, 1 = sent "
        "ticked), randomized in the respondent's browser, not true answers: "
        "estimate with each question's design below (exact values and every "
        "parameter in codebook.json). System missing: skipped, or prefer not "
        "to answer.",
    ]
    for entry in entries:
        design = entry["design"]
        epsilon = entry["epsilon"]
        where = entry["column"]
        if "item_columns" in entry:
            items = entry["item_columns"]
            where = f"{items[0]['column']}..{items[-1]['column']} (1 = sent ticked)"
        if "text_answer" in entry:
            # A kind whose words are not stored as typed says so itself.
            note = entry["text_answer"].get("file_note") or (
                f"free text as typed, up to {entry['text_answer']['max_length']} "
                "characters; not protected, nothing estimated."
            )
            notes.append(f"{where} = question {entry['number']}: {note}")
            continue
        if "matrix" not in entry:
            # A design with no matrix (a list experiment): its coding and its
            # privacy in the codebook's own words.
            notes.append(
                f"{where} = question {entry['number']}: design "
                f"{design_tag(design)}; {entry['report_coding']}; "
                f"{entry['privacy']}."
            )
            continue
        privacy = "not private" if epsilon is None else f"epsilon {epsilon:.4g}"
        if entry.get("yes_epsilon") is not None:
            # A device instruction: the cell is 2 * group + answer.
            privacy = (
                "epsilon unbounded (a No given as instructed is not protected), "
                f"a Yes at most {entry['yes_epsilon']:.4g}; the code is "
                "2 * group + answer, rows truth No, Yes if the instruction is followed"
            )
        notes.append(
            f"{where} = question {entry['number']}: design "
            f"{design_tag(design)}; P(report|truth), rows truth 0..k-1: "
            f"{_matrix(entry['matrix'])}; {privacy}."
        )
        check = entry.get("comprehension_check")
        if check is not None:
            notes.append(
                f"{where} is the comprehension check: code "
                f"{check['passing_code']} ({check['passing_label']}) passes."
            )
    return notes


def check_tag(entry: dict[str, Any]) -> str:
    """For Stata, which keeps no notes: the comprehension check's passing code
    beside its design (``direct(k=4) check:1``)."""
    check = entry.get("comprehension_check")
    return "" if check is None else f" check:{check['passing_code']}"


# -- the table ------------------------------------------------------------------


class _ChunkStream(io.RawIOBase):
    """A readable file over an iterator of byte chunks (the CSV export)."""

    def __init__(self, chunks: Iterable[bytes | str]) -> None:
        self._chunks = iter(chunks)
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._pending = chunk.encode() if isinstance(chunk, str) else chunk
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def answers_parts(
    stream: BinaryIO, code_types: dict[str, str], *, rows: int = PARSE_ROWS
) -> Iterator[pd.DataFrame]:
    """The CSV export's rows read from ``stream`` as compact tables of up to
    ``rows`` rows: ``response`` int32, ``received_on`` a ``datetime.date``
    shared by all rows of a day, codes as nullable small integers (missing is
    ``<NA>``)."""
    import pandas as pd

    dtypes = {"response": "int32", "received_on": "str", **code_types}
    # Words typed: a missing one is the empty string, as SPSS and Stata keep
    # a string's missing value.
    texts = [name for name, dtype in code_types.items() if dtype == "str"]
    days: dict[str, datetime.date] = {}

    def day(text: str) -> datetime.date:
        found = days.get(text)
        if found is None:
            found = days[text] = datetime.date.fromisoformat(text)
        return found

    # Only an empty cell is missing: words typed such as "NA" stay words.
    for part in pd.read_csv(
        stream,
        dtype=dtypes,
        chunksize=rows,
        keep_default_na=False,
        na_values=[""],
    ):
        part["received_on"] = part["received_on"].map(day).astype(object)
        for column in texts:
            part[column] = part[column].fillna("")
        yield part


def answers_frame(
    chunks: Iterable[bytes | str], code_types: dict[str, str]
) -> pd.DataFrame:
    """The CSV export's rows as one compact table (:func:`answers_parts`)."""
    import pandas as pd

    stream = io.BufferedReader(_ChunkStream(chunks), buffer_size=CHUNK_BYTES)
    parts = list(answers_parts(stream, code_types))
    if not parts:
        dtypes = {"response": "int32", "received_on": "str", **code_types}
        return pd.DataFrame(
            {
                name: pd.Series([], dtype=dtype if dtype != "str" else object)
                for name, dtype in dtypes.items()
            }
        )
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def write_to(frame: pd.DataFrame, labels: Labels, file_format: str, path: str) -> None:
    """The table written to ``path`` in ``file_format`` by pyreadstat."""
    import pyreadstat

    common: dict[str, Any] = {
        "file_label": labels.file_label,
        "column_labels": labels.variable_labels,
        "variable_value_labels": labels.value_labels,
    }
    if file_format == SAV:
        measures = {name: "nominal" for name in labels.value_labels}
        measures.update(labels.measures)
        pyreadstat.write_sav(
            frame,
            path,
            note=labels.notes or None,
            variable_measure={"response": "scale", **measures},
            **common,
        )
    else:
        pyreadstat.write_dta(frame, path, version=15, **common)


def write_file(
    frame: pd.DataFrame, labels: Labels, file_format: str
) -> Iterator[bytes]:
    """Write the whole table to a temporary file in ``file_format`` and stream
    it back; the file is removed when the stream ends or is abandoned."""
    with tempfile.TemporaryDirectory(prefix="rr-export-") as folder:
        path = os.path.join(folder, f"answers.{file_format}")
        write_to(frame, labels, file_format, path)
        del frame
        yield from stream_back(path)


def answers_file(
    survey: Survey, file_format: str, *, chunk_rows: int | None = None
) -> Iterator[bytes]:
    """The survey's answers as a labelled ``.sav`` or ``.dta`` file, in chunks."""
    # Words typed are read as stored (no spreadsheet guard), and a missing
    # one is the empty string, as SPSS and Stata keep string missing values.
    yield from labelled_file(
        answers_csv(survey, guard=False),
        labels_for(survey, file_format),
        file_format,
        chunk_rows=chunk_rows,
    )


def labelled_file(
    chunks: Iterable[bytes | str],
    labels: Labels,
    file_format: str,
    *,
    chunk_rows: int | None = None,
) -> Iterator[bytes]:
    """The CSV export's stream as a ``file_format`` file, in blocks.

    Written ``chunk_rows`` rows at a time (surveys/results/stat_chunks.py), so
    memory holds one chunk; a file that cannot be (no rows, a Stata strL) is
    written whole, as the bytes are the same either way. The CSV waits in the
    temporary folder, on disk, for the chunks to be read from it."""
    with tempfile.TemporaryDirectory(prefix="rr-export-") as folder:
        csv_path = os.path.join(folder, "answers.csv")
        spill(chunks, csv_path)
        path = write_chunked(
            csv_path,
            parts=lambda source, rows: answers_parts(
                source, labels.code_types, rows=rows
            ),
            write=lambda frame, to: write_to(frame, labels, file_format, to),
            stata=file_format == DTA,
            texts=[n for n, dtype in labels.code_types.items() if dtype == "str"],
            folder=folder,
            rows=chunk_rows or CHUNK_ROWS,
        )
        if path is None:
            with open(csv_path, "rb") as source:
                frame = answers_frame(_blocks(source), labels.code_types)
            yield from write_file(frame, labels, file_format)
            return
        os.remove(csv_path)
        yield from stream_back(path)


def _blocks(source: BinaryIO) -> Iterator[bytes]:
    while block := source.read(CHUNK_BYTES):
        yield block


def answers_sav(survey: Survey) -> Iterator[bytes]:
    """The answers as an SPSS ``.sav`` file (labels and design notes)."""
    return answers_file(survey, SAV)


def answers_dta(survey: Survey) -> Iterator[bytes]:
    """The answers as a Stata 15 ``.dta`` file (labels; the design in them)."""
    return answers_file(survey, DTA)


__all__ = [
    "DTA",
    "LIMITS",
    "SAV",
    "answers_dta",
    "answers_frame",
    "answers_parts",
    "answers_sav",
    "design_tag",
    "fit",
    "labelled_file",
    "labels_for",
    "wrap",
    "write_file",
    "write_to",
]
