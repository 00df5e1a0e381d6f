"""Researcher downloads: the answers, the codebook and the estimates.

The answer rows and the codebook need an analyst; the estimates, any role
(surveys/team/roles.py). A survey the user has no role on is a 404.
Each view looks the survey up, calls one export function and responds; large
files are streamed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from django.contrib.auth.decorators import login_required
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from estimation.runs.crossed import CrossingError
from surveys.builder.selectors import survey_plain
from surveys.models import Survey
from surveys.results import bundle, exports, stat_files
from surveys.results.codebook import page_questions
from surveys.results.crossed_exports import requested_crossing
from surveys.results.file_names import download_name
from surveys.team.audit import Action, audit_record
from surveys.team.roles import Need

CSV = "text/csv; charset=utf-8"
JSONL = "application/jsonl; charset=utf-8"
JSON = "application/json"
SAV = "application/x-spss-sav"
DTA = "application/x-stata-dta"
ZIP = "application/zip"


def download(
    survey: Survey, name: str, content: Iterable[bytes | str], content_type: str
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type=content_type)
    filename = download_name(survey, name)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def rows_downloaded(
    request: HttpRequest, survey: Survey, action: Action, file_format: str
) -> None:
    """Record a download of answer rows (or their codebook) in the audit log;
    a HEAD request downloads nothing and is not recorded."""
    if request.method == "GET":
        via = "api" if request.path.startswith("/api/") else "web"
        audit_record(
            actor=request.user,
            action=action,
            survey=survey,
            format=file_format,
            via=via,
        )


def _json(data: object) -> Iterable[str]:
    yield json.dumps(data, indent=2, allow_nan=False) + "\n"


# Every file of answer rows: its name, how it is made and its type.
ANSWER_FILES: dict[str, tuple[str, Callable[[Survey], Iterable[bytes | str]], str]] = {
    "csv": ("answers.csv", exports.answers_csv, CSV),
    "jsonl": ("answers.jsonl", exports.answers_jsonl, JSONL),
    "sav": ("answers.sav", stat_files.answers_sav, SAV),
    "dta": ("answers.dta", stat_files.answers_dta, DTA),
    "zip": ("analysis-bundle.zip", bundle.bundle_zip, ZIP),
}


def answer_rows(
    request: HttpRequest, survey: Survey, file_format: str
) -> StreamingHttpResponse:
    """A download of the answer rows in one format, written to the audit log:
    the one way, web or API, that rows leave the platform."""
    name, make, content_type = ANSWER_FILES[file_format]
    rows_downloaded(request, survey, Action.ANSWERS_DOWNLOAD, file_format)
    return download(survey, name, make(survey), content_type)


@login_required
@require_GET
def answers(request: HttpRequest, pk: int, file_format: str) -> StreamingHttpResponse:
    return answer_rows(
        request, survey_plain(request.user, pk, Need.ANALYSE), file_format
    )


@login_required
@require_GET
def codebook_json(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    survey = survey_plain(request.user, pk, Need.ANALYSE)
    rows_downloaded(request, survey, Action.CODEBOOK_DOWNLOAD, "json")
    return download(survey, "codebook.json", _json(exports.codebook(survey)), JSON)


@login_required
@require_GET
def codebook_page(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.ANALYSE)
    # The page shows what codebook.json holds: read is as good as downloaded.
    rows_downloaded(request, survey, Action.CODEBOOK_DOWNLOAD, "html")
    data = exports.codebook(survey, language=get_language())
    context = {"survey": survey, "codebook": data, "questions": page_questions(data)}
    return render(request, "surveys/codebook.html", context)


@login_required
@require_GET
def estimates_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The estimates; with ``cross_rows`` and ``cross_columns``, the cells of
    those two direct questions crossed (estimates-crossed.csv)."""
    survey = survey_plain(request.user, pk, Need.VIEW)
    try:
        crossing = requested_crossing(survey, request.GET)
    except CrossingError as error:
        return HttpResponseBadRequest(f"{error.parameter}: {error}")
    name = "estimates-crossed.csv" if crossing.chosen else "estimates.csv"
    return download(survey, name, exports.estimates_csv(survey, crossing), CSV)


@login_required
@require_GET
def estimates_json(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.VIEW)
    try:
        crossing = requested_crossing(survey, request.GET)
    except CrossingError as error:
        return HttpResponseBadRequest(f"{error.parameter}: {error}")
    data = exports.estimates_export(survey, crossing)
    return download(survey, "estimates.json", _json(data), JSON)
