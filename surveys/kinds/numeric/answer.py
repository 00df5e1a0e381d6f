"""A number's format and its values (the ``answer`` role, see
surveys/kinds/base_answer.py): bounds, decimals, a unit, and the cut points
of its bins, which make its options."""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from surveys.kinds.base import MAX_OPTIONS
from surveys.kinds.base_answer import ValueRefused

__all__ = [
    "FORMAT_TEXTS",
    "MAX_DECIMALS",
    "TAKES_VALUE",
    "bin_labels",
    "clean_format",
    "format_options",
    "number_text",
    "validated_value",
]

TAKES_VALUE = True
# The unit is the researcher's word ("years"), translated as the question's
# text is; the ranges' labels are then said in each language with it.
FORMAT_TEXTS = {"unit": "Unit"}
MAX_DECIMALS = 6
MAX_UNIT = 30
# Large enough for any count of people or money; small enough that every
# number with MAX_DECIMALS decimals is exact in a float.
MAX_MAGNITUDE = 1e9


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValidationError({"answer_format": _not_a_number(name)})
    try:
        number = float(value)
    except ValueError:
        raise ValidationError({"answer_format": _not_a_number(name)}) from None
    if not math.isfinite(number) or abs(number) > MAX_MAGNITUDE:
        raise ValidationError(
            {
                "answer_format": gettext("%(name)s must be a number within ±%(max)s.")
                % {"name": name, "max": f"{MAX_MAGNITUDE:g}"}
            }
        )
    return number


def _not_a_number(name: str) -> str:
    return gettext("%(name)s must be a number.") % {"name": name}


def number_text(value: float, decimals: int) -> str:
    """A number as the researcher wrote it: no trailing zeros."""
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def bin_labels(fmt: Mapping[str, Any]) -> list[str]:
    """The bins' labels in the active language: below the first cut, between
    cuts, the last cut or more, each with the unit."""
    cuts = [number_text(c, fmt["decimals"]) for c in fmt["cuts"]]
    unit = f" {fmt['unit']}" if fmt["unit"] else ""
    labels = [gettext("Below %(number)s") % {"number": f"{cuts[0]}{unit}"}]
    labels += [
        gettext("%(low)s to below %(high)s") % {"low": lo, "high": f"{hi}{unit}"}
        for lo, hi in zip(cuts, cuts[1:], strict=False)
    ]
    labels.append(gettext("%(number)s or more") % {"number": f"{cuts[-1]}{unit}"})
    return labels


def format_options(fmt: Mapping[str, Any], language: str) -> list[str]:
    """The ranges' labels in ``language``, with the unit given for it."""
    with translation.override(language):
        return bin_labels(fmt)


def clean_format(
    answer_format: Mapping[str, Any] | None, *, language: str
) -> tuple[dict[str, Any], list[str]]:
    """``{"minimum", "maximum", "decimals", "unit", "cuts"}`` checked: both
    bounds, 0 to MAX_DECIMALS decimals, and 1 or more cut points strictly
    inside the bounds, in increasing order, each with at most the decimals
    allowed. Returns the format as stored and the bins' labels (its options)."""
    given = dict(answer_format or {})
    unknown = set(given) - {"minimum", "maximum", "decimals", "unit", "cuts"}
    if unknown:
        raise ValidationError(
            {
                "answer_format": gettext("Unknown format field(s): %(fields)s.")
                % {"fields": ", ".join(sorted(unknown))}
            }
        )
    if given.get("minimum") is None or given.get("maximum") is None:
        raise ValidationError(
            {"answer_format": gettext("A number needs its smallest and largest value.")}
        )
    low = _number(given["minimum"], "minimum")
    high = _number(given["maximum"], "maximum")
    if not low < high:
        raise ValidationError(
            {"answer_format": gettext("The smallest value must be below the largest.")}
        )
    decimals = given.get("decimals", 0)
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        raise ValidationError(
            {"answer_format": gettext("decimals must be a whole number.")}
        )
    if not 0 <= decimals <= MAX_DECIMALS:
        raise ValidationError(
            {
                "answer_format": gettext("decimals must be from 0 to %(max)d.")
                % {"max": MAX_DECIMALS}
            }
        )
    unit = str(given.get("unit") or "").strip()
    if len(unit) > MAX_UNIT:
        raise ValidationError(
            {
                "answer_format": gettext("The unit has at most %(max)d characters.")
                % {"max": MAX_UNIT}
            }
        )
    a_cut = gettext("a cut point")
    cuts = [_number(c, a_cut) for c in given.get("cuts") or []]
    if not 1 <= len(cuts) <= MAX_OPTIONS - 1:
        raise ValidationError(
            {
                "answer_format": gettext(
                    "Give 1 to %(max)d cut points: the results break the "
                    "numbers down into the ranges between them."
                )
                % {"max": MAX_OPTIONS - 1}
            }
        )
    if any(not low < c <= high for c in cuts) or cuts != sorted(set(cuts)):
        raise ValidationError(
            {
                "answer_format": gettext(
                    "Cut points must increase and lie above the smallest value "
                    "and at most the largest."
                )
            }
        )
    if any(not _has_decimals(c, decimals) for c in (low, high, *cuts)):
        raise ValidationError(
            {
                "answer_format": gettext(
                    "Bounds and cut points may have at most %(decimals)d decimals."
                )
                % {"decimals": decimals}
            }
        )
    fmt = {
        "minimum": low,
        "maximum": high,
        "decimals": decimals,
        "unit": unit,
        "cuts": cuts,
    }
    return fmt, format_options(fmt, language)


def _has_decimals(value: float, decimals: int) -> bool:
    scaled = value * 10**decimals
    return abs(scaled - round(scaled)) < 1e-6


def validated_value(question: Any, value: Any) -> tuple[int, float]:
    """A typed number checked against its question's format, and its bin."""
    fmt = question.answer_format
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueRefused(gettext("value must be a number"))
    number = float(value)
    low, high = fmt["minimum"], fmt["maximum"]
    decimals = fmt["decimals"]
    if not math.isfinite(number) or not low <= number <= high:
        raise ValueRefused(
            gettext("value must be from %(low)s to %(high)s")
            % {"low": number_text(low, decimals), "high": number_text(high, decimals)}
        )
    if not _has_decimals(number, decimals):
        raise ValueRefused(
            gettext("value must be a whole number")
            if decimals == 0
            else gettext("value may have at most %(decimals)s decimals")
            % {"decimals": decimals}
        )
    number = round(number, decimals)
    return bisect.bisect_right(fmt["cuts"], number), number
