"""Exports through the API: the same files as the results page's downloads.

The answers stream block by block (memory stays flat at any size); errors are
JSON like everywhere else in the API, whatever the client asked to accept.
"""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from estimation.runs.crossed import Crossing, CrossingError
from surveys.results import exports
from surveys.results.crossed_exports import requested_crossing
from surveys.results.export_views import (
    CSV,
    DTA,
    SAV,
    ZIP,
    answer_rows,
    download,
    rows_downloaded,
)
from surveys.team.audit import Action
from surveys.team.roles import Need

from .views import SurveyScoped

# Answer rows, and the codebook that reads them: analysts and above only.
ROWS = {method: Need.ANALYSE for method in ("GET", "HEAD", "OPTIONS")}


class ExportView(SurveyScoped, APIView):
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """Downloads carry their own type; everything else here is JSON."""
        return super().perform_content_negotiation(request, force=True)


def _file(media_type: str, text: str) -> dict[tuple[int, str], OpenApiResponse]:
    return {(200, media_type): OpenApiResponse(OpenApiTypes.STR, description=text)}


class AnswersCsv(ExportView):
    needs = ROWS

    @extend_schema(
        responses=_file(
            "text/csv",
            "One row per response (respondent key omitted): response, received_on, "
            "then q1..qN holding each reported option's code (check all that "
            "apply: qN_1..qN_m, 1 if the item was sent ticked, 0 if not). The "
            "codebook says what the codes and columns mean.",
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        return answer_rows(request, self.survey, "csv")


class AnswersJsonl(ExportView):
    needs = ROWS

    @extend_schema(
        responses=_file(
            "application/jsonl", "The answers as JSON lines, keyed as the CSV header."
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        return answer_rows(request, self.survey, "jsonl")


class AnswersSav(ExportView):
    needs = ROWS

    @extend_schema(
        responses=_file(
            SAV,
            "The answers as an SPSS file: the CSV's columns and codes, missing "
            "answers system missing, each question's text as its variable label "
            "(cut to 256 bytes), its reports as the respondent saw them as value "
            "labels (the codebook's report_codes; items Not ticked / Ticked), "
            "the survey title as the file label and every question's design "
            "and matrix in the file's documents.",
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        return answer_rows(request, self.survey, "sav")


class AnswersDta(ExportView):
    needs = ROWS

    @extend_schema(
        responses=_file(
            DTA,
            "The answers as a Stata 15 file: the CSV's columns and codes, missing "
            "answers missing (.), value labels as in the SPSS file, the survey "
            "title as the data label; each variable label is the question text "
            "followed by its design in brackets, within Stata's 80 characters.",
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        return answer_rows(request, self.survey, "dta")


class AnalysisBundle(ExportView):
    needs = ROWS

    @extend_schema(
        responses=_file(
            ZIP,
            "One zip, streamed: answers.csv, codebook.json, estimates.json (the "
            "dashboard's saved estimates), analysis.py (runs `python -m "
            "estimation estimate` and checks it against estimates.json), "
            "analysis.R (RRreg::RRuni for every yes/no question) and README.txt.",
        )
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        return answer_rows(request, self.survey, "zip")


class Codebook(SurveyScoped, APIView):
    needs = ROWS

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="Each column's question, options, design, matrix "
                "P(report | truth) and epsilon: enough to re-analyse the answers "
                "with rr, RRreg or `python -m estimation estimate --codebook`.",
            )
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        rows_downloaded(request, self.survey, Action.CODEBOOK_DOWNLOAD, "json")
        return Response(exports.codebook(self.survey))


CROSSING = [
    OpenApiParameter(
        name,
        int,
        description="With the other: the id of a direct question whose answers "
        f"make the crossed table's {axis}; each sensitive question then has "
        "`crossed`, its estimate in every cell, small cells withheld.",
    )
    for name, axis in (("cross_rows", "rows"), ("cross_columns", "columns"))
]


def _crossing(request: Request, survey: Any) -> Crossing:
    try:
        return requested_crossing(survey, request.query_params)
    except CrossingError as error:
        raise ValidationError({error.parameter: [str(error)]}) from error


class Estimates(SurveyScoped, APIView):
    @extend_schema(
        parameters=CROSSING,
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The latest finished run's estimates, as the dashboard "
                "shows them: method, level, n, warnings, the survey's epsilon, and "
                "every option's estimate, standard error and interval, overall and "
                "by subgroup. `run` is null until a run has finished.",
            )
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        crossing = _crossing(request, self.survey)
        return Response(exports.estimates_export(self.survey, crossing))


class EstimatesCsv(ExportView):
    @extend_schema(
        parameters=CROSSING,
        responses=_file(
            "text/csv",
            "The estimates, a row per option and group; with cross_rows and "
            "cross_columns, a row per option and crossed cell.",
        ),
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        survey = self.survey
        crossing = _crossing(request, survey)
        name = "estimates-crossed.csv" if crossing.chosen else "estimates.csv"
        return download(survey, name, exports.estimates_csv(survey, crossing), CSV)
