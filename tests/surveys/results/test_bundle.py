"""The analysis bundle: its members, its Python script reproducing the
dashboard in a subprocess, and its R script naming the right models."""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from django.urls import reverse

from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.models import AuditEvent
from surveys.results import bundle, exports
from surveys.results.bundle_scripts import r_string
from surveys.results.file_names import download_name
from surveys.team.audit import Action
from tests.surveys.optional_data import optional_survey, store_with_missing
from tests.surveys.results.test_export_round_trip import REPO, assert_same

pytestmark = pytest.mark.django_db


@pytest.fixture
def estimated(owner, settings):
    """Optional questions with missing answers, estimated with Wilson at 90%."""
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    survey = optional_survey(owner)
    store_with_missing(survey, 300, seed=21)
    run = estimate_run_request(survey=survey, ci_method="wilson", level=0.9)
    estimate_run_execute(run_id=run.pk)
    return survey


def unpack(survey, content: bytes, tmp_path):
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert archive.testzip() is None
    archive.extractall(tmp_path)
    return archive, tmp_path / bundle.folder(survey)


def run_script(folder, *options):
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, str(folder / "analysis.py"), *options],
        cwd=folder.parent,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_bundle_holds_the_exports_and_the_scripts(estimated, tmp_path):
    archive, folder = unpack(
        estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path
    )
    root = bundle.folder(estimated)
    library = sorted(root + name for name in bundle.core_files())
    assert sorted(archive.namelist()) == sorted(
        [*(root + m for m in bundle.MEMBERS), *library]
    )
    assert (folder / "answers.csv").read_bytes() == b"".join(
        exports.answers_csv(estimated)
    )
    assert json.loads((folder / "codebook.json").read_text()) == json.loads(
        json.dumps(exports.codebook(estimated))
    )
    saved = json.loads((folder / "estimates.json").read_text())
    assert saved["run"]["ci_method"] == "wilson"
    readme = (folder / "README.txt").read_text()
    for member in bundle.MEMBERS:
        assert member in readme
    assert "Rscript analysis.R" in readme


def test_the_python_script_reproduces_the_dashboard(estimated, tmp_path):
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    done = run_script(folder, "--json")
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert (output["ci_method"], output["level"]) == ("wilson", 0.9)
    saved = exports.estimates_export(estimated)
    by_column = {q["column"]: q for q in output["questions"]}
    compared = 0
    for question in saved["questions"]:
        mine = by_column[question["column"]]
        compared += assert_same(question, mine["result"])
        groups = {
            (g["group_column"], g["group_option_code"]): g["result"]
            for g in mine["subgroups"]
        }
        for group in question["subgroups"]:
            key = (group["group_column"], group["group_option_code"])
            compared += assert_same(group, groups[key])
    assert compared > 100


def test_the_python_script_says_how_far_it_is_from_the_dashboard(estimated, tmp_path):
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    done = run_script(folder)
    assert done.returncode == 0, done.stderr
    assert "Interval: wilson at level 0.9" in done.stdout
    largest = float(re.search(r"from the dashboard: (\S+)", done.stdout).group(1))
    assert largest <= 1e-9
    # A dashboard number changed by 1e-6 is caught.
    path = folder / "estimates.json"
    saved = json.loads(path.read_text())
    saved["questions"][0]["options"][1]["estimate"] += 1e-6
    path.write_text(json.dumps(saved))
    assert run_script(folder).returncode == 1


def test_the_r_script_names_each_yes_no_questions_model_and_parameters(
    estimated, tmp_path
):
    # R is not installed here: the script's text is checked, not its run.
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    script = (folder / "analysis.R").read_text()
    book = exports.codebook(estimated)
    saved = {q["column"]: q for q in exports.estimates_export(estimated)["questions"]}
    assert "library(RRreg)" in script
    assert 'answers <- read.csv("answers.csv")' in script
    warner, forced = book["questions"][0], book["questions"][1]
    p = warner["r_packages"]["RRreg"]["p"]
    assert (
        f'fit_q1 <- tryCatch(RRuni(response = q1, model = "Warner", p = {p!r}), '
        "error = identity)"
    ) in script
    no, yes = forced["r_packages"]["RRreg"]["p"]
    assert (
        f'fit_q2 <- tryCatch(RRuni(response = q2, model = "FR", p = c({no!r}, {yes!r}))'
        in script
    )
    # The same call without RRuni's likelihood search, to tell when it searched.
    assert (
        f'moment_q2 <- tryCatch(RRuni(response = q2, model = "FR", '
        f"p = c({no!r}, {yes!r}), MLest = FALSE), error = identity)"
    ) in script
    assert forced["matrix"][1][1] == pytest.approx(1 - no)
    for column in ("q1", "q2"):
        option = saved[column]["options"][1]
        expected = f"c({option['estimate']!r}, {option['std_error']!r})"
        assert (
            f'compare("{column}", fit_{column}, moment_{column}, {expected}, '
            f"length({column}))"
        ) in script
    # The k-option and the direct question: moment estimates in base R, with
    # the dashboard's unbiased estimates beside them.
    assert "\nfit_q3" not in script
    # RRreg's FR model for k options is mentioned, commented out: not verified.
    assert '\n# RRuni(response = q3, model = "FR", p = base_q3)' in script
    assert "tabulate(q3 + 1, nbins = 4)" in script
    unbiased = ", ".join(repr(o["unbiased"]) for o in saved["q3"]["options"])
    assert f"dashboard_q3 <- c({unbiased})" in script
    assert 'agree("q3 moment estimates", unbiased_q3, dashboard_q3)' in script
    assert "asked plainly" in script
    assert "python analysis.py" in script


def test_the_r_scripts_moment_estimate_is_the_dashboards_unbiased(estimated):
    """The R lines for a k-option question compute (share - base) / diagonal;
    the same arithmetic here on the same counts gives the saved numbers."""
    from estimation import design_from_dict

    book = exports.codebook(estimated)
    entry = book["questions"][2]
    design = design_from_dict(entry["design"])
    counts = [0] * 4
    text = b"".join(exports.answers_csv(estimated)).decode().splitlines()[1:]
    for line in text:
        cell = line.split(",")[4]
        if cell:
            counts[int(cell)] += 1
    shares = [c / sum(counts) for c in counts]
    saved = exports.estimates_export(estimated)["questions"][2]["options"]
    for option, share, base in zip(saved, shares, design.base, strict=True):
        moment = (share - base) / design.diagonal
        # Same formula, two orders of float operations: a few ulps apart.
        assert moment == pytest.approx(option["unbiased"], abs=1e-12)


def test_the_bundle_carries_the_pure_core_and_nothing_else_of_the_package():
    """Every module and sub-package of estimation/ found on disk, so moving
    modules inside it needs no change to the bundle; not its Django side
    (runs/), no compiled files."""
    import estimation

    files = bundle.core_files()
    package = Path(estimation.__file__).resolve().parent
    on_disk = {
        "lib/estimation/" + p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        if "runs" not in p.relative_to(package).parts
    }
    assert on_disk <= set(files)
    assert "lib/estimation/__main__.py" in files
    assert "lib/estimation/py.typed" in files
    assert not [n for n in files if "/runs/" in n or "__pycache__" in n]
    assert not [n for n in files if n.endswith((".pyc", ".pyo"))]
    assert files["lib/estimation/designs.py"] == (package / "designs.py").read_bytes()
    # The sources compress to a few hundred kilobytes at most.
    assert sum(len(data) for data in files.values()) < 1_500_000


def test_r_strings_escape_quotes_backslashes_and_newlines():
    assert r_string('a "b" \\ c\nd') == '"a \\"b\\" \\\\ c\\nd"'


def test_without_a_run_the_scripts_use_the_defaults_and_say_so(open_survey, tmp_path):
    _, folder = unpack(open_survey, b"".join(bundle.bundle_zip(open_survey)), tmp_path)
    assert "CI_METHOD = None" in (folder / "analysis.py").read_text()
    assert "no run yet" in (folder / "analysis.R").read_text()


def test_the_bundle_is_streamed_in_bounded_chunks(open_survey, monkeypatch):
    """The CSV member is compressed and passed on as the CSV arrives: chunks
    come out while the source is still being read, none much over the
    chunk size, and the zip is whole."""
    rng = np.random.default_rng(3)
    rows = 20_000
    read = []

    def csv_source(survey):
        for start in range(0, rows, 1000):
            read.append(start)
            block = rng.integers(0, 10**9, size=(1000, 4))
            yield "".join(",".join(map(str, r)) + "\n" for r in block).encode()

    monkeypatch.setattr(bundle, "answers_csv", csv_source)
    monkeypatch.setattr(bundle, "CHUNK_BYTES", 4096)
    stream = bundle.bundle_zip(open_survey)
    next(stream)  # the small members
    second = next(stream)
    assert len(read) < rows // 1000  # the source is not read to the end first
    chunks = [second, *stream]
    assert len(read) == rows // 1000
    assert len(chunks) > 5
    # A chunk is taken as soon as the sink holds CHUNK_BYTES; one write of
    # the compressor adds at most its own output buffer (64 KB) on top.
    assert max(len(c) for c in chunks) < 4096 + (1 << 16)


@pytest.mark.parametrize("path", ["web", "api"])
def test_an_analyst_downloads_the_bundle_and_it_is_logged(
    client, estimated, tmp_path, path, owner
):
    from rest_framework.test import APIClient

    if path == "web":
        client.force_login(owner)
        address = reverse("surveys:export_analysis_bundle", args=[estimated.pk])
    else:
        client = APIClient()
        client.force_authenticate(owner)
        address = f"/api/v1/surveys/{estimated.pk}/analysis-bundle.zip"
    response = client.get(address)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == (
        f'attachment; filename="{download_name(estimated, "analysis-bundle.zip")}"'
    )
    archive, _ = unpack(estimated, b"".join(response.streaming_content), tmp_path)
    assert len(archive.namelist()) == len(bundle.MEMBERS) + len(bundle.core_files())
    event = AuditEvent.objects.filter(survey=estimated).latest("id")
    assert event.action == Action.ANSWERS_DOWNLOAD
    assert event.detail == {"format": "zip", "via": path}


def test_the_results_page_links_to_the_bundle(client, estimated, owner):
    client.force_login(owner)
    page = client.get(reverse("surveys:results", args=[estimated.pk])).content
    address = reverse("surveys:export_analysis_bundle", args=[estimated.pk])
    assert address in page.decode()


def _rruni(model: str, p, reports: list[int]) -> tuple[float, float]:
    """RRreg's RRuni moment estimate of pi and its standard error, transcribed
    from RRreg's R/RRuni_models.R (RRuni.Warner, .Crosswise, .UQTknown, .FR):
    every one divides by n - 1."""
    n, yes = len(reports), sum(reports)
    share = yes / n
    if model in ("Warner", "Crosswise"):
        return (share + p - 1) / (2 * p - 1), math.sqrt(
            share * (1 - share) / ((n - 1) * (2 * p - 1) ** 2)
        )
    if model == "UQTknown":
        return (share - (1 - p[0]) * p[1]) / p[0], math.sqrt(
            share * (1 - share) / ((n - 1) * p[0] ** 2)
        )
    assert model == "FR"
    truth = 1 - sum(p)
    return (share - p[1]) / truth, math.sqrt(share * (1 - share) / (truth**2 * (n - 1)))


@pytest.mark.parametrize(
    "design",
    [
        {"name": "warner", "p": 0.75},
        {"name": "crosswise", "p": 0.3},
        {"name": "forced_response", "p_truth": 0.6, "p_forced": [0.15, 0.25]},
        {"name": "unrelated_question", "p": 0.7, "q": 0.4},
    ],
    ids=lambda d: d["name"],
)
@pytest.mark.parametrize("counts", [(580, 420), (13, 17)])
def test_rrunis_standard_error_is_ours_times_the_root_of_n_over_n_minus_1(
    design, counts
):
    """What analysis.R tells its reader: with the model and p the codebook
    gives RRreg, RRuni's estimate is the dashboard's and its standard error
    the dashboard's times sqrt(n / (n - 1)), for every yes/no design."""
    from estimation import design_from_dict, estimate_question
    from surveys.results.codebook import _r_packages

    built = design_from_dict(design)
    model = _r_packages(built)["RRreg"]
    reports = [0] * counts[0] + [1] * counts[1]
    theirs, their_error = _rruni(model["model"], model["p"], reports)
    ours = estimate_question(list(counts), built)
    assert 0 < ours.estimate[1] < 1  # inside: no likelihood search in RRuni
    n = sum(counts)
    assert theirs == pytest.approx(ours.estimate[1], abs=1e-12)
    assert their_error == pytest.approx(
        ours.std_error[1] * math.sqrt(n / (n - 1)), rel=1e-12
    )
    assert their_error != pytest.approx(ours.std_error[1], rel=1e-4)


def test_the_r_script_states_its_tolerances_and_flags_failed_fits(estimated, tmp_path):
    _, folder = unpack(estimated, b"".join(bundle.bundle_zip(estimated)), tmp_path)
    script = (folder / "analysis.R").read_text()
    assert "TOLERANCE <- 1e-9" in script
    assert "SEARCH_TOLERANCE <- 1e-4" in script
    # The n - 1 of every model, applied before standard errors are compared.
    assert "se_factor <- function(n) sqrt(n / (n - 1))" in script
    assert "low <- dashboard[2] * min(se_factor(n))" in script
    assert "in every model" in script
    # Every parameter RRuni returns is checked to be a finite share.
    assert 'c("pi", "beta", "gamma", "t")' in script
    assert "outside [0, 1]" in script
    assert "RRreg's fit FAILED" in script
    # A fit's summary is printed only when it is an estimate.
    assert "if (is.null(fit_problem(fit_q1))) print(summary(fit_q1))" in script
    assert "print(summary(fit_q1))\n" not in script.replace(
        "if (is.null(fit_problem(fit_q1))) print(summary(fit_q1))\n", ""
    )
    readme = (folder / "README.txt").read_text()
    assert "sqrt(n / (n - 1))" in readme
    assert "1e-9" in readme
    assert "FAILED" in readme
