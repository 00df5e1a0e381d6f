"""The question form's design part: a kind, its options and its design's
parameters, built into a design dict and checked by the services (kinds.py).

The fields live here; how a kind's fields become its design, its answers and
a saved question's initial values is its ``form`` role
(``surveys/kinds/<kind>/form.py``), found by the registry. The question form
(forms.py) adds the question's own text and settings.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from estimation.kinds.count.designs import MAX_COUNT
from surveys.builder.kinds import DESIGNS_FOR_KIND, question_design
from surveys.kinds import kind_module
from surveys.kinds.base import MAX_OPTIONS
from surveys.models import Question

DESIGN_CHOICES = [
    ("warner", "Warner"),
    ("forced_response", "Forced response"),
    ("unrelated_question", "Unrelated question"),
    ("krr", "k-ary randomized response"),
    ("crosswise", "Crosswise (two statements, no device randomness)"),
    ("sue", "Symmetric unary encoding (basic RAPPOR)"),
    ("oue", "Optimized unary encoding"),
    ("geometric", "Geometric noise (counts)"),
    ("direct", "Asked plainly, not randomized (counts)"),
    ("cheating_detection", "Cheating detection (Clark and Desharnais 1998)"),
    ("lie_detector", "Stochastic lie detector (Moshagen et al. 2012)"),
]
MODE_CHOICES = [
    ("probabilities", "The design's own probabilities"),
    ("epsilon", "A privacy level (epsilon)"),
]
# A core error message starts with the parameter it is about.
PARAMETER = re.compile(r"^(p_truth|p_forced|group_share|epsilon|p1|p2|p|q|k|m)\b")
FIELD_OF_PARAMETER = {"k": "options"}
# "m" is a count question's largest count and the number of items of a
# check-all-that-apply question.
FIELD_OF_M = {"count": "maximum"}


def field_for_message(message: str, kind: str | None = None) -> str | None:
    """The form field a core error message is about, from the parameter it
    names (and for ``m``, the question's kind)."""
    match = PARAMETER.match(message)
    if match is None:
        return None
    if match[1] == "m":
        return FIELD_OF_M.get(kind or "", "options")
    return FIELD_OF_PARAMETER.get(match[1], match[1])


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Attach a service's ValidationError to the fields it names."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for key, messages in error.message_dict.items():
        for message in messages:
            field = key if key in form.fields else None
            if key == "design":
                kind = form.data.get("kind") if form.is_bound else None
                field = field_for_message(message, kind) or "design_name"
                field = field if field in form.fields else None
            form.add_error(field, message)


def _number_input() -> forms.NumberInput:
    return forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"})


class DesignForm(forms.Form):
    """A question's kind, options and design; clean() builds the design dict."""

    kind = forms.ChoiceField(
        choices=Question.Kind.choices,
        initial=Question.Kind.YES_NO,
        widget=forms.RadioSelect,
        label="Kind of question",
    )
    options = forms.CharField(
        required=False,
        label="Options (one per line), in the survey language",
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=(
            f"For multiple-choice and direct questions: 2 to {MAX_OPTIONS} options, "
            "one per line. Yes/no questions always offer No and Yes."
        ),
    )
    design_name = forms.ChoiceField(
        required=False,
        choices=DESIGN_CHOICES,
        initial="warner",
        label="Design",
        help_text=(
            "Yes/no: Warner, forced response, unrelated question or crosswise. "
            "Multiple choice: k-ary randomized response or forced response. Check "
            "all that apply: symmetric or optimized unary encoding, each item "
            "randomized on its own. Count: geometric noise, set by epsilon. Yes / "
            "no with a device instruction: cheating detection or the stochastic "
            "lie detector."
        ),
    )
    maximum = forms.IntegerField(
        required=False,
        initial=10,
        min_value=1,
        max_value=MAX_COUNT,
        label="Largest count (M)",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=(
            f"Count questions: respondents give a whole number from 0 to M (at "
            f"most {MAX_COUNT}); more than M is answered as M. Epsilon covers "
            "the whole range: any two counts are protected from each other."
        ),
    )
    mode = forms.ChoiceField(
        required=False,
        choices=MODE_CHOICES,
        initial="probabilities",
        widget=forms.RadioSelect,
        label="Set the design by",
        help_text=(
            "For Warner and forced response (by epsilon: equal forced answers). "
            "k-ary randomized response is set by epsilon, the unrelated question "
            "by p and q."
        ),
    )
    epsilon = forms.FloatField(
        required=False,
        initial=1.0,
        label="Epsilon (ε)",
        widget=_number_input(),
        help_text=(
            "The privacy level of one answer, above 0: smaller is more private. "
            "At 1.1 (ln 3) someone 50% sure of an answer can become at most 75% sure. "
            "For check all that apply it is the encoding's published (one-hot) "
            "epsilon; the preview shows the whole answer's, which respondents are "
            "told."
        ),
    )
    p = forms.FloatField(
        required=False,
        initial=0.75,
        label="Probability p",
        widget=_number_input(),
        help_text=(
            "Warner: the chance the true answer is sent (not 0.5). Unrelated "
            "question: the chance of answering the sensitive question. Crosswise: "
            "the share of people for whom the second statement is true (not 0.5)."
        ),
    )
    q = forms.FloatField(
        required=False,
        initial=0.5,
        label="Probability q",
        widget=_number_input(),
        help_text="Unrelated question: the chance that its answer is Yes.",
    )
    p_truth = forms.FloatField(
        required=False,
        initial=0.5,
        label="Probability of the truth (p_truth)",
        widget=_number_input(),
        help_text="Forced response: the chance the true answer is sent.",
    )
    p_forced = forms.CharField(
        required=False,
        label="Forced answer probabilities (p_forced)",
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        help_text=(
            "Forced response: one probability per option, in order, separated by "
            "commas (yes/no: No, Yes). They add up to 1 − p_truth. Leave empty to "
            "split evenly."
        ),
    )

    p1 = forms.FloatField(
        required=False,
        initial=0.3,
        label="Group 1 probability (p1)",
        widget=_number_input(),
        help_text=(
            "Cheating detection: the chance that the device tells a respondent in "
            "group 1 to answer Yes (otherwise: answer truthfully). Lie detector: "
            "the chance that it tells them to answer truthfully (otherwise: answer "
            "Yes). As RRreg names p for models CDM and SLD."
        ),
    )
    p2 = forms.FloatField(
        required=False,
        initial=0.7,
        label="Group 2 probability (p2)",
        widget=_number_input(),
        help_text="The same for group 2; it must differ from p1, and the further "
        "apart the two, the more precise the estimates.",
    )
    group_share = forms.FloatField(
        required=False,
        initial=0.5,
        label="Share in group 1",
        widget=_number_input(),
        help_text="The chance that the device puts a respondent in group 1.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind")
        if not kind:
            return data
        labels = self._labels(kind)
        if labels is None:
            return data
        try:
            design = question_design(
                kind=kind, options=labels, design=self._design_dict(kind, len(labels))
            )
        except ValidationError as error:
            add_service_errors(self, error)
        except ValueError as error:
            self.add_error(
                field_for_message(str(error), kind) or "design_name", str(error)
            )
        else:
            data["labels"], data["built"] = labels, design
            data["design"] = design.to_dict()
        return data

    def _labels(self, kind: str) -> list[str] | None:
        labels: list[str] | None = kind_module(kind, "form").labels(self)
        return labels

    def require(self, name: str, what: str) -> Any:
        """A parameter the design needs; an error on its field if missing."""
        value = self.cleaned_data.get(name)
        if value is None:
            # A value that did not parse has its error on the field already.
            raise ValidationError(
                {} if name in self.errors else {name: f"Give {what}."}
            )
        return value

    def _design_dict(self, kind: str, k: int) -> dict[str, Any]:
        role = kind_module(kind, "form")
        name = role.FIXED_DESIGN or self.cleaned_data.get("design_name") or ""
        if name not in DESIGNS_FOR_KIND[kind]:
            return {"name": name}  # question_design names the designs allowed
        design: dict[str, Any] = role.design_dict(self, name, k)
        return design


def initial_for_question(question: Question) -> dict[str, Any]:
    """The form's initial values for a saved question: its own probabilities,
    its kind's fields filled by the kind (``surveys/kinds/<kind>/form.py``)."""
    initial: dict[str, Any] = {
        "text": question.text,
        "kind": question.kind,
        "mode": "probabilities",
        "optional": question.optional,
        "direct_percent": question.direct_percent,
    }
    initial.update(kind_module(question.kind, "form").initial(question))
    return initial
