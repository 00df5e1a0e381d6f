"""Saved estimates read under the results contract (estimation/contract.py):
the flags of an estimate as the dashboard and the exports show it.

A saved row keeps the estimator's numbers; what a reader sees of them (bounds,
"not estimable", cautions) is decided here from those numbers, once, so the
page, the CSV, the JSON export and the API carry the same flags.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from estimation.contract import (
    BEYOND_DESIGN,
    SHARE,
    Caution,
    Reading,
    cautions,
    count_bounds,
    notice_flags,
    read,
)


def option_reading(
    option: Any, warnings: Iterable[Mapping[str, Any]], code: int
) -> Reading:
    """One option's (or item's) share: bounded, with the flags of the notices
    that name it (``beyond_design``)."""
    beyond = any(
        w.get("code") == BEYOND_DESIGN
        and (w.get("option") == code or code in (w.get("options") or ()))
        for w in warnings
    )
    return read(
        estimate=option.estimate,
        ci_lower=option.ci_lower,
        ci_upper=option.ci_upper,
        std_error=option.std_error,
        bounds=SHARE,
        flags=(BEYOND_DESIGN,) if beyond else (),
    )


def mean_reading(mean: Mapping[str, Any] | Any, maximum: int) -> Reading:
    """A count question's mean count, in ``[0, maximum]``."""

    def get(name: str) -> Any:
        return mean.get(name) if isinstance(mean, Mapping) else getattr(mean, name)

    return read(
        estimate=get("estimate"),
        ci_lower=get("ci_lower"),
        ci_upper=get("ci_upper"),
        std_error=get("std_error"),
        bounds=count_bounds(maximum),
    )


def estimate_flags(
    options: Sequence[Any],
    warnings: Iterable[Mapping[str, Any]],
    mean: Mapping[str, Any] | Any | None = None,
) -> tuple[str, ...]:
    """Every flag of one estimate: its notices' and its options' (a count's,
    its mean's: the distribution's rows are read together)."""
    warnings = list(warnings)
    found = set(notice_flags(str(w.get("code", "")) for w in warnings))
    if mean is not None:
        found.update(mean_reading(mean, max(len(options) - 1, 1)).flags)
    else:
        for code, option in enumerate(options):
            code = getattr(option, "option", code)
            found.update(option_reading(option, warnings, code).flags)
    return tuple(sorted(found))


def parameter_reading(parameter: Mapping[str, Any]) -> Reading:
    """A device instruction's parameter (a share: pi, gamma, beta or t)."""
    return read(
        estimate=parameter.get("estimate"),
        ci_lower=parameter.get("ci_lower"),
        ci_upper=parameter.get("ci_upper"),
        std_error=parameter.get("std_error"),
        bounds=SHARE,
    )


def group_cautions(groups: Sequence[tuple[str, Iterable[str]]]) -> tuple[Caution, ...]:
    """One caution per cause for a breakdown's shown groups."""
    return cautions(groups)
