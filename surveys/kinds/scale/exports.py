"""A rating scale in the exports: its codes are its points in order, which the
codebook says (the ``exports`` role: the names it leaves out are
surveys/kinds/base_exports.py's). The value labels of the .sav and .dta files
are its points, 0 the lowest, as for every question's options."""

from __future__ import annotations

from typing import Any

from surveys.models import Question

__all__ = ["matrix_extra"]


def matrix_extra(question: Question) -> dict[str, Any]:
    """The scale's order: code 0 is its lowest point, k-1 its highest (SPSS
    reads its column as ordinal)."""
    return {
        "ordered_codes": True,
        "scale": {
            "ordered": True,
            "points": len(question.options),
            "order": list(question.options),
            "codes": "0 is the first point listed, each next point one more",
        },
    }
