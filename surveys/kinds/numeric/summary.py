"""A number's plain summary on the results page: how many answered, the mean,
the standard deviation, the quartiles and the range of the numbers as typed.

Descriptive statistics of answers given plainly, not estimates: nothing was
randomized, so nothing needs correcting, and they are read from the answers
when the page is shown (one aggregate query), not saved by a run. Only the
aggregates are shown; the numbers themselves, like every answer row, are in
the analysts' downloads only (docs/teams.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from surveys.kinds.numeric.answer import number_text
from surveys.models import Answer, Question

FRAGMENT = "kinds/numeric/summary.html"


@dataclass(frozen=True)
class NumberSummary:
    question: Question
    n: int
    mean: str
    sd: str | None
    minimum: str
    lower_quartile: str
    median: str
    upper_quartile: str
    maximum: str
    unit: str
    fragment: str = FRAGMENT


def number_summary(question: Question) -> NumberSummary | None:
    """The summary of ``question``'s numbers; None before any is answered."""
    numbers = np.fromiter(
        Answer.objects.filter(question=question, number__isnull=False)
        .values_list("number", flat=True)
        .iterator(chunk_size=5000),
        dtype=float,
    )
    if numbers.size == 0:
        return None
    decimals = question.answer_format["decimals"]
    # Summaries get two more decimals than the answers, so a mean of whole
    # numbers reads 41.25, not 41.
    shown = decimals + 2

    def text(value: float, places: int = shown) -> str:
        return number_text(round(float(value), places), places)

    low, q1, median, q3, high = np.quantile(numbers, [0, 0.25, 0.5, 0.75, 1])
    return NumberSummary(
        question=question,
        n=int(numbers.size),
        mean=text(numbers.mean()),
        sd=text(numbers.std(ddof=1)) if numbers.size > 1 else None,
        minimum=text(low, decimals),
        lower_quartile=text(q1),
        median=text(median),
        upper_quartile=text(q3),
        maximum=text(high, decimals),
        unit=question.answer_format["unit"],
    )
