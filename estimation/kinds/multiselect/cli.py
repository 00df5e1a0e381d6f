"""Command-line cases for check-all-that-apply questions.

``python -m estimation estimate`` hands a case whose design is a unary encoding
here. Either ``n`` and ``ticked`` (how many reports had each item ticked) or
``report_counts`` (how many reports sent each bit mask, keys as decimal
strings, item ``i`` in bit ``i``), as a dashboard or an export tallies them.
"""

from __future__ import annotations

from typing import Any

from estimation.inference.exported import UsageError
from estimation.inference.intervals import DEFAULT_METHOD
from estimation.kinds.multiselect.designs import (
    UNARY_DESIGNS,
    item_counts,
    unary_from_dict,
)
from estimation.kinds.multiselect.estimate import estimate_items
from estimation.results import DEFAULT_LEVEL

UNARY_CASE_KEYS = {"design", "n", "ticked", "report_counts", "level", "ci_method"}


def is_unary_case(case: Any) -> bool:
    design = case.get("design") if isinstance(case, dict) else None
    return isinstance(design, dict) and design.get("name") in UNARY_DESIGNS


def estimate_unary_case(case: dict[str, Any]) -> dict[str, Any]:
    """Per-item estimates, intervals and the simultaneous band for one case."""
    unknown = set(case) - UNARY_CASE_KEYS
    if unknown:
        raise UsageError(
            f"unknown field(s) {', '.join(sorted(unknown))}; a check-all-that-apply "
            f"case has {', '.join(sorted(UNARY_CASE_KEYS))}"
        )
    design = unary_from_dict(case["design"])
    if "report_counts" in case:
        if "n" in case or "ticked" in case:
            raise UsageError("give either report_counts or n and ticked, not both")
        n, ticked = item_counts(_masks(case["report_counts"]), design.m)
    elif "n" in case and "ticked" in case:
        n, ticked = case["n"], case["ticked"]
        if not isinstance(ticked, list):
            raise UsageError(f"ticked must be a list of {design.m} whole numbers")
    else:
        raise UsageError(
            "a check-all-that-apply case needs report_counts, or n and ticked"
        )
    result = estimate_items(
        n,
        ticked,
        design,
        level=case.get("level", DEFAULT_LEVEL),
        ci_method=case.get("ci_method", DEFAULT_METHOD),
    )
    return result.to_dict()


def _masks(report_counts: Any) -> dict[int, int]:
    if not isinstance(report_counts, dict):
        raise UsageError("report_counts must map bit masks (as strings) to counts")
    masks = {}
    for key, count in report_counts.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise UsageError(f"report_counts key {key!r} is not a bit mask")
        masks[int(key)] = count
    return masks


# The ``cli`` role: ``python -m estimation estimate`` hands over the cases
# this kind claims.
claims = is_unary_case
estimate_case = estimate_unary_case
