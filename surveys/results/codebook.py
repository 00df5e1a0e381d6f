"""The codebook: what each column of the answers export means and how it was made.

With the answers and this codebook anyone can re-analyse a survey without us:
each question's matrix P(report | truth) is the one the browser randomized
with, exactly as :mod:`estimation.designs` rounds it.

Its sentences are said in one language: English in the files (codebook.json,
the analysis bundle, the API), whoever downloads them, so that a re-analysis
script reads the same words from every copy; the researcher's on the codebook
page, which shows the same content.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, cast

from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from estimation import Design, survey_epsilon
from estimation.runs.comprehension import sound_check
from surveys.display_logic.questions import shown_to
from surveys.kinds import KINDS, kind_module
from surveys.languages import question_translation
from surveys.models import Answer, Question, Survey
from surveys.respond.practice import practice_wording
from surveys.respond.report_labels import report_codes
from surveys.words import active_translator

CODEBOOK_FORMAT = 1
# The language of the files' sentences (see the module's docstring).
FILE_LANGUAGE = "en"
ORIENTATION = gettext_lazy(
    "matrix[t][r] = P(report r | true answer t): rows are true answers, columns "
    "are reported answers, both by option code; each row sums to 1."
)
REANALYSE = gettext_lazy(
    "python -m estimation estimate --codebook codebook.json answers.csv "
    "(or answers.jsonl) tallies each column and prints the same estimates, "
    "intervals and subgroup breakdowns as the platform, with --level and "
    "--ci-method to choose the interval. For R, see docs/methodology.md, "
    "section 'Re-analysing the data in R'; for yes/no designs each question's "
    "r_packages gives the parameters of rr::rrreg and RRreg::RRuni, taken from "
    "the matrix and following those packages' documentation."
)


# What a kind adds to the survey's epsilon note when one of its questions is
# in the survey: the default ``EPSILON_NOTE`` of a kind's ``exports`` role.
NO_EPSILON_NOTE = ""

MISSING = gettext_lazy(
    "empty cell in CSV, null in JSON lines: skipped, or prefer not to answer. "
    "Only optional questions can be missing: a direct one left unanswered, or a "
    "randomized one answered 'prefer not to answer', which is sent as it is, "
    "not randomized. Estimates use only those who answered (n per question, "
    "no imputation); see docs/methodology.md, section 'Missing answers'."
)


def answer_columns(survey: Survey) -> list[tuple[str, Question]]:
    """The export's question columns, ``q1 .. qN`` in question order: ``qN`` is
    the question the survey page shows as number N."""
    return [(f"q{i}", q) for i, q in enumerate(survey.questions.all(), start=1)]


def question_number(column: str) -> int:
    """The question's number as the survey shows it (1-based), from its column."""
    return int(column[1:])


def item_column(column: str, code: int) -> str:
    """Check all that apply: the export column of item ``code`` (0-based) of
    the question in ``column``, numbered from 1 as the items are shown."""
    return f"{column}_{code + 1}"


# The ``item`` of an export column that holds a typed answer (a number) as
# typed, not a report's code (surveys/kinds/numeric/exports.py).
TYPED_VALUE = -1


# The ``item`` of an export column that holds words as typed (free text) in
# place of a code: a string, exactly as stored.
TYPED_TEXT = -2


class Split(NamedTuple):
    """The ``item`` of an export column that holds one part of a code cut at
    ``at``: ``part`` "group" is 1 when the code is at least ``at``, else 0;
    "rest" is the code less ``at`` when it is at least ``at``, else the code.
    A list experiment's columns of the list shown and of the count, so that
    SPSS and Stata users need not decode its code."""

    at: int
    part: str


# What an export column's ``item`` may be: None (the code), an item's bit,
# TYPED_VALUE or TYPED_TEXT, or a part of a split code.
ExportItem = int | Split | None


def value_column(column: str) -> str:
    """The export column of a typed answer (a number) of the question in
    ``column``: beside its code, ``qN`` (its range), ``qN_value``."""
    return f"{column}_value"


def export_columns(survey: Survey) -> list[tuple[str, Question, ExportItem]]:
    """The answers export's columns after ``response`` and ``received_on``:
    ``(name, question, item)``, one per question (``item`` None), and for
    check all that apply one per item instead (``q3_1 .. q3_m``, ``item`` its
    code) holding 0 or 1, so that SPSS and Stata users need not decode a mask."""
    columns: list[tuple[str, Question, ExportItem]] = []
    for name, question in answer_columns(survey):
        columns += kind_module(question.kind, "exports").export_columns(name, question)
    return columns


def one_column(name: str, question: Question) -> list[tuple[str, Question, None]]:
    """One column per question: the default ``export_columns`` of a kind's
    ``exports`` role."""
    return [(name, question, None)]


def layout(survey: Survey) -> dict[str, Any]:
    """The columns of the CSV and JSON lines exports and what they hold."""
    columns = [
        {
            "name": "response",
            "meaning": gettext(
                "running number 1..n in no meaningful order (ids are random)"
            ),
        },
        {
            "name": "received_on",
            "meaning": gettext("date the response arrived (ISO 8601)"),
        },
    ]
    number = {q.pk: question_number(name) for name, q in answer_columns(survey)}
    columns += [
        {
            "name": name,
            "meaning": _column_meaning(
                number[q.pk], item, kind_module(q.kind, "exports").TEXT_MEANING
            ),
        }
        for name, q, item in export_columns(survey)
    ]
    return {
        "row": gettext("one response"),
        "columns": columns,
        "codes": gettext(
            "a reported option's code is its index 0..k-1 in the question's "
            "options (0 = No, 1 = Yes for yes/no), which is the matrix's column; "
            "an empty cell (CSV) or null (JSON) is a missing answer; a question "
            "with a validation arm also has codes k..2k-1, its direct answers (see "
            "its direct_codes). Each question's report_codes label every code as "
            "the respondent saw it: a crosswise question's reports are the pairing "
            "of its two statements (0 exactly one is true, 1 both or neither), not "
            "No and Yes; a question with a device instruction reports group and "
            "answer. Check all that apply has one 0/1 column per item (its "
            "item_columns), 1 = sent ticked; a missing answer is empty in every "
            "item column"
        ),
        "missing": str(MISSING),
        "respondent_key": gettext("omitted"),
        "question_numbers": gettext(
            "questions are numbered 1..N in the survey's order, as respondents "
            "saw them: column qN holds question N; question_id is the "
            "platform's internal id, not a number to read"
        ),
    }


# What a column of words holds (``TYPED_TEXT``), unless its kind's
# ``exports`` role says otherwise (a sealed answer: an envelope).
TEXT_MEANING = gettext_lazy(
    "question %(number)s: the words as typed (text, not protected; "
    "empty when not answered)"
)


def _column_meaning(
    number: int, item: ExportItem, text_meaning: Any = TEXT_MEANING
) -> str:
    """What an export column of question ``number`` holds."""
    if isinstance(item, Split):
        if item.part == "group":
            return gettext(
                "question %(number)s: 1 if the longer list was shown (code "
                "%(at)s or more), 0 if the shorter one"
            ) % {"number": number, "at": item.at}
        return gettext(
            "question %(number)s: the count the respondent gave (the code, less "
            "%(at)s with the longer list)"
        ) % {"number": number, "at": item.at}
    if item is None:
        text = gettext(
            "reported option code of question %(number)s (numbered as on the "
            "survey page)"
        )
    elif item == TYPED_VALUE:
        text = gettext(
            "question %(number)s: the number as typed (a decimal number, not a code)"
        )
    elif item == TYPED_TEXT:
        text = str(text_meaning)
    else:
        text = gettext(
            "question %(number)s, item %(item)s: 1 if the item was sent ticked, "
            "0 if not (a randomized report, not the tick)"
        )
    return text % {"number": number, "item": 0 if item is None else item + 1}


def _r_packages(design: Design) -> dict[str, Any] | None:
    """Parameters of R's ``rr`` and ``RRreg`` for ``design``, from the kind
    whose designs they know (``r_packages`` in its ``exports`` role)."""
    for kind in KINDS:
        found = kind_module(kind, "exports").r_packages(design)
        if found is not None:
            return cast(dict[str, Any], found)
    return None


def no_r_packages(design: Design) -> None:
    """R's packages know none of the kind's designs: the default
    ``r_packages`` of a kind's ``exports`` role."""
    return None


def question_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    exports = kind_module(question.kind, "exports")
    entry = cast(dict[str, Any], exports.codebook_entry(column, question, answered))
    return entry | check_marker(question)


def check_marker(question: Question) -> dict[str, Any]:
    """On the comprehension check's entry only: which of its codes passes, so
    other questions' entries (and other surveys' codebooks) are unchanged."""
    found = sound_check(question.survey)
    if found is None or found[0].pk != question.pk:
        return {}
    code = found[1]
    return {
        "comprehension_check": {
            "passing_code": code,
            "passing_label": str(question.options[code]),
        }
    }


PASSED_NOTE = gettext_lazy(
    "the comprehension check: a direct question, stored like any other; those "
    "whose answer is passing_code passed it. The results page's estimates "
    "among those who passed are each randomized question's subgroup of "
    "passing_code in its breakdown by this question (the estimates export's "
    "subgroups with this group_question_id and group_option_code)"
)
PRACTICE_NOTE = gettext_lazy(
    "respondents could try the randomizer on this harmless question before the "
    "real ones; its answer and report never left their browser, so it has no "
    "column and reaches no estimate"
)


def _practice_wording(survey: Survey) -> str:
    """The practice question as respondents in the survey's language read it."""
    with translation.override(survey.language):
        return practice_wording(survey, survey.language)


def teaching(survey: Survey, columns: list[tuple[str, Question]]) -> dict[str, Any]:
    """The practice round and the comprehension check, as the codebook's
    survey says them: null when the survey has none."""
    found = sound_check(survey)
    check = None
    if found is not None:
        question, code = found
        column = next(name for name, q in columns if q.pk == question.pk)
        check = {
            "column": column,
            "number": question_number(column),
            "question_id": question.pk,
            "text": question.text,
            "passing_code": code,
            "passing_label": str(question.options[code]),
            "note": str(PASSED_NOTE),
        }
    practice = (
        {"question": _practice_wording(survey), "note": str(PRACTICE_NOTE)}
        if survey.practice
        else None
    )
    return {"practice": practice, "comprehension_check": check}


def matrix_entry(
    column: str, question: Question, answered: int | None = None
) -> dict[str, Any]:
    """A question whose design is one matrix over its options: the default
    ``codebook_entry`` of a kind's ``exports`` role."""
    design = question.get_design()
    private = math.isfinite(design.epsilon)
    return {
        **_entry_head(column, question, answered),
        "options": [
            {"code": i, "label": label} for i, label in enumerate(question.options)
        ],
        "design": design.to_dict(),
        "matrix": design.matrix.tolist(),
        "matrix_orientation": str(ORIENTATION),
        "epsilon": design.epsilon if private else None,
        "privacy": "epsilon-LDP" if private else gettext("not private (asked plainly)"),
        "spec_version": question.spec_version,
        "client_spec": question.spec or question.client_spec(),
        "description": design.describe(question.options, active_translator()),
        "r_packages": _r_packages(design),
        "translations": _translations(question),
        **_report_entry(question),
        **validation_arm_entry(question),
        **kind_module(question.kind, "exports").matrix_extra(question),
    }


def _entry_head(
    column: str, question: Question, answered: int | None
) -> dict[str, Any]:
    """What every question's entry starts with, whatever its design."""
    return {
        "column": column,
        "number": question_number(column),
        "question_id": question.pk,
        "position": question.position,
        "text": question.text,
        "kind": question.kind,
        "sensitive": question.is_sensitive,
        "optional": question.optional,
        "missing": _missing_when(question),
        # Display logic: whose answers these are ("" for everyone).
        "shown_to": shown_to(
            question,
            question.survey.questions.all(),
            language=translation.get_language(),
        ),
        "answered": answered,
    }


def _missing_when(question: Question) -> str:
    """When a cell is empty: an optional question left unanswered, and a
    question with display logic not shown."""
    if question.condition is None:
        if question.optional:
            return str(MISSING)
        return gettext("never: the question must be answered")
    hidden = gettext("when the question was not shown (display logic)")
    if not question.optional:
        return hidden
    return gettext("%(missing)s; or %(hidden)s") % {
        "missing": MISSING,
        "hidden": hidden,
    }


def _report_entry(question: Question) -> dict[str, Any]:
    """Every code a cell may hold, labelled as the respondent saw it in the
    survey's language (surveys/respond/report_labels.py): the value labels of
    SPSS and Stata, and the words of the results page."""
    entry: dict[str, Any] = {
        "report_codes": [
            {"code": code, "label": label}
            for code, label in report_codes(question, question.survey.language)
        ]
    }
    return entry | kind_module(question.kind, "exports").report_coding(question)


def no_matrix_extra(question: Question) -> dict[str, Any]:
    """Nothing beyond the matrix: the default ``matrix_extra`` of a kind's
    ``exports`` role."""
    return {}


def no_report_coding(question: Question) -> dict[str, Any]:
    """The codes are the options: the default ``report_coding`` of a kind's
    ``exports`` role."""
    return {}


def validation_arm_entry(question: Question) -> dict[str, Any]:
    """A validation arm's share and codes (estimation/inference/validation.py); nothing
    for a question without one, so other codebooks are unchanged."""
    if not question.has_direct_arm:
        return {}
    k = len(question.options)
    return {
        "direct_percent": question.direct_percent,
        "direct_codes": [
            {"code": k + i, "label": label, "arm": "direct"}
            for i, label in enumerate(question.options)
        ],
        "validation_arm": f"{question.direct_percent}% of respondents, drawn in "
        "their browser independently of their answers, were asked this question "
        "directly and told so before answering: codes 0..k-1 are randomized "
        "reports (the matrix's columns, the only ones the estimate uses); codes "
        f"{k}..{2 * k - 1} are direct answers, not randomized, code minus {k} "
        "being the option given. The re-analysis compares the two "
        "(docs/methodology.md, 'Validation arm').",
    }


def _translations(question: Question) -> dict[str, Any]:
    """The wording respondents read in each further language the survey
    offers: the same codes, so a re-analysis knows what each language asked."""
    result = {}
    for code in question.survey.offered_languages:
        text, options = question_translation(question, code)
        result[code] = {
            "text": text,
            "options": [{"code": i, "label": label} for i, label in enumerate(options)],
        }
    return result


def codebook(survey: Survey, *, language: str = FILE_LANGUAGE) -> dict[str, Any]:
    """The survey's codebook as plain JSON-ready data, its sentences in
    ``language`` (the files': English; the page's: the researcher's)."""
    with translation.override(language):
        return _codebook(survey)


def _codebook(survey: Survey) -> dict[str, Any]:
    columns = answer_columns(survey)
    designs = [q.get_design() for _, q in columns]
    total = survey_epsilon(designs)
    responses = survey.responses.aggregate(n=Count("id"))["n"]
    answered = dict(
        Answer.objects.filter(question__survey=survey)
        .values_list("question_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {
        "format": CODEBOOK_FORMAT,
        "survey": {
            "id": survey.pk,
            "title": survey.title,
            "slug": survey.slug,
            "status": survey.status,
            "published_at": (
                survey.published_at.isoformat() if survey.published_at else None
            ),
            "responses": responses,
            "consent": survey.consent,
            "language": survey.language,
            "offered_languages": survey.offered_languages,
            "languages_note": "respondents chose among these languages; every "
            "question's translations give its wording in each, with the same "
            "option codes. Responses do not record the language.",
            "epsilon": total if math.isfinite(total) else None,
            "epsilon_note": "the sum over the randomized questions (sequential "
            "composition); direct questions are not protected and not counted"
            + "".join(
                dict.fromkeys(
                    kind_module(q.kind, "exports").EPSILON_NOTE for _, q in columns
                )
            ),
            "simulated": simulated(survey, columns),
            **teaching(survey, columns),
        },
        "layout": layout(survey),
        "matrix_orientation": str(ORIENTATION),
        "reanalyse": str(REANALYSE),
        "questions": [
            question_entry(name, q, answered.get(q.pk, 0)) for name, q in columns
        ],
    }


def simulated(
    survey: Survey, columns: list[tuple[str, Question]]
) -> dict[str, Any] | None:
    """For a simulated survey (the demo), that its answers are not real people's
    and the true shares they were drawn from, by column; None for a real one."""
    data = survey.simulation
    if not data:
        return None
    truths = data.get("true_shares", {})
    return {
        "note": gettext(
            "These answers were simulated on the server with the browser's own "
            "mechanisms (surveys/builder/demo_answers.py), not given by people."
        ),
        "respondents": data.get("respondents"),
        "seed": data.get("seed"),
        "true_shares": {
            name: truths[str(q.pk)]["overall"]
            for name, q in columns
            if str(q.pk) in truths
        },
    }


def page_questions(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The codebook's questions with each matrix row beside its true answer
    and each column headed by the report it is, as the respondent saw it
    (check all that apply: one item's two-by-two matrix)."""
    return [
        {
            **q,
            # A number's entry keeps its format under "number" (the file's
            # key); the page numbers the question from its column.
            "shown_number": question_number(q["column"]),
            "kind_label": Question.Kind(q["kind"]).label,
            **_matrix_labels(q),
        }
        for q in data["questions"]
    ]


def _matrix_labels(entry: dict[str, Any]) -> dict[str, Any]:
    if not entry["options"]:
        # Free text: words as typed, no report to tabulate against a truth.
        return {"matrix_columns": [], "matrix_rows": []}
    if "item_values" in entry:
        truths = columns = entry["item_values"]
    else:
        truths = entry["options"]
        width = len(entry["matrix"][0])
        columns = [c for c in entry["report_codes"] if c["code"] < width]
    return {
        "matrix_columns": columns,
        "matrix_rows": list(zip(truths, entry["matrix"], strict=True)),
    }
