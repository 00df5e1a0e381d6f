"""A rating scale in plain words for researchers: asked plainly. It adds no
sentence of its own: asking directly is described by the question asked
plainly (every kind's ``DESIGN_SENTENCES`` are gathered by design name)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text

DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}

# The builder's preview and publish page (every kind's ``text`` role has both).
summary = design_summary
