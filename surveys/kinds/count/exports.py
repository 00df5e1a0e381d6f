"""A count in the exports: its codebook entry says what its codes mean and
how its mean and distribution are estimated; otherwise its design decides (the
``exports`` role; every kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from typing import Any

from estimation.count_distribution import MAX_HALF_WIDTH
from surveys.kinds.base import no_yes_epsilon as yes_epsilon
from surveys.models import Question
from surveys.respond.report_labels import code_label as report_label
from surveys.respond.report_labels import code_rows as reported_labels
from surveys.respond.report_labels import never_relabelled as relabels
from surveys.respond.report_labels import option_codes as report_codes
from surveys.results.bundle_scripts import r_by_design as r_question
from surveys.results.codebook import NO_EPSILON_NOTE as EPSILON_NOTE
from surveys.results.codebook import matrix_entry as codebook_entry
from surveys.results.codebook import no_r_packages as r_packages
from surveys.results.codebook import no_report_coding as report_coding
from surveys.results.codebook import one_column as export_columns
from surveys.results.estimate_exports import has_options as estimated
from surveys.results.estimate_exports import no_pi as group_pi

__all__ = [
    "codebook_entry",
    "EPSILON_NOTE",
    "estimated",
    "export_columns",
    "group_pi",
    "matrix_extra",
    "r_packages",
    "r_question",
    "relabels",
    "report_codes",
    "report_coding",
    "report_label",
    "reported_labels",
    "yes_epsilon",
]


def matrix_extra(question: Question) -> dict[str, Any]:
    """What a count question's codes mean, and how its mean is estimated."""
    return {
        "count": {
            "minimum": 0,
            "maximum": len(question.options) - 1,
            "codes": "the code is the count itself",
            "mean": "estimated from each report's unbiased score w solving "
            "matrix @ w = (0, 1, ..., maximum), Student's t interval "
            "(docs/methodology.md, 'Counts')",
            **_distribution_entry(question),
        }
    }


def _distribution_entry(question: Question) -> dict[str, str]:
    """A count asked with noise: how far its distribution is shown."""
    if not question.get_design().randomized:
        return {}
    return {
        "distribution": "shown in ranges of neighbouring counts, the finest "
        "whose intervals the design and the number of responses keep within "
        f"±{100 * MAX_HALF_WIDTH:.0f} points before any data; each range's "
        "share is the average of its reports' unbiased scores, Student's t "
        "interval in [0, 1]. With no such split only the mean is identified "
        "(warning distribution_not_identified), and the single counts' rows "
        "are not estimates to read on their own (docs/methodology.md, "
        "'Counts')",
    }
