"""The geometric design for counts in plain words for researchers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext

from estimation.kinds.count.designs import Geometric
from estimation.words import format_epsilon, percent_at_most
from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text
from surveys.words import active_translator


def geometric_sentence(design: Geometric, labels: Sequence[str]) -> str:
    tr = active_translator()
    return gettext(
        "Each respondent's count is sent with random noise added: at most "
        "%(changed)s of respondents send a count other than their own (the noise "
        "is geometric: small changes are likelier than large ones), and results "
        "beyond 0 or %(maximum)s are sent as 0 or %(maximum)s. Epsilon "
        "%(epsilon)s covers the whole range: any two counts are protected from "
        "each other."
    ) % {
        "changed": percent_at_most(1 - float(design.matrix.diagonal().min()), tr),
        "maximum": design.maximum,
        "epsilon": format_epsilon(design.epsilon, tr),
    }


# Design name -> its sentence (surveys.builder.design_text asks every kind's).
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {
    Geometric.name: geometric_sentence,
}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
