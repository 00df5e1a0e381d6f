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


# Notices an estimate may give once per option; the card says each cause once.
PER_OPTION = ("beyond_design", "at_boundary", "interval_replaced")


def merged_notices(
    warnings: Iterable[Mapping[str, Any]], labels: Sequence[str]
) -> list[dict[str, Any]]:
    """An estimate's notices with one per cause: several options' notices of
    one code become the first one's message followed by the other options'
    names, and keep every option in ``options``."""
    merged: list[dict[str, Any]] = []
    by_code: dict[str, dict[str, Any]] = {}
    for w in warnings:
        code = str(w.get("code", ""))
        first = by_code.get(code)
        if code not in PER_OPTION or first is None:
            entry = dict(w)
            option = w.get("option")
            entry["options"] = list(
                w.get("options") or ([option] if isinstance(option, int) else [])
            )
            entry["others"] = []
            merged.append(entry)
            by_code.setdefault(code, entry)
            continue
        option = w.get("option")
        if isinstance(option, int):
            first["options"].append(option)
            first["others"].append(
                labels[option] if option < len(labels) else str(option + 1)
            )
    for entry in merged:
        others = entry.pop("others")
        if others:
            names = ", ".join(f"“{name}”" for name in others)
            entry["message"] = f"{entry['message']} The same holds for {names}."
    return merged
