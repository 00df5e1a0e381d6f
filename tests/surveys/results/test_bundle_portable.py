"""The analysis bundle and the pure core run where the platform is not: in a
fresh virtual environment holding only NumPy and SciPy, with no checkout on
the path.

Slow (a virtual environment and two wheels from pip's cache, once for the
module), and run in CI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.mixed_survey import create as mixed_survey
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.results import bundle, exports
from tests.surveys.respond.responses import submit
from tests.surveys.results.test_bundle import estimated, unpack  # noqa: F401
from tests.surveys.results.test_export_round_trip import REPO

pytestmark = pytest.mark.slow

# What a researcher is told to install (README.txt), at the platform's pins.
REQUIREMENTS = ("numpy==2.4.6", "scipy==1.17.1")
# The printed table rounds shares to 4 decimals.
PRINTED = 5e-5
FIELDS = ("estimate", "ci_lower", "ci_upper")


def _run(command: list[str], **options) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, check=False, **options
    )


def _bare_environment(home: Path) -> dict[str, str]:
    """No PYTHONPATH, no Django settings, no virtual environment of ours."""
    return {"PATH": os.defpath, "HOME": str(home), "LC_ALL": "C.UTF-8"}


@pytest.fixture(scope="module")
def clean_python(tmp_path_factory) -> Path:
    """The interpreter of a new virtual environment with NumPy and SciPy only
    (no system site-packages, nothing of the checkout)."""
    place = tmp_path_factory.mktemp("clean-venv")
    done = _run([sys.executable, "-m", "venv", str(place / "venv")])
    assert done.returncode == 0, done.stderr
    python = place / "venv" / "bin" / "python"
    installing = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = _run(
        [str(python), "-m", "pip", "install", "--quiet"]
        + ["--disable-pip-version-check", *REQUIREMENTS],
        env=installing,
        cwd=place,
    )
    assert done.returncode == 0, done.stderr
    return python


def _installed(python: Path, home: Path) -> set[str]:
    done = _run(
        [str(python), "-m", "pip", "list", "--format", "json"],
        env=_bare_environment(home),
        cwd=home,
    )
    assert done.returncode == 0, done.stderr
    return {p["name"].lower() for p in json.loads(done.stdout)}


@pytest.fixture
def estimated_mixed(settings, db):
    """The benchmark's survey with every question kind and design, 200 random
    responses, estimated with Wilson intervals at 90% (subgroups shown)."""
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = mixed_survey()
    submit(survey, np.random.default_rng(29), 200)
    run = estimate_run_request(survey=survey, ci_method="wilson", level=0.9)
    estimate_run_execute(run_id=run.pk)
    return survey


def _printed_table(stdout: str) -> dict[str, dict[str, list[float]]]:
    """What analysis.py prints: per column, per label, [estimate, low, high]."""
    table: dict[str, dict[str, list[float]]] = {}
    rows: dict[str, list[float]] = {}
    number = r"(-?[0-9.e+-]+|nan|inf)"
    for line in stdout.splitlines():
        head = re.match(r"^(q\d+): .* \(n = \d+\)$", line)
        if head:
            rows = table.setdefault(head.group(1), {})
            continue
        row = re.match(rf"^  (.+): {number} \[{number}, {number}\]$", line)
        if row:
            rows[row.group(1)] = [float(row.group(i)) for i in (2, 3, 4)]
    return table


def _assert_table_is_the_dashboards(table, survey) -> int:
    book = {q["column"]: q for q in exports.codebook(survey)["questions"]}
    compared = 0
    for saved in exports.estimates_export(survey)["questions"]:
        column = saved["column"]
        printed = table[column]
        compliance = saved.get("compliance")
        if compliance:
            for parameter in compliance["parameters"]:
                shown = printed[parameter["name"]]
                for value, name in zip(shown, FIELDS, strict=True):
                    assert value == pytest.approx(parameter[name], abs=1e-12)
                    compared += 1
            continue
        labels = [o["label"] for o in book[column]["options"]]
        for option in saved["options"]:
            shown = printed[labels[option["code"]]]
            for value, name in zip(shown, FIELDS, strict=True):
                assert value == pytest.approx(option[name], abs=PRINTED), (
                    column,
                    option["code"],
                    name,
                )
                compared += 1
    return compared


def test_analysis_py_reproduces_the_dashboard_with_only_numpy_and_scipy(
    estimated_mixed, clean_python, tmp_path
):
    survey = estimated_mixed
    _, folder = unpack(survey, b"".join(bundle.bundle_zip(survey)), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    assert _installed(clean_python, home) <= {"numpy", "scipy", "pip", "setuptools"}
    # Nothing outside the bundle gives this interpreter the platform's code.
    assert not str(folder).startswith(str(REPO))
    alone = _run(
        [str(clean_python), "-c", "import estimation"],
        env=_bare_environment(home),
        cwd=folder,
    )
    assert "No module named 'estimation'" in alone.stderr

    done = _run(
        [str(clean_python), "analysis.py"], env=_bare_environment(home), cwd=folder
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Interval: wilson at level 0.9" in done.stdout
    largest = re.search(r"Largest difference from the dashboard: (\S+)", done.stdout)
    assert largest is not None, done.stdout
    assert float(largest.group(1)) <= 1e-9
    table = _printed_table(done.stdout)
    # Every question but free text, from which nothing is estimated.
    assert set(table) == {
        q["column"]
        for q in exports.codebook(survey)["questions"]
        if q.get("estimated", True)
    }
    assert _assert_table_is_the_dashboards(table, survey) > 100


def _core_files(package: Path) -> set[str]:
    return {
        path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file()
        and path.suffix != ".pyc"
        and not {"runs", "__pycache__"} & set(path.relative_to(package).parts)
    }


def test_the_pure_core_installs_alone_and_its_command_line_runs(clean_python, tmp_path):
    """packaging/rr-estimation, built from a copy of the sources (the checkout
    stays untouched), into the NumPy-and-SciPy environment; removed again
    afterwards so the bundle's test never sees it."""
    source = tmp_path / "source"
    shutil.copytree(
        REPO / "packaging" / "rr-estimation",
        source / "packaging" / "rr-estimation",
        ignore=shutil.ignore_patterns("build", "dist", "*.egg-info"),
    )
    shutil.copytree(
        REPO / "estimation",
        source / "estimation",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    installing = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    home = tmp_path / "home"
    home.mkdir()
    done = _run(
        [str(clean_python), "-m", "pip", "install", "--quiet"]
        + ["--disable-pip-version-check", str(source / "packaging" / "rr-estimation")],
        env=installing,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    try:
        assert "rr-estimation" in _installed(clean_python, home)
        probe = _run(
            [
                str(clean_python),
                "-c",
                "import importlib.util, sys, estimation\n"
                "print(estimation.__file__)\n"
                "print(importlib.util.find_spec('estimation.runs') is None)\n"
                "print(sorted({m.split('.')[0] for m in sys.modules} & "
                "{'django', 'pandas'}))",
            ],
            env=_bare_environment(home),
            cwd=home,
        )
        assert probe.returncode == 0, probe.stderr
        where, no_runs, frameworks = probe.stdout.splitlines()
        assert "site-packages" in where
        assert (no_runs, frameworks) == ("True", "[]")
        # The wheel holds every file of the core (a data file added to it
        # must be declared in its pyproject.toml) and nothing of runs/.
        assert _core_files(Path(where).parent) == _core_files(source / "estimation")
        # Warner p = 0.75, 420 Yes of 1000: (0.42 - 0.25) / 0.5 = 0.34, and
        # its variance 0.42 * 0.58 / (1000 * 0.25) (docs/methodology.md).
        case = {"design": {"name": "warner", "p": 0.75}, "counts": [580, 420]}
        done = _run(
            [str(clean_python), "-m", "estimation", "estimate"],
            input=json.dumps(case),
            env=_bare_environment(home),
            cwd=home,
        )
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["unbiased"][1] == pytest.approx(0.34, abs=1e-12)
        assert result["unbiased_covariance"][1][1] == pytest.approx(
            0.42 * 0.58 / 250, rel=1e-12
        )
    finally:
        _run(
            [str(clean_python), "-m", "pip", "uninstall", "--yes", "rr-estimation"],
            env=installing,
            cwd=tmp_path,
        )


def test_without_numpy_analysis_py_says_what_to_install(estimated, tmp_path):  # noqa: F811
    """A bare interpreter (a virtual environment without even pip) gets one
    line naming what is missing, not a traceback."""
    done = _run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")])
    assert done.returncode == 0, done.stderr
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    done = _run(
        [str(tmp_path / "bare" / "bin" / "python"), "analysis.py"],
        env=_bare_environment(home),
        cwd=folder,
    )
    assert done.returncode == 1
    assert "No module named 'numpy'" in done.stderr
    assert done.stderr.strip().endswith("pip install numpy scipy")
    assert "Traceback" not in done.stderr
