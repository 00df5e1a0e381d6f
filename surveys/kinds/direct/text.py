"""Asking directly in plain words for researchers (also a count's design)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext

from estimation import Direct
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text


def direct_sentence(design: Direct, labels: Sequence[str]) -> str:
    return gettext(
        "Every respondent's answer is sent as given: no randomization, so no privacy."
    )


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    Direct.name: direct_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
