"""A number in plain words for researchers: asked plainly (the sentence of
asking directly is the question asked plainly's, gathered by design name)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from surveys.builder.design_text import design_summary
from surveys.builder.design_text import epsilon_text as epsilon_text

DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}

summary = design_summary
