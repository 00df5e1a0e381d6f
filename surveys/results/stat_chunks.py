"""SPSS and Stata files written a chunk of rows at a time, so memory stays flat.

pyreadstat (readstat underneath) writes a whole table in one call and needs
the number of rows before the first one. The file it writes is a header, the
rows at a fixed size each, and (Stata only) a tail of value labels, and every
row is encoded on its own. So each chunk of the CSV export is written by
pyreadstat as a file of its own, and its row bytes are copied into the
answers file behind the header of the first chunk; the row count (and, for
Stata, the offsets of the sections after the rows) is then set to the total.
The bytes are the ones a single call over the whole table writes (tests
compare them), while memory holds one chunk.

Two things a chunk would otherwise decide differently from the whole table:

* the width of a string variable is its longest value, so the CSV is kept in
  the temporary folder and read once for the widths when there are words
  typed; every chunk then carries one extra row of that width, left out of
  the copy, so that every chunk's rows have the whole table's layout;
* Stata keeps a string of 2,045 bytes or more as a strL, a reference into a
  table after the rows: such a file is written whole, as before
  (:func:`surveys.results.stat_files.write_file`).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from surveys.results.exports import CHUNK_BYTES

if TYPE_CHECKING:
    import pandas as pd

# How a caller reads the CSV into tables of up to so many rows, and writes one
# table to a path (pyreadstat, with the survey's labels).
Parts = Callable[[BinaryIO, int], Iterator["pd.DataFrame"]]
Write = Callable[["pd.DataFrame", str], None]

# Rows written per pyreadstat call: a chunk of ten coded questions holds
# about 0.3 MB parsed, and a call costs a few milliseconds besides its rows.
CHUNK_ROWS = 10_000
# Stata 117 and later keep a string this long or longer as a strL.
DTA_STRL_BYTES = 2045
# The SPSS header's case count: after the record type, product name, layout
# code, case size, compression and weight index (4 + 60 + 4 * 4 bytes).
SAV_CASES_AT = 80
# SPSS's extension record of the 64-bit case count (record type 7, subtype
# 16, two 8-byte values: 1, then the count), which readstat writes as well.
SAV_CASES64 = struct.pack("<4i", 7, 16, 8, 2)
# The Stata map's entries for the sections after the rows: strls,
# value_labels, </stata_dta> and the end of the file.
DTA_AFTER_ROWS = (10, 11, 12, 13)


def spill(chunks: Iterable[bytes | str], path: str) -> None:
    """The CSV export's stream written to ``path`` (disk, not memory)."""
    with open(path, "wb") as handle:
        for chunk in chunks:
            handle.write(chunk.encode() if isinstance(chunk, str) else chunk)


def text_widths(csv_path: str, texts: list[str], parts: Parts) -> dict[str, int]:
    """Each text column's longest value in UTF-8 bytes (at least 1), as
    pyreadstat measures a string variable's width."""
    widths = dict.fromkeys(texts, 1)
    if not texts:
        return widths
    with open(csv_path, "rb") as handle:
        for part in parts(handle, CHUNK_ROWS):
            for name in texts:
                longest = part[name].map(lambda text: len(text.encode())).max()
                widths[name] = max(widths[name], int(longest or 0))
    return widths


def _template(part: pd.DataFrame, widths: dict[str, int]) -> pd.DataFrame:
    """One row like ``part``'s first, its strings as wide as the whole table's."""
    template = part.iloc[[0]].copy()
    for name, width in widths.items():
        template[name] = "x" * width
    return template


def _with_template(part: pd.DataFrame, widths: dict[str, int]) -> pd.DataFrame:
    """``part`` and one more row whose strings have the whole table's widths."""
    import pandas as pd

    return pd.concat([part, _template(part, widths)], ignore_index=True)


def write_chunked(
    csv_path: str,
    *,
    parts: Parts,
    write: Write,
    stata: bool,
    texts: list[str],
    folder: str,
    rows: int = CHUNK_ROWS,
) -> str | None:
    """The answers file from the CSV at ``csv_path``, written ``rows`` rows
    at a time by ``write`` from the tables ``parts`` reads; its path, or None
    when it must be written whole (no rows, or a Stata strL)."""
    widths = text_widths(csv_path, texts, parts)
    if stata and any(width >= DTA_STRL_BYTES for width in widths.values()):
        return None
    suffix = "dta" if stata else "sav"
    out_path = os.path.join(folder, f"answers.{suffix}")
    piece = os.path.join(folder, f"chunk.{suffix}")
    layout: _Layout | None = None
    written = 0
    with open(csv_path, "rb") as source, open(out_path, "wb") as out:
        for part in parts(source, rows):
            if not len(part):
                continue
            write(_with_template(part, widths), piece)
            if layout is None:
                layout = _layout(part, widths, write, stata, piece, folder)
                out.write(layout.head)
            _copy_rows(piece, layout.rows_at, len(part) * layout.row_bytes, out)
            written += len(part)
        if layout is None:
            return None
        out.write(layout.tail)
    _set_rows(out_path, layout, written, stata)
    return out_path


class _Layout:
    """Where the rows are in a chunk's file, and what comes around them."""

    def __init__(
        self, head: bytes, rows_at: int, row_bytes: int, tail: bytes, rows: int
    ) -> None:
        self.head = head
        self.rows_at = rows_at
        self.row_bytes = row_bytes
        self.tail = tail
        # The rows of the chunk the head and tail were taken from.
        self.rows = rows


def _layout(
    part: pd.DataFrame,
    widths: dict[str, int],
    write: Write,
    stata: bool,
    piece: str,
    folder: str,
) -> _Layout:
    size = os.path.getsize(piece)
    with open(piece, "rb") as handle:
        if not stata:
            # The rows end an SPSS file: the template row alone is the same
            # header and one row, so the difference is the part's rows.
            one = os.path.join(folder, "one.sav")
            write(_template(part, widths), one)
            row_bytes = (size - os.path.getsize(one)) // len(part)
            os.remove(one)
            rows_at = size - (len(part) + 1) * row_bytes
            head = handle.read(rows_at)
            return _Layout(head, rows_at, row_bytes, b"", len(part) + 1)
        offsets = _dta_map(handle)
        rows_at = offsets[9] + len(b"<data>")
        rows_end = offsets[10] - len(b"</data>")
        row_bytes = (rows_end - rows_at) // (len(part) + 1)
        handle.seek(0)
        head = handle.read(rows_at)
        handle.seek(rows_end)
        tail = handle.read()
    return _Layout(head, rows_at, row_bytes, tail, len(part) + 1)


def _dta_map(handle: BinaryIO) -> list[int]:
    """The 14 section offsets of a Stata 117+ file's ``<map>`` (little-endian,
    as readstat writes on this machine)."""
    handle.seek(0)
    start = handle.read(4096)
    at = start.index(b"<map>") + len(b"<map>")
    return list(struct.unpack_from("<14Q", start, at))


def _copy_rows(piece: str, rows_at: int, length: int, out: BinaryIO) -> None:
    with open(piece, "rb") as handle:
        handle.seek(rows_at)
        left = length
        while left:
            block = handle.read(min(CHUNK_BYTES, left))
            if not block:
                raise OSError(f"{piece} ended {left} bytes before its rows")
            out.write(block)
            left -= len(block)


def _set_rows(path: str, layout: _Layout, rows: int, stata: bool) -> None:
    """The header's row count, and Stata's offsets after the rows, set to the
    file's ``rows`` instead of the first chunk's."""
    with open(path, "r+b") as handle:
        if not stata:
            handle.seek(SAV_CASES_AT)
            handle.write(struct.pack("<i", rows))
            record = layout.head.rfind(SAV_CASES64)
            if record >= 0:
                handle.seek(record + len(SAV_CASES64) + 8)
                handle.write(struct.pack("<q", rows))
            return
        head = layout.head
        release = int(head[head.index(b"<release>") + 9 : head.index(b"</release>")])
        n_at = head.index(b"<N>") + len(b"<N>")
        handle.seek(n_at)
        handle.write(struct.pack("<Q" if release >= 118 else "<I", rows))
        shift = (rows - layout.rows) * layout.row_bytes
        map_at = head.index(b"<map>") + len(b"<map>")
        offsets = _dta_map(handle)
        for index in DTA_AFTER_ROWS:
            handle.seek(map_at + 8 * index)
            handle.write(struct.pack("<Q", offsets[index] + shift))


def stream_back(path: str) -> Iterator[bytes]:
    """``path`` in blocks."""
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK_BYTES):
            yield block


__all__ = ["CHUNK_ROWS", "spill", "stream_back", "write_chunked"]
