"""What a stored report means in words, for receipts: an option's label, or
for check all that apply the items that were sent ticked."""

from __future__ import annotations

from django.utils.translation import gettext

from surveys.languages import option_labels
from surveys.models import Question


def report_label(question: Question, language: str, report: int) -> str:
    labels = option_labels(question, language)
    if question.kind != Question.Kind.MULTI_SELECT:
        # A validation arm's direct answer is stored as the option's code
        # plus k (estimation/inference/validation.py).
        return labels[report % len(labels)]
    ticked = [label for i, label in enumerate(labels) if report >> i & 1]
    return "; ".join(ticked) if ticked else gettext("Nothing sent ticked")
