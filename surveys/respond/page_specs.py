"""A client spec's thresholds written as a base and a rule, for the page.

A count from 0 to ``m`` has ``(m + 1)**2`` thresholds: 30.8 KB of the page's
data at ``m = 50``. Yet the integer mechanisms the designs build have few
distinct values. The off-diagonal count of reporting ``r`` for truth ``t``
depends only on how far ``r`` is from ``t`` when ``r`` is an inner option, and
only on how far ``t`` is from the end when ``r`` is the first or the last
option; the diagonal takes what is left of the denominator. The geometric
design is built that way (its ends are the clamped tails), and so is every
uniform-plus-diagonal design (all off-diagonal counts equal).

The page therefore receives ``near`` (the inner counts by distance 1..k-2) and
``ends`` (the end counts by distance 1..k-1) under ``thresholds_rule`` instead
of ``thresholds``: ``2k - 3`` integers instead of ``k**2``. The browser
expands them by the same rule (``expandSpec`` in ``static/js/rr-rule.js``) and then
runs its whole check, the epsilon from every row included, on the expanded
thresholds before anything is drawn. A spec is written this way only when the
expansion gives back its thresholds exactly, so the page randomizes with the
very thresholds the stored spec (and the API, the codebook and the
transparency page) states.

Pure (no Django, no I/O), so Python and the browser's tests share its fixture.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

RULE_KEY = "thresholds_rule"
# Below this many options the full thresholds are as short as the rule.
MIN_OPTIONS = 4


def _row_counts(row: list[int]) -> list[int]:
    return [bound - (row[r - 1] if r else 0) for r, bound in enumerate(row)]


def expand_thresholds(
    near: list[int], ends: list[int], k: int, denominator: int
) -> list[list[int]]:
    """The cumulative thresholds ``[truth][report]`` the rule gives; the
    browser's ``expandSpec`` computes the same."""
    rows = []
    for t in range(k):
        counts = []
        for r in range(k):
            if r == t:
                counts.append(0)
            elif r == 0:
                counts.append(ends[t - 1])
            elif r == k - 1:
                counts.append(ends[k - 2 - t])
            else:
                counts.append(near[abs(r - t) - 1])
        counts[t] = denominator - sum(counts)
        rows.append(list(accumulate(counts)))
    return rows


def thresholds_rule(thresholds: list[list[int]]) -> dict[str, list[int]] | None:
    """``near`` and ``ends`` for these thresholds, or None when the rule does
    not give them back exactly."""
    k = len(thresholds)
    if k < 2 or any(len(row) != k for row in thresholds):
        return None
    counts = [_row_counts(row) for row in thresholds]
    # Read off the first row (inner options and the last) and the first
    # column (the ends); the expansion below checks every other cell.
    near = [counts[0][d] for d in range(1, k - 1)]
    ends = [counts[t][0] for t in range(1, k)]
    if expand_thresholds(near, ends, k, thresholds[0][-1]) != thresholds:
        return None
    return {"near": near, "ends": ends}


def page_spec(spec: Any) -> Any:
    """``spec`` as the respondent page sends it: with a base and a rule in
    place of its thresholds when they fit the rule, else unchanged.

    A spec with a procedure (the respondent produces its report) keeps its
    thresholds: its kind's script reads them.
    """
    if not isinstance(spec, dict):
        return spec
    thresholds = spec.get("thresholds")
    if (
        "procedure" in spec
        or not isinstance(thresholds, list)
        or len(thresholds) < MIN_OPTIONS
    ):
        return spec
    rule = thresholds_rule(thresholds)
    if rule is None:
        return spec
    compact = {key: value for key, value in spec.items() if key != "thresholds"}
    compact[RULE_KEY] = rule
    return compact


def without_params(spec: Any) -> Any:
    """``spec`` without its design's ``params`` (also in a unary spec's
    ``bit``), for the page: the browser randomizes with the thresholds and
    checks the epsilon from them, and never reads the parameters they were
    built from. The stored spec, the API, the codebook and the transparency
    page keep them."""
    if not isinstance(spec, dict):
        return spec
    return {
        key: without_params(value) if key == "bit" else value
        for key, value in spec.items()
        if key != "params"
    }


def full_spec(spec: Any) -> Any:
    """A page's spec with its thresholds written out again, as the browser's
    ``expandSpec`` does before it randomizes: what a client other than the
    page (a load generator, a test) randomizes with."""
    if not isinstance(spec, dict) or RULE_KEY not in spec:
        return spec
    rule = spec[RULE_KEY]
    full = {key: value for key, value in spec.items() if key != RULE_KEY}
    full["thresholds"] = expand_thresholds(
        rule["near"], rule["ends"], spec["k"], spec["denominator"]
    )
    return full
