"""The design preview's planner: the researcher's assumptions read from the
query string, and the responses to tell two groups apart, in words.

The numbers come from :mod:`estimation.planner`; this module only checks the
input (a ValueError names the field) and writes the sentences.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext

from estimation.planner import (
    DEFAULT_ALPHA,
    DEFAULT_GROUP_SHARE,
    DEFAULT_POWER,
    DEFAULT_PREVALENCE,
    MAX_RESPONSES,
    two_groups,
)
from estimation.words import percent
from surveys.words import active_translator

# The bounds a form field can say in words; the core refuses anything outside.
_FIELDS = {
    "prevalence": (0.0, 1.0),
    "compared_prevalence": (0.0, 1.0),
    # Not "group_share": a device-instructed design's own parameter has it.
    "first_group_share": (0.0, 1.0),
    "power": (0.5, 1.0),
    "alpha": (0.0, 0.5),
}


@dataclass(frozen=True)
class Assumptions:
    """What the planner assumes: the expected prevalence (``assumed`` when the
    researcher named none), and for two groups the other group's prevalence,
    the first group's share of the responses, the test's level and power."""

    prevalence: float = DEFAULT_PREVALENCE
    assumed: bool = True
    compared: float | None = None
    group_share: float = DEFAULT_GROUP_SHARE
    power: float = DEFAULT_POWER
    alpha: float = DEFAULT_ALPHA


def _number(query: Mapping[str, str], name: str) -> float | None:
    raw = query.get(name, "")
    if raw is None or str(raw).strip() == "":
        return None
    low, high = _FIELDS[name]
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low < value < high):
        raise PlanningInputError(
            name,
            gettext(
                "%(field)s must be strictly between %(low)s and %(high)s (a share: "
                "0.1 for 10%%), got “%(value)s”."
            )
            % {"field": name, "low": f"{low:g}", "high": f"{high:g}", "value": raw},
        )
    return value


class PlanningInputError(ValueError):
    """A planning assumption out of range; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def parse_assumptions(query: Mapping[str, str]) -> Assumptions:
    """The planner's assumptions from a query string; a field left out takes
    its default. Raises :class:`PlanningInputError` naming a bad one."""
    prevalence = _number(query, "prevalence")
    compared = _number(query, "compared_prevalence")
    if compared is not None and compared == (prevalence or DEFAULT_PREVALENCE):
        raise PlanningInputError(
            "compared_prevalence",
            gettext(
                "compared_prevalence must differ from the expected prevalence: "
                "two groups alike cannot be told apart."
            ),
        )
    share = _number(query, "first_group_share")
    power = _number(query, "power")
    alpha = _number(query, "alpha")
    return Assumptions(
        prevalence=DEFAULT_PREVALENCE if prevalence is None else prevalence,
        assumed=prevalence is None,
        compared=compared,
        group_share=DEFAULT_GROUP_SHARE if share is None else share,
        power=DEFAULT_POWER if power is None else power,
        alpha=DEFAULT_ALPHA if alpha is None else alpha,
    )


def _pct(value: float) -> str:
    return percent(value, active_translator())


def _whole(value: int) -> str:
    """A number of responses as the active language groups its digits."""
    return number_format(value, force_grouping=True)


def assumption_sentence(assumptions: Assumptions) -> str:
    """Which prevalence the precision assumes, and that it is an assumption."""
    if assumptions.assumed:
        return gettext(
            "Expected prevalence %(prevalence)s: an assumption (the default), not "
            "a result. Enter the share you expect under “Planning” to plan for it."
        ) % {"prevalence": _pct(assumptions.prevalence)}
    return gettext(
        "Expected prevalence %(prevalence)s, as you entered it: an assumption, "
        "not a result."
    ) % {"prevalence": _pct(assumptions.prevalence)}


def groups_summary(design: Any, assumptions: Assumptions) -> dict[str, Any] | None:
    """Responses to tell a group at the expected prevalence from one at the
    compared prevalence apart, with its sentence; None without a comparison."""
    if assumptions.compared is None:
        return None
    plan = two_groups(
        design,
        assumptions.prevalence,
        assumptions.compared,
        share=assumptions.group_share,
        alpha=assumptions.alpha,
        power=assumptions.power,
    )
    numbers = {
        "first": _pct(assumptions.prevalence),
        "second": _pct(assumptions.compared),
        "alpha": _pct(assumptions.alpha),
        "power": _pct(assumptions.power),
        "share": _pct(assumptions.group_share),
    }
    if plan.total is None:
        sentence = gettext(
            "Telling a group at %(first)s from one at %(second)s apart would need "
            "more than %(most)s responses: name a larger difference."
        ) % {**numbers, "most": _whole(MAX_RESPONSES)}
    else:
        sentence = gettext(
            "To tell a group at %(first)s from one at %(second)s apart (a two-sided "
            "test at the %(alpha)s level with %(power)s power, %(share)s of the "
            "responses in the first group), about %(total)s responses are needed: "
            "%(in_first)s in the first group and %(in_second)s in the second."
        ) % {
            **numbers,
            "total": _whole(plan.total),
            "in_first": _whole(plan.in_first or 0),
            "in_second": _whole(plan.in_second or 0),
        }
        if plan.first.value != assumptions.prevalence:
            sentence += " " + gettext(
                "The estimates compared are %(one)s and %(two)s."
            ) % {
                "one": number_format(plan.first.value, decimal_pos=2),
                "two": number_format(plan.second.value, decimal_pos=2),
            }
        if plan.rough:
            sentence += " " + gettext(
                "A group would have fewer than 10 respondents expected on one side "
                "of its prevalence, where this approximation is rough: plan for "
                "more."
            )
    return {
        "compared_prevalence": assumptions.compared,
        "first_group_share": assumptions.group_share,
        "power": assumptions.power,
        "alpha": assumptions.alpha,
        "total": plan.total,
        "in_first": plan.in_first,
        "in_second": plan.in_second,
        "rough": plan.rough,
        "sentence": sentence,
    }
