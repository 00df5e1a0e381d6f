"""A sealed open answer in plain words for researchers: what the seal
promises, and that a lost passphrase loses every answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text

DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}

SEALED_WARNING = gettext_lazy(
    "Sealed: each answer is encrypted in the respondent's browser for the "
    "survey's team key, and only someone holding the team's key file and its "
    "passphrase can read it. If the passphrase is lost, every answer to this "
    "question is lost: no one, the platform's operators included, can recover "
    "it. The survey needs a team key before it is published."
)


def summary(
    design: Any, labels: Sequence[str], n: int | None, **kwargs: Any
) -> dict[str, Any]:
    """The builder's preview and the publish page: not randomized, no estimate
    to plan, and what the seal means."""
    shown = design_summary(design, labels, None, **kwargs)
    return {
        **shown,
        "sentence": gettext(
            "Every answer is encrypted for the research team's key before it is "
            "sent: no randomization, and nothing to estimate."
        ),
        "warning": SEALED_WARNING,
    }
