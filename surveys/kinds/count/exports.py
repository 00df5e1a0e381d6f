"""A count in the exports: its codebook entry says what its codes mean and
how its mean and distribution are estimated; otherwise its design decides (the
``exports`` role: the names it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from estimation.count_distribution import MAX_HALF_WIDTH
from surveys.models import Question

__all__ = ["matrix_extra"]


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
