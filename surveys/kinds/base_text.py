"""What the kinds answered in the respondent's own words share: free text
(surveys/kinds/freetext/, stored as typed) and a sealed open answer
(surveys/kinds/sealed/, stored as its browser sealed it). Each is asked
plainly with no options and no design to choose, up to a limit of characters
the researcher sets; its report is 0 (answered) with its value beside it; it is
no category, so nothing is estimated from it and a run saves no row for it;
the results page counts its answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from estimation import Design, design_from_dict
from estimation.runs.models import EstimateRun, OptionEstimate
from surveys.display_logic.conditions import condition_met, condition_questions
from surveys.kinds.form_fields import PlacedField
from surveys.models import Answer, Question, Response
from surveys.results.codebook import TYPED_TEXT

TAKES_VALUE = True
DEFAULT_LIMIT = 500
# Long enough for a paragraph or two; short enough that a comment box is not
# a place for documents (and a Stata strL is rarely needed).
MAX_LIMIT = 2000
# The report of every such answer: it was answered. The value is the answer.
ANSWERED = 0

# -- the builder ------------------------------------------------------------

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
# No options to list: its card says what its answers are instead.
LISTS_OPTIONS = False
NOT_OPTIONAL = None
# Asking directly needs two codes: 0 is "answered", 1 is never sent.
_CODES = 2


def build_design(options: Sequence[str], design: Mapping[str, Any]) -> Design:
    """Asked directly, whatever ``k`` was given: its report only says it was
    answered (code 0)."""
    return design_from_dict({"name": "direct", "k": _CODES})


def clean_format(
    answer_format: Mapping[str, Any] | None, *, language: str
) -> tuple[dict[str, Any], list[str]]:
    """``{"max_length"}`` checked: a whole number from 1 to MAX_LIMIT,
    DEFAULT_LIMIT when not given. No options."""
    given = dict(answer_format or {})
    unknown = set(given) - {"max_length"}
    if unknown:
        raise ValidationError(
            {
                "answer_format": gettext("Unknown format field(s): %(fields)s.")
                % {"fields": ", ".join(sorted(unknown))}
            }
        )
    limit = given.get("max_length")
    if limit is None:
        limit = DEFAULT_LIMIT
    if (
        isinstance(limit, bool)
        or not isinstance(limit, int)
        or not 1 <= limit <= MAX_LIMIT
    ):
        raise ValidationError(
            {
                "answer_format": gettext(
                    "max_length, the most characters an answer may have, must be "
                    "a whole number from 1 to %(most)s."
                )
                % {"most": MAX_LIMIT}
            }
        )
    return {"max_length": limit}, []


# -- the builder's form -----------------------------------------------------

FIXED_DESIGN = "direct"
FIELDS = {
    "text_max_length": PlacedField(
        45,
        forms.IntegerField(
            required=False,
            initial=DEFAULT_LIMIT,
            min_value=1,
            max_value=MAX_LIMIT,
            label=gettext_lazy("Most characters an answer may have"),
            help_text=lazy(
                lambda: (
                    gettext(
                        "1 to %(most)s characters, %(default)s if left empty; the "
                        "browser and the server both check it. Free text is not "
                        "protected: it is stored exactly as typed. A sealed open "
                        "answer is encrypted in the browser for the team's key. "
                        "Respondents are told which."
                    )
                    % {"most": MAX_LIMIT, "default": DEFAULT_LIMIT}
                ),
                str,
            )(),
        ),
    ),
}
PARAMETER_FIELDS: dict[str, str] = {}


def labels(form: Any) -> list[str] | None:
    """No options; the limit is kept in the form's ``answer_format`` for the
    service."""
    data = form.cleaned_data
    limit = data.get("text_max_length")
    try:
        cleaned, options = clean_format(
            {} if limit is None else {"max_length": limit}, language=""
        )
    except ValidationError as error:
        for message in error.message_dict.get("answer_format", []):
            form.add_error("text_max_length", message)
        return None
    data["answer_format"] = cleaned
    return options


def used_fields(name: str, mode: str) -> tuple[str, ...]:
    return tuple(FIELDS)


def design_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    return {"name": name, "k": 2}


def initial(question: Any) -> dict[str, Any]:
    return {
        "options": "",
        "text_max_length": question.answer_format.get("max_length", DEFAULT_LIMIT),
    }


# -- the exports ------------------------------------------------------------


def export_columns(
    name: str, question: Question
) -> list[tuple[str, Question, int | None]]:
    """One column: the value as stored, in place of a code."""
    return [(name, question, TYPED_TEXT)]


def reported_labels(question: Question, labels: list[str], language: str) -> list[str]:
    return []


def estimated(row: Any) -> bool:
    """Nothing is estimated from words."""
    return False


# -- a run and the results page ---------------------------------------------


def question_rows(
    question: Question,
    *,
    overall: dict[int, int],
    subgroups: Any,
    run: EstimateRun,
) -> list[dict[str, Any]]:
    """No estimate: a run saves nothing for it."""
    return []


def save_row(run: EstimateRun, row: dict[str, Any]) -> list[OptionEstimate]:
    raise ValueError("an answer in one's own words has no estimate rows to save")


@dataclass(frozen=True)
class TextSummary:
    question: Question
    n: int
    # Responses it was shown to: every response, unless it has display logic.
    of: int
    limit: int
    fragment: str


def text_summary(question: Question, fragment: str) -> TextSummary:
    """The count of ``question``'s answers and of those it was shown to,
    shown with the kind's ``fragment``."""
    answered = Answer.objects.filter(question=question).count()
    if question.condition is None:
        shown = Response.objects.filter(survey_id=question.survey_id).count()
    else:
        shown = _shown_count(question)
    return TextSummary(
        question=question,
        n=answered,
        of=shown,
        limit=question.answer_format["max_length"],
        fragment=fragment,
    )


def _shown_count(question: Question) -> int:
    """Responses whose answers meet the question's condition, read from the
    answers to the questions it names (a number's clause reads the number as
    typed, as the page and the server do)."""
    condition = question.condition
    rows = (
        Answer.objects.filter(question_id__in=condition_questions(condition))
        .order_by("response_id")
        .values_list("response_id", "question_id", "report", "number")
        .iterator(chunk_size=5000)
    )
    shown = 0
    for _, answers in groupby(rows, key=itemgetter(0)):
        reports: dict[int, float | None] = {}
        numbers: dict[int, float] = {}
        for _, question_id, report, number in answers:
            reports[question_id] = report
            if number is not None:
                numbers[question_id] = number
        shown += condition_met(condition, reports, numbers)
    return shown
