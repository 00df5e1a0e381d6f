"""The results page's form: the interval method and level of a recomputation."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from estimation import CI_METHODS, DEFAULT_METHOD
from estimation.results import DEFAULT_LEVEL
from estimation.runs.selectors import LEVELS, METHOD_NAMES, METHOD_NOTES
from surveys.words import number_text

# METHOD_NAMES and METHOD_NOTES (estimation/runs/selectors.py), marked for
# translation; a test keeps them equal.
METHOD_WORDS = {
    "mid-p exact": gettext_noop("mid-p exact"),
    "Blaker exact": gettext_noop("Blaker exact"),
    "Clopper-Pearson": gettext_noop("Clopper-Pearson"),
    "Wilson score": gettext_noop("Wilson score"),
    "likelihood-ratio (profile)": gettext_noop("likelihood-ratio (profile)"),
    "Wald": gettext_noop("Wald"),
    "anytime-valid confidence sequence": gettext_noop(
        "anytime-valid confidence sequence"
    ),
    "recommended": gettext_noop("recommended"),
    "guaranteed": gettext_noop("guaranteed"),
    "conservative": gettext_noop("conservative"),
    "for comparison only": gettext_noop("for comparison only"),
    "for a dashboard read as answers arrive": gettext_noop(
        "for a dashboard read as answers arrive"
    ),
}


def method_name(method: str) -> str:
    """An interval method's name in the active language ("mid-p exact")."""
    return gettext(METHOD_NAMES.get(method, method))


def _method_label(method: str) -> str:
    name = method_name(method)
    name = name[0].upper() + name[1:]
    note = METHOD_NOTES.get(method)
    return f"{name} ({gettext(note)})" if note else name


def _method_choices() -> list[tuple[str, str]]:
    # Called when a form is made, so the labels are in the page's language.
    return [(m, _method_label(m)) for m in CI_METHODS]


def _level_choices() -> list[tuple[str, str]]:
    return [(f"{level:.2f}", number_text(f"{level:.0%}")) for level in LEVELS]


class RecomputeForm(forms.Form):
    """The interval method and level of a researcher's recomputation."""

    ci_method = forms.ChoiceField(
        label=_("Interval method"),
        choices=_method_choices,
        initial=DEFAULT_METHOD,
    )
    level = forms.TypedChoiceField(
        label=_("Confidence level"),
        choices=_level_choices,
        coerce=float,
        initial=f"{DEFAULT_LEVEL:.2f}",
    )

    @classmethod
    def for_run(cls, run: Any) -> RecomputeForm:
        """Unbound, starting from the method and level of ``run`` if any."""
        if run is None:
            return cls()
        return cls(initial={"ci_method": run.ci_method, "level": f"{run.level:.2f}"})
