"""The results page's form: the interval method and level of a recomputation."""

from __future__ import annotations

from typing import Any

from django import forms

from estimation import CI_METHODS, DEFAULT_METHOD
from estimation.results import DEFAULT_LEVEL
from estimation.runs.selectors import LEVELS, METHOD_NAMES, METHOD_NOTES


def _method_label(method: str) -> str:
    name = METHOD_NAMES.get(method, method)
    name = name[0].upper() + name[1:]
    note = METHOD_NOTES.get(method)
    return f"{name} ({note})" if note else name


class RecomputeForm(forms.Form):
    """The interval method and level of a researcher's recomputation."""

    ci_method = forms.ChoiceField(
        label="Interval method",
        choices=[(m, _method_label(m)) for m in CI_METHODS],
        initial=DEFAULT_METHOD,
    )
    level = forms.TypedChoiceField(
        label="Confidence level",
        choices=[(f"{level:.2f}", f"{level:.0%}") for level in LEVELS],
        coerce=float,
        initial=f"{DEFAULT_LEVEL:.2f}",
    )

    @classmethod
    def for_run(cls, run: Any) -> RecomputeForm:
        """Unbound, starting from the method and level of ``run`` if any."""
        if run is None:
            return cls()
        return cls(initial={"ci_method": run.ci_method, "level": f"{run.level:.2f}"})
