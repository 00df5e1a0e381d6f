"""The latest finished estimates as JSON and CSV: the saved rows, never recomputed.

The numbers are those the dashboard shows, read the same way
(:func:`estimation.runs.selectors.latest_runs` and :func:`~estimation.runs.selectors.saved_rows`),
and subgroups smaller than ``DASHBOARD_MIN_GROUP_SIZE`` are withheld as the
dashboard withholds them: too imprecise to read, and able to single people out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.conf import settings

from estimation import survey_epsilon
from estimation.runs.breakdowns import NO_ANSWER, group_labels
from estimation.runs.crossed import Crossing
from estimation.runs.group_comparisons import Group, comparer_for, comparison_export
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.readings import (
    estimate_flags,
    mean_reading,
    option_reading,
    parameter_reading,
)
from estimation.runs.selectors import METHOD_NAMES, latest_runs, saved_rows
from estimation.runs.validation_arm import direct_answers, validation_export
from surveys.display_logic.questions import shown_to
from surveys.kinds import kind_module
from surveys.models import Question, Survey
from surveys.respond.report_labels import report_codes, reported_labels
from surveys.results.cells import csv_line
from surveys.results.codebook import answer_columns, teaching
from surveys.results.crossed_exports import crossed_csv, crossing_head, question_crossed

EXPORT_FORMAT = 1
NO_RUN = (
    "No estimates yet: they are saved once a computation has finished. "
    "Estimates are computed in the background after responses arrive, or when "
    "the researcher asks for them on the results page."
)
OPTION_FIELDS = (
    "reported",
    "estimate",
    "unbiased",
    "std_error",
    "ci_lower",
    "ci_upper",
)
CSV_HEADER = (
    "question_column",
    "question_id",
    "question_text",
    "group_column",
    "group_question_id",
    "group_question_text",
    "group_option_code",
    "group_option_label",
    "n",
    "option_code",
    "option_label",
    *OPTION_FIELDS,
    "level",
    "ci_method",
    "warnings",
    # Check all that apply: the band that holds for all items at once.
    "band_lower",
    "band_upper",
    # What ``reported`` counts, as the respondent saw it (a crosswise
    # question's pairing, an item sent ticked).
    "reported_label",
    # The results contract's flags of this row (estimation/contract.py).
    "flags",
    # Display logic: "among respondents shown this question: those who ...",
    # empty for a question shown to everyone.
    "shown_to",
)

Rows = dict[tuple[int, int | None, int | None], QuestionEstimate]


def _options(
    row: QuestionEstimate, labels: Sequence[str], reported: Sequence[str]
) -> list[dict[str, Any]]:
    return [
        {
            "code": o.option,
            "label": labels[o.option] if o.option < len(labels) else str(o.option),
            **{name: getattr(o, name) for name in OPTION_FIELDS},
            # What ``reported`` counts, as the respondent saw it: for a
            # crosswise question the pairing, not the option estimated.
            "reported_label": reported[o.option]
            if o.option < len(reported)
            else str(o.option),
            "flags": list(option_reading(o, row.warnings, o.option).flags),
            # Check all that apply: the band that holds for all items at once.
            **(
                {"band_lower": o.band_lower, "band_upper": o.band_upper}
                if o.band_lower is not None
                else {}
            ),
        }
        for o in row.options.all()
    ]


def _estimate(row: Any, question: Question) -> dict[str, Any]:
    """A saved row (or a crossed cell's unsaved one, which reads the same)."""
    if row is None:
        return {"n": 0, "epsilon": None, "warnings": [], "flags": [], "options": []}
    reported = reported_labels(question, question.survey.language)
    exported: dict[str, Any] = {"n": row.n, "epsilon": row.epsilon}
    if row.mean is not None:
        # A count leads with its mean (with the results contract's flags).
        maximum = max(len(question.options) - 1, 1)
        exported["mean"] = {
            **row.mean,
            "flags": list(mean_reading(row.mean, maximum).flags),
        }
    if row.distribution is not None:
        # A count asked with noise: the ranges of counts its n identifies
        # (estimation/count_distribution.py); the per-count options stay.
        exported["distribution"] = row.distribution
    exported |= {
        "warnings": row.warnings,
        "flags": list(estimate_flags(row.options.all(), row.warnings, row.mean)),
        "options": _options(row, question.options, reported),
    }
    if row.compliance is not None:
        # A question with a device instruction: its parameters, not options,
        # and what its four reported counts are, group and answer.
        exported["compliance"] = _compliance(row.compliance)
        exported["reported_labels"] = [
            label for _code, label in report_codes(question, question.survey.language)
        ]
    return exported


def _compliance(compliance: dict[str, Any]) -> dict[str, Any]:
    """A device instruction's parameters, each with its contract flags."""
    if "parameters" not in compliance:
        return compliance
    return {
        **compliance,
        "parameters": [
            {**p, "flags": list(parameter_reading(p).flags)}
            for p in compliance["parameters"]
        ],
    }


def _subgroups(
    question: Question,
    direct: Sequence[tuple[str, Question]],
    rows: Rows,
    min_size: int,
) -> tuple[list[dict[str, Any]], int]:
    """Shown subgroups by every direct question, and how many were withheld."""
    shown, hidden = [], 0
    for column, group in direct:
        for code, label in enumerate(group_labels(group)):
            row = rows.get((question.pk, group.pk, code))
            # The dashboard's rule (estimation.runs.breakdowns.breakdown); a
            # kind may estimate parameters, not options (its exports role).
            estimated = kind_module(question.kind, "exports").estimated(row)
            if row is None or row.n == 0 or row.n < min_size or not estimated:
                hidden += 1
                continue
            shown.append(
                {
                    "group_column": column,
                    "group_question_id": group.pk,
                    "group_question_text": group.text,
                    "group_option_code": code,
                    "group_option_label": label,
                    **_estimate(row, question),
                }
            )
    return shown, hidden


def has_options(row: QuestionEstimate | None) -> bool:
    """A subgroup is estimated when its row has options: the default
    ``estimated`` of a kind's ``exports`` role."""
    return bool(row is not None and row.options.all())


def _comparisons(
    question: Question,
    direct: Sequence[tuple[str, Question]],
    subgroups: Sequence[dict[str, Any]],
    level: float,
) -> list[dict[str, Any]]:
    """Per direct question, the shown subgroups compared (as on the dashboard)."""
    compared = []
    comparer = comparer_for(question.kind)
    for column, group in direct:
        shown = [
            Group(
                code=s["group_option_code"],
                label=s["group_option_label"],
                counts=tuple(o["reported"] for o in s["options"]),
                n=s["n"],
                value=comparer.exported_value(s),
            )
            for s in subgroups
            if s["group_question_id"] == group.pk
        ]
        exported = comparison_export(
            shown, question.options, question.get_design(), level, comparer
        )
        if exported is not None:
            compared.append(
                {
                    "group_column": column,
                    "group_question_id": group.pk,
                    "group_question_text": group.text,
                    **exported,
                }
            )
    return compared


def _missing(row: QuestionEstimate | None, responses: int) -> dict[str, Any]:
    """The question's missing answers among the run's responses: its ``n``
    counts only those who answered, and the estimate is among them."""
    answered = row.n + direct_answers(row) if row else 0
    missing = max(responses - answered, 0)
    return {
        "missing": missing,
        "item_nonresponse": missing / responses if responses else None,
    }


def _run(run: EstimateRun, total: float) -> dict[str, Any]:
    return {
        "id": run.pk,
        "ci_method": run.ci_method,
        "method_name": METHOD_NAMES.get(run.ci_method, run.ci_method),
        "level": run.level,
        "n": run.n,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "trigger": run.trigger,
        "survey_epsilon": total if math.isfinite(total) else None,
    }


def estimates_export(
    survey: Survey, crossing: Crossing | None = None
) -> dict[str, Any]:
    """The latest finished run's saved estimates, overall and by subgroup,
    and in the cells of two direct questions crossed when ``crossing`` has
    them (surveys/results/crossed_exports.py)."""
    columns = answer_columns(survey)
    crossed = crossing is not None and crossing.chosen
    min_size = settings.DASHBOARD_MIN_GROUP_SIZE
    _, finished = latest_runs(survey)
    head: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "survey": {"id": survey.pk, "title": survey.title, "slug": survey.slug},
        "min_group_size": min_size,
        "subgroup_rule": f"subgroups with fewer than {min_size} responses are "
        "withheld, as on the dashboard: too imprecise to read, and small "
        "groups could single out respondents",
        "missing_rule": "each question's n counts only those who answered it and "
        "its estimate is among them (no imputation); missing is run.n minus n, "
        "and item_nonresponse is missing over run.n. An optional direct "
        f"question's subgroups end with '{NO_ANSWER}' for those who left it out",
        "comparison_rule": "comparisons use only the subgroups shown: each "
        "one's estimate minus the first shown's per option (Wald interval, "
        "z-test, ratio interval on the log scale or by Fieller's method, whose "
        "ratio_upper is null with ratio_unbounded true where the data cannot "
        "bound it above) and a likelihood-ratio test across "
        "them; per item for check all that apply (the test: the smallest "
        "item's p-value times the items); for a count, of the mean (Welch "
        "interval and t-test, Wald test of equal means); for a question with a "
        "device instruction, of pi (Wald interval from both groups' standard "
        "errors, z-test, Wald test of equal pi; null where pi is at 0 or 1 in a "
        "group: not estimable) "
        "(docs/methodology.md, 'Comparing subgroups'); every interval is cut "
        "to what the difference can be ([-1, 1] for shares and pi, [-m, m] for "
        "a count's means) and each difference carries the results contract's "
        "flags",
        # Which subgroups are those who passed the comprehension check (their
        # group_question_id and group_option_code), as in the codebook.
        "comprehension_check": _passed_groups(survey, columns),
    }
    if crossed:
        assert crossing is not None
        head["crossed"] = crossing_head(crossing, {q.pk: c for c, q in columns})
    if finished is None:
        return {**head, "run": None, "message": NO_RUN, "questions": []}
    rows = saved_rows(finished)
    total = survey_epsilon(q.get_design() for _, q in columns)
    direct = [(name, q) for name, q in columns if q.in_strata]
    questions = []
    for column, question in columns:
        if not question.is_sensitive and not question.in_strata:
            # Words typed as they are: nothing is estimated from them (their
            # count is on the results page, the words in the answers export).
            continue
        # As on the dashboard: every randomized question by every direct one
        # (check all that apply per item, a count with its mean, a question
        # with a device instruction with its compliance estimates and pi).
        by_groups = question.is_sensitive
        subgroups, hidden = (
            _subgroups(question, direct, rows, min_size) if by_groups else ([], 0)
        )
        questions.append(
            {
                "column": column,
                "question_id": question.pk,
                "text": question.text,
                "kind": question.kind,
                "sensitive": question.is_sensitive,
                "optional": question.optional,
                # Display logic: whose answers the estimates are of.
                "shown_to": shown_to(question, survey.questions.all()),
                **_estimate(rows.get((question.pk, None, None)), question),
                **_missing(rows.get((question.pk, None, None)), finished.n or 0),
                "subgroups": subgroups,
                "hidden_subgroups": hidden,
                "comparisons": _comparisons(question, direct, subgroups, finished.level)
                if by_groups
                else [],
                **validation_export(
                    question, rows.get((question.pk, None, None)), finished
                ),
            }
        )
        if crossed and by_groups:
            assert crossing is not None
            questions[-1]["crossed"] = question_crossed(crossing, question, _estimate)
    return {
        **head,
        "run": _run(finished, total),
        "message": None,
        "questions": questions,
    }


def _passed_groups(
    survey: Survey, columns: list[tuple[str, Question]]
) -> dict[str, Any] | None:
    """The comprehension check, named as the subgroups name their group: the
    estimates among those who passed are the subgroups of its passing code."""
    check = teaching(survey, columns)["comprehension_check"]
    if check is None:
        return None
    return {
        "group_column": check["column"],
        "group_question_id": check["question_id"],
        "group_question_text": check["text"],
        "group_option_code": check["passing_code"],
        "group_option_label": check["passing_label"],
        "rule": "the subgroups with this group_question_id and "
        "group_option_code are the estimates among those who passed the "
        "comprehension check, withheld below min_group_size as any subgroup",
    }


def estimates_csv(survey: Survey, crossing: Crossing | None = None) -> Iterator[str]:
    """One CSV row per option, overall (empty group columns) and per subgroup;
    with a ``crossing``, the crossed cells' rows instead (crossed_exports.py).

    Text cells are neutralised (a label such as ``=1+1`` gets a leading
    ``'``); numbers are written as numbers, a negative unbiased estimate as
    ``-0.01``, so that R, Stata and spreadsheets read them as numbers.
    """
    data = estimates_export(survey, crossing)
    if crossing is not None and crossing.chosen:
        yield from crossed_csv(data, CSV_HEADER, _question_lines)
        return
    yield csv_line(CSV_HEADER)
    run = data["run"]
    if run is None:
        return
    for question in data["questions"]:
        lead = [question["column"], question["question_id"], question["text"]]
        groups = [({}, question), *((g, g) for g in question["subgroups"])]
        for group, estimate in groups:
            for line in _question_lines(lead, group, estimate, run):
                yield _with_cell(line, question["shown_to"])


def _with_cell(line: str, value: str) -> str:
    """A CSV line (ending in a newline, see ``csv_line``) with one more cell."""
    return line.removesuffix("\n") + "," + csv_line([value])


def _question_lines(
    lead: list[Any],
    group: dict[str, Any],
    estimate: dict[str, Any],
    run: dict[str, Any],
) -> Iterator[str]:
    """One question's rows in one group: a device instruction's parameters
    (pi, gamma, beta or pi, t; its test of "no cheating" is in the JSON
    export), else a count's mean and the ranges of counts its n identifies
    (flagged in ``warnings`` where single counts are not identified on their
    own), then every option or item. Rows that are not an option have no
    option code and name what they are in ``option_label``."""
    codes = ";".join(w.get("code", "") for w in estimate["warnings"])
    head = [
        *lead,
        group.get("group_column"),
        group.get("group_question_id"),
        group.get("group_question_text"),
        group.get("group_option_code"),
        group.get("group_option_label"),
        estimate["n"],
    ]

    def line(
        code: int | None,
        label: str,
        values: Sequence[Any],
        method: str,
        extra: Sequence[Any],
        flags: Iterable[str],
    ) -> str:
        return csv_line(
            [*head, code, label, *values, run["level"], method, codes, *extra]
            + [";".join(flags)]
        )

    if "parameters" in (estimate.get("compliance") or {}):
        for parameter in estimate["compliance"]["parameters"]:
            values = [None, parameter["estimate"], None, *_interval(parameter)]
            yield line(
                None,
                parameter["name"],
                values,
                run["ci_method"],
                (None, None, None),
                parameter.get("flags", []),
            )
        return
    mean = estimate.get("mean")
    if mean is not None:
        values = [None, mean["estimate"], mean["unbiased"], *_interval(mean)]
        method = mean.get("method", run["ci_method"])
        yield line(None, "mean", values, method, (None,) * 3, mean.get("flags", []))
    distribution = estimate.get("distribution") or {}
    for shown in distribution.get("bins", []):
        low, high = shown["low"], shown["high"]
        label = f"counts {low}" if low == high else f"counts {low}-{high}"
        values = [None, shown["estimate"], shown["unbiased"], *_interval(shown)]
        method = distribution.get("method", run["ci_method"])
        flags = parameter_reading(shown).flags
        yield line(None, label, values, method, (None,) * 3, flags)
    for option in estimate["options"]:
        extra = (
            option.get("band_lower"),
            option.get("band_upper"),
            option["reported_label"],
        )
        yield line(
            option["code"],
            option["label"],
            [option[name] for name in OPTION_FIELDS],
            run["ci_method"],
            extra,
            option.get("flags", []),
        )


def _interval(reading: dict[str, Any]) -> tuple[Any, Any, Any]:
    return reading["std_error"], reading["ci_lower"], reading["ci_upper"]
