"""System checks: site settings the privacy promises depend on."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.checks import Error, register

from estimation.bands import RANDOMIZER_MAX_EPSILON
from estimation.inference.validation import MAX_DIRECT_PERCENT

RANDOMIZER_SCRIPT = "js/rr.js"
# The limits the browser's randomizer ships as constants, and the server's
# number each must equal: the browser refuses beyond them whatever it is sent.
RANDOMIZER_LIMITS: dict[str, float] = {
    "MAX_EPSILON": RANDOMIZER_MAX_EPSILON,
    "MAX_DIRECT_PERCENT": MAX_DIRECT_PERCENT,
}


def _positive(name: str, check_id: str) -> Error | None:
    value = getattr(settings, name)
    if isinstance(value, int | float) and math.isfinite(value) and value > 0:
        return None
    return Error(
        f"{name} must be a positive number, got {value!r}.",
        hint=f"Set {name} in the environment to a number above 0.",
        id=check_id,
    )


@register()
def privacy_limits(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """The site's epsilon limits are positive, and a question's limit is within
    what the browser's randomizer accepts (a higher one would let researchers
    publish surveys that no respondent's browser will run); whether designs
    without a finite epsilon are allowed is a plain yes or no."""
    errors = [
        error
        for error in (
            _positive("MAX_QUESTION_EPSILON", "surveys.E001"),
            _positive("MAX_SURVEY_EPSILON", "surveys.E002"),
        )
        if error
    ]
    question = settings.MAX_QUESTION_EPSILON
    if not errors and question > RANDOMIZER_MAX_EPSILON:
        errors.append(
            Error(
                f"MAX_QUESTION_EPSILON is {question:g}, above the randomizer's cap "
                f"of {RANDOMIZER_MAX_EPSILON:g}: respondents' browsers would refuse "
                "such questions.",
                hint=f"Set MAX_QUESTION_EPSILON to {RANDOMIZER_MAX_EPSILON:g} or less.",
                id="surveys.E003",
            )
        )
    allowed = settings.ALLOW_UNBOUNDED_DESIGNS
    if not isinstance(allowed, bool):
        # Anything else (a string from a settings file) could read as allowed
        # where the operator meant the opposite.
        errors.append(
            Error(
                f"ALLOW_UNBOUNDED_DESIGNS must be True or False, got {allowed!r}.",
                hint="Set ALLOW_UNBOUNDED_DESIGNS in the environment to true or false.",
                id="surveys.E007",
            )
        )
    days = settings.RECEIPT_DAYS
    if not isinstance(days, int) or days < 1:
        errors.append(
            Error(
                f"RECEIPT_DAYS must be a whole number of days, at least 1; got {days!r}.",
                id="surveys.E004",
            )
        )
    return errors


def randomizer_constants(source: str) -> dict[str, float]:
    """The numeric ``export const NAME = number;`` lines of the randomizer."""
    found = re.findall(r"^export const ([A-Z_]+) = ([0-9.]+);$", source, re.MULTILINE)
    return {name: float(value) for name, value in found}


@register()
def randomizer_limits(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """The randomizer in the static files states the server's limits: with a lower
    one, respondents' browsers refuse published surveys; with a higher one, the
    browser no longer guards the server's promise."""
    location = finders.find(RANDOMIZER_SCRIPT)
    if not isinstance(location, str):
        return [
            Error(
                f"The randomizer {RANDOMIZER_SCRIPT} was not found.", id="surveys.E005"
            )
        ]
    stated = randomizer_constants(Path(location).read_text(encoding="utf-8"))
    return [
        Error(
            f"{RANDOMIZER_SCRIPT} states {name} = {stated.get(name)!r}, but the "
            f"server's limit is {limit:g}.",
            hint=f"Make {name} in {RANDOMIZER_SCRIPT} {limit:g}.",
            id="surveys.E006",
        )
        for name, limit in RANDOMIZER_LIMITS.items()
        if stated.get(name) != limit
    ]
