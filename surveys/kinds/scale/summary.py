"""A rating scale's plain summary on the results page: how many chose each
point, in the scale's order, read from the answers when the page is shown
(one aggregate query). Answers asked plainly need no estimate."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from surveys.models import Answer, Question

FRAGMENT = "kinds/scale/summary.html"


@dataclass(frozen=True)
class ScalePoint:
    label: str
    n: int
    share: float


@dataclass(frozen=True)
class ScaleSummary:
    question: Question
    n: int
    points: tuple[ScalePoint, ...]
    fragment: str = FRAGMENT


def scale_summary(question: Question) -> ScaleSummary | None:
    """Each point's count and share, lowest point first; None before any answer."""
    counts = dict(
        Answer.objects.filter(question=question)
        .values_list("report")
        .annotate(n=Count("id"))
        .order_by()
    )
    total = sum(counts.values())
    if total == 0:
        return None
    return ScaleSummary(
        question=question,
        n=total,
        points=tuple(
            ScalePoint(label, counts.get(code, 0), counts.get(code, 0) / total)
            for code, label in enumerate(question.options)
        ),
    )
