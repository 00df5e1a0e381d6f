"""Memory and time of the SPSS, Stata and bundle exports at 10^5 and 10^6 rows.

The three exports read the CSV export's stream (``surveys.results.exports.
answers_csv``, itself flat in memory: see the export benchmark); this measures
what each adds on top of it, fed with a synthetic CSV of the same shape (ten
questions: three yes/no, seven with four options, about 5 % missing), so no
database is needed. Each operation runs in a fresh process whose peak RSS
(``VmHWM``) is reset after the imports; the figure is how far it rises.

- ``csv``: the stream consumed and thrown away (the baseline);
- ``sav`` / ``dta``: :func:`surveys.results.stat_files.labelled_file`, what
  the exports run (the CSV kept on disk, parsed and written by pyreadstat a
  chunk of rows at a time, the rows copied into one file), read back in
  blocks;
- ``zip``: :func:`surveys.results.bundle.zip_stream` around the stream.

Target: at the largest size each export's peak RSS rise at most
``MAX_RISE_RATIO`` (2) times the CSV's; the exit status is 1 otherwise.

Run: ``python -m benchmarks.stat_files [--quick] [--json PATH]``. See
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = 10
OPTIONS = [2, 2, 2, 4, 4, 4, 4, 4, 4, 4]
BLOCK = 10_000
OPERATIONS = ("csv", "sav", "dta", "zip")
# Each export's peak RSS rise over the CSV's, at the largest size: flat.
MAX_RISE_RATIO = 2.0


def csv_chunks(n: int, seed: int = 1) -> Iterator[bytes]:
    """The CSV export of ``n`` synthetic responses, in blocks of rows."""
    import numpy as np

    rng = np.random.default_rng(seed)
    yield (
        "response,received_on," + ",".join(f"q{i}" for i in range(1, 11)) + "\n"
    ).encode()
    for start in range(0, n, BLOCK):
        size = min(BLOCK, n - start)
        codes = [rng.integers(0, k, size) for k in OPTIONS]
        missing = rng.random((QUESTIONS, size)) < 0.05
        days = rng.integers(1, 29, size)
        lines = []
        for row in range(size):
            cells = ["" if missing[q, row] else str(codes[q][row]) for q in range(10)]
            day = f"2026-02-{days[row]:02d}"
            lines.append(f"{start + row + 1},{day}," + ",".join(cells))
        yield ("\n".join(lines) + "\n").encode()


def labels() -> Any:
    from surveys.results.stat_files import Labels

    columns = [f"q{i}" for i in range(1, 11)]
    return Labels(
        file_label="Benchmark",
        variable_labels={c: f"Question {c}" for c in columns},
        value_labels={
            c: {v: f"option {v}" for v in range(k)}
            for c, k in zip(columns, OPTIONS, strict=True)
        },
        notes=["Benchmark data."],
        code_types={c: "Int8" for c in columns},
    )


def stat_file(source: Iterator[bytes], operation: str) -> Iterator[bytes]:
    """Parse, write and read back, all lazily: measured from the first block."""
    from surveys.results import stat_files

    yield from stat_files.labelled_file(source, labels(), operation)


def child(operation: str, n: int) -> dict[str, Any]:
    """Run one operation in this (fresh) process and measure it."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    import pandas  # noqa: F401  (imported before the peak is reset, as in a server)
    import pyreadstat  # noqa: F401

    from benchmarks.memory import reset_peak_rss, status_kb
    from surveys.results import bundle

    source = csv_chunks(n)
    if operation == "csv":
        stream: Iterator[bytes] = source
    elif operation == "zip":
        stream = bundle.zip_stream("bench/", {"README.txt": "x"}, source)
    else:
        stream = stat_file(source, operation)
    before = status_kb("VmRSS")
    reset_peak_rss()
    started = time.perf_counter()
    size = sum(len(block) for block in stream)
    seconds = time.perf_counter() - started
    return {
        "operation": operation,
        "n": n,
        "seconds": seconds,
        "bytes": size,
        "rss_before_mb": before / 1024,
        "peak_rise_mb": (status_kb("VmHWM") - before) / 1024,
    }


def measure(operation: str, n: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.stat_files", "--child", operation, str(n)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 and 10^5 rows")
    parser.add_argument("--json", metavar="PATH", type=Path)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        print(json.dumps(child(options.child[0], int(options.child[1]))))
        return 0
    sizes = (10**4, 10**5) if options.quick else (10**5, 10**6)
    rows = [measure(op, n) for n in sizes for op in OPERATIONS]
    print("| n | export | file | time | time / CSV | peak RSS rise |")
    print("|---:|---|---:|---:|---:|---:|")
    for row in rows:
        base = next(r for r in rows if r["n"] == row["n"] and r["operation"] == "csv")
        print(
            f"| {row['n']:,} | {row['operation']} | {row['bytes'] / 1e6:.1f} MB | "
            f"{row['seconds']:.2f} s | {row['seconds'] / base['seconds']:.2f} | "
            f"{row['peak_rise_mb']:.1f} MB |"
        )
    largest = max(sizes)
    base = next(r for r in rows if r["n"] == largest and r["operation"] == "csv")
    passed = True
    for row in rows:
        if row["n"] != largest or row["operation"] == "csv":
            continue
        ratio = row["peak_rise_mb"] / base["peak_rise_mb"]
        ok = ratio <= MAX_RISE_RATIO
        passed = passed and ok
        print(
            f"{'ok' if ok else 'MISS'}: {row['operation']} peak RSS rise at "
            f"{largest:,} rows is {ratio:.2f} x the CSV's (target ≤ {MAX_RISE_RATIO:g})"
        )
    print("PASS" if passed else "FAIL")
    if options.json:
        options.json.write_text(json.dumps(rows, indent=2))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
