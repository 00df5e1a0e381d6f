"""Asking directly in plain words for researchers (also a count's design)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from estimation import Direct


def direct_sentence(design: Direct, labels: Sequence[str]) -> str:
    return (
        "Every respondent's answer is sent as given: no randomization, so no privacy."
    )


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    Direct.name: direct_sentence,
}
