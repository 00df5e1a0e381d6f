"""The analysis bundle: one zip with the answers, the codebook, the dashboard's
estimates and scripts that reproduce them in Python and R.

It carries the pure statistical core too (``lib/estimation/``, the package
without its Django side), so ``python analysis.py`` runs wherever Python,
NumPy and SciPy are, without a checkout of the platform.

The zip is written as it is sent: :mod:`zipfile` writes to a stream it cannot
seek (each member's sizes follow its data), and the CSV member is fed from the
streamed CSV export, so memory stays flat however many answers there are.
"""

from __future__ import annotations

import datetime
import json
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import estimation
from estimation.runs.fit_selectors import fit_export
from surveys.models import Survey
from surveys.results.bundle_scripts import python_script, r_script, readme
from surveys.results.estimate_exports import estimates_export
from surveys.results.exports import CHUNK_BYTES, answers_csv, codebook
from surveys.results.file_names import file_stem

MEMBERS = (
    "README.txt",
    "codebook.json",
    "estimates.json",
    "analysis.py",
    "analysis.R",
    "answers.csv",
)
# Where the statistical core sits in the bundle; analysis.py puts this folder
# first on its path.
LIBRARY = "lib/"
# The Django side of the package and what Python writes beside the sources.
_NOT_CORE = {"runs", "__pycache__"}


class _Sink:
    """A write-only stream whose bytes are taken away as the zip grows."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def write(self, data: bytes) -> int:
        self.buffer += data
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = bytes(self.buffer)
        self.buffer.clear()
        return data


def folder(survey: Survey) -> str:
    """The folder the bundle unpacks into, named as the zip is."""
    return f"{file_stem(survey)}-analysis/"


def core_files() -> dict[str, bytes]:
    """The pure core's files as the bundle holds them (``lib/estimation/...``).

    Read from the installed package's folder, so whatever modules and
    sub-packages it has at the time are carried: nothing here names one.
    """
    package = Path(estimation.__file__).resolve().parent
    files = {}
    for path in sorted(package.rglob("*")):
        inside = path.relative_to(package)
        if path.is_dir() or _NOT_CORE.intersection(inside.parts):
            continue
        if path.suffix in {".pyc", ".pyo"}:
            continue
        files[f"{LIBRARY}estimation/{inside.as_posix()}"] = path.read_bytes()
    return files


def bundle_zip(survey: Survey) -> Iterator[bytes]:
    """The bundle as zip bytes, in chunks of about :data:`CHUNK_BYTES`."""
    book = codebook(survey)
    estimates = estimates_export(survey)
    moment = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    small: dict[str, str | bytes] = {
        "README.txt": readme(book, moment),
        "codebook.json": json.dumps(book, indent=2, allow_nan=False) + "\n",
        "estimates.json": json.dumps(estimates, indent=2, allow_nan=False) + "\n",
        "analysis.py": python_script(book, estimates),
        "analysis.R": r_script(book, estimates, fit_export(survey)),
        **core_files(),
    }
    yield from zip_stream(folder(survey), small, answers_csv(survey))


def zip_stream(
    root: str, small: Mapping[str, str | bytes], csv_chunks: Iterable[bytes | str]
) -> Iterator[bytes]:
    """A zip of the ``small`` members (text or bytes) and ``answers.csv`` fed
    from ``csv_chunks``, under the folder ``root``, yielded as it is written."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in small.items():
            data = content.encode() if isinstance(content, str) else content
            archive.writestr(root + name, data)
        yield sink.take()
        with archive.open(root + "answers.csv", "w", force_zip64=True) as member:
            for chunk in csv_chunks:
                member.write(chunk.encode() if isinstance(chunk, str) else chunk)
                if len(sink.buffer) >= CHUNK_BYTES:
                    yield sink.take()
    yield sink.take()
