"""Multiple choice in the exports: nothing of its own, its design decides (the
``exports`` role; every kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from surveys.results.bundle_scripts import r_by_design as r_question

__all__ = ["r_question"]
