"""What a stored report means in words, as the respondent saw it: decided here
once for the receipt, the results page, the codebook, SPSS and Stata, so none
of them can label a report differently.

A report is not always one of the question's options: a crosswise respondent
reports the pairing of two statements, not their answer to the sensitive one;
a question with a device instruction sends the group with the answer; a
validation arm's direct answers come after the randomized codes; and check all
that apply sends one ticked-or-not per item (exported one column per item).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation
from django.utils.translation import gettext

from surveys.kinds import kind_module
from surveys.languages import option_labels
from surveys.models import Question


def crosswise_choices() -> list[str]:
    """The two answers of a crosswise question, in the order of their codes."""
    return [
        gettext("Exactly one of the two statements is true"),
        gettext("Both statements are true, or both are false"),
    ]


def report_codes(question: Question, language: str) -> list[tuple[int, str]]:
    """Every code a report of ``question`` may hold and its label in
    ``language``, as its kind's ``exports`` role says; for check all that
    apply, the items (see :func:`item_values`)."""
    with translation.override(language):
        labels = option_labels(question, language)
        return kind_module(question.kind, "exports").report_codes(question, labels)


def option_codes(
    question: Question, labels: list[str], shown: list[str] | None = None
) -> list[tuple[int, str]]:
    """The codes of a kind whose reports are its options (or the words
    ``shown`` in their place), then a validation arm's direct answers: the
    default ``report_codes`` of a kind's ``exports`` role."""
    codes = list(enumerate(labels if shown is None else shown))
    if question.has_direct_arm:
        # A validation arm's direct answer is the option's code plus k
        # (estimation/inference/validation.py).
        codes += [
            (
                len(labels) + i,
                gettext("%(option)s (asked directly)") % {"option": o},
            )
            for i, o in enumerate(labels)
        ]
    return codes


def item_values(language: str) -> dict[int, str]:
    """The two values of one item of check all that apply, as the respondent
    saw its box; an export's 0/1 is the randomized report, not the tick."""
    with translation.override(language):
        return {0: gettext("Not ticked"), 1: gettext("Ticked")}


def reported_labels(question: Question, language: str) -> list[str]:
    """What each estimate row's count of reports counts, row by row: report
    code ``i`` for option ``i`` (a crosswise "Yes" row counts the reports
    "both or neither"), for check all that apply item ``i`` sent ticked."""
    labels = option_labels(question, language)
    exports = kind_module(question.kind, "exports")
    return exports.reported_labels(question, labels, language)


def code_rows(question: Question, labels: list[str], language: str) -> list[str]:
    """Row ``i`` counts the reports of code ``i``: the default
    ``reported_labels`` of a kind's ``exports`` role."""
    codes = dict(report_codes(question, language))
    return [codes[code] for code in range(len(labels))]


def relabelled_reports(
    questions: Iterable[Question], language: str
) -> dict[int, list[str]]:
    """The questions whose reports are not their options (crosswise, device
    instructions), by id: every report code's label, for the results page to
    say what was reported beside what is estimated."""
    return {
        question.pk: [label for _code, label in report_codes(question, language)]
        for question in questions
        if kind_module(question.kind, "exports").relabels(question)
    }


def never_relabelled(question: Question) -> bool:
    """The reports are the options: the default ``relabels`` of a kind's
    ``exports`` role."""
    return False


def report_label(question: Question, language: str, report: int) -> str:
    """One stored report in words, for the receipt: its code's label, or for
    check all that apply the items that were sent ticked."""
    labels = option_labels(question, language)
    exports = kind_module(question.kind, "exports")
    return exports.report_label(question, labels, language, report)


def code_label(
    question: Question, labels: list[str], language: str, report: int
) -> str:
    """One report's code in words: the default ``report_label`` of a kind's
    ``exports`` role."""
    if question.has_direct_arm and report >= len(labels):
        # The respondent was told they were asked directly: the option.
        return labels[report - len(labels)]
    return dict(report_codes(question, language))[report]
