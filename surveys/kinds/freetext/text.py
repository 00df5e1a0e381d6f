"""Free text in plain words for researchers: asked plainly and not protected,
which the builder's preview and the publish page say as a warning."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text

DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}

NOT_PROTECTED = gettext_lazy(
    "Free text is not protected: each answer is stored exactly as typed and "
    "everyone on the team who reads the exports can read it. Respondents are "
    "told so beside the box and asked not to write names or details that "
    "identify anyone; do not use free text for what the survey randomizes."
)


def summary(
    design: Any, labels: Sequence[str], n: int | None, **kwargs: Any
) -> dict[str, Any]:
    """The builder's preview and the publish page: asked plainly, no estimate
    to plan, and the warning above."""
    shown = design_summary(design, labels, None, **kwargs)
    return {
        **shown,
        "sentence": gettext(
            "Every answer is stored exactly as typed: no randomization, so no privacy."
        ),
        "warning": NOT_PROTECTED,
    }
