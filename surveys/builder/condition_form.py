"""The question form's display logic: a few clauses on earlier questions
asked plainly, joined by one and/or switch, built into the condition the
services check (surveys/display_logic/)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.display_logic.questions import answer_spaces
from surveys.models import Question, Survey

CLAUSES = 3
MATCH_CHOICES = [
    ("", _("Everyone")),
    ("all", _("Only respondents who meet all of these")),
    ("any", _("Only respondents who meet any of these")),
]
OP_CHOICES = [
    ("one_of", _("answered one of")),
    ("range", _("answered a number from … to … (both included)")),
]


class ConditionForm(forms.Form):
    """Who is shown the question. Answers are typed as their options'
    labels (or counts), separated by commas; a range takes a minimum, a
    maximum or both, each included, and on a number asked plainly reads the
    number typed (decimals too), not its range."""

    match = forms.ChoiceField(
        choices=MATCH_CHOICES,
        required=False,
        label=_("Show this question to"),
        help_text=_(
            "Conditions read only earlier questions asked plainly (direct, or "
            "a count asked plainly), never a randomized one: a protected answer must "
            "not change what the page does. A range includes both of its bounds: on a "
            "number it reads the number typed (from 18 to 65 shows the question to 18 "
            "and to 65, and to 40.5 where decimals are allowed), on other questions "
            "the answer's position, counted from 0."
        ),
    )

    def __init__(
        self, data: Any = None, *, survey: Survey, question: Question | None
    ) -> None:
        initial = _initial(question)
        super().__init__(data, initial=initial, prefix="logic")
        self.choices = _earlier(survey, question)
        # Room for every stored clause (the API may set more) and one more.
        stored = question.condition if question is not None else None
        self.count = max(CLAUSES, len(stored["clauses"]) + 1 if stored else 0)
        for i in range(self.count):
            self.fields[f"question_{i}"] = forms.TypedChoiceField(
                choices=[("", "—"), *((q.pk, _name(q, r)) for q, r in self.choices)],
                coerce=int,
                empty_value=None,
                required=False,
                label=gettext("Condition %(number)s: question") % {"number": i + 1},
            )
            self.fields[f"op_{i}"] = forms.ChoiceField(
                choices=OP_CHOICES, required=False, label=_("which")
            )
            self.fields[f"answers_{i}"] = forms.CharField(
                required=False,
                max_length=500,
                label=_("answers (labels, comma-separated)"),
            )
            self.fields[f"min_{i}"] = forms.FloatField(
                required=False, label=_("from (included)")
            )
            self.fields[f"max_{i}"] = forms.FloatField(
                required=False, label=_("to (included)")
            )

    def clause_rows(self) -> list[list[Any]]:
        """Each clause's fields, for the template."""
        return [
            [
                self[f"{name}_{i}"]
                for name in ("question", "op", "answers", "min", "max")
            ]
            for i in range(self.count)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        by_id = {q.pk: q for q, _ in self.choices}
        clauses = []
        for i in range(self.count):
            pk = data.get(f"question_{i}")
            if pk is None:
                continue
            op = data.get(f"op_{i}") or "one_of"
            if op == "range":
                clauses.append(
                    {
                        "question": pk,
                        "op": op,
                        "min": _number(data.get(f"min_{i}")),
                        "max": _number(data.get(f"max_{i}")),
                    }
                )
                continue
            codes = _codes(by_id[pk], data.get(f"answers_{i}", ""))
            if codes is None:
                self.add_error(
                    f"answers_{i}",
                    gettext(
                        "Type one or more of this question's answers, separated "
                        "by commas: %(answers)s."
                    )
                    % {"answers": ", ".join(by_id[pk].options)},
                )
                continue
            clauses.append({"question": pk, "op": "one_of", "values": codes})
        match = data.get("match") or ""
        data["condition"] = (
            {"match": match, "clauses": clauses} if match and clauses else None
        )
        if match and not clauses and not self.errors:
            self.add_error(
                "match", gettext("Choose a question for at least one condition.")
            )
        return data


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _codes(question: Question, typed: str) -> list[int] | None:
    labels = [label.strip().casefold() for label in question.options]
    wanted = [part.strip().casefold() for part in typed.split(",") if part.strip()]
    if not wanted or any(part not in labels for part in wanted):
        return None
    return sorted({labels.index(part) for part in wanted})


UNUSABLE = {
    "randomized": _("(randomized: cannot be used)"),
    "shuffled": _("(same page, shown in a random order: cannot be used)"),
    "free text": _("(free text: cannot be used)"),
}


def _name(question: Question, unusable: str) -> str:
    why = UNUSABLE.get(unusable)
    marked = f" {why}" if why else ""
    return f"{question.position + 1}. {question.text[:60]}{marked}"


def _earlier(survey: Survey, question: Question | None) -> list[tuple[Question, str]]:
    """The questions before ``question``, each with why it cannot be read
    ("randomized", "free text", "shuffled": on the question's own page, shown
    in a random order) or "": offered all, so that choosing one is refused with the
    reason (surveys/display_logic/) rather than silently missing."""
    ordered = list(survey.questions.all())
    if question is not None:
        ordered = [
            q for q in ordered if (q.position, q.pk) < (question.position, question.pk)
        ]
    spaces = answer_spaces(survey.questions.all())
    page = (
        question.section
        if question is not None
        else survey.sections.order_by("-position", "-id").first()
    )
    shuffled = page.pk if page is not None and page.shuffle_questions else None
    return [
        (
            q,
            "randomized"
            if spaces[q.pk].randomized
            else "free text"
            if spaces[q.pk].typed_words
            else "shuffled"
            if shuffled is not None and q.section_id == shuffled
            else "",
        )
        for q in ordered
    ]


def _initial(question: Question | None) -> dict[str, Any]:
    condition = question.condition if question is not None else None
    if not condition:
        return {}
    assert question is not None
    initial: dict[str, Any] = {"match": condition["match"]}
    options = {q.pk: q.options for q in question.survey.questions.all()}
    for i, clause in enumerate(condition["clauses"]):
        initial[f"question_{i}"] = clause["question"]
        if clause["op"] == "range":
            initial.update(
                {
                    f"op_{i}": "range",
                    f"min_{i}": clause["min"],
                    f"max_{i}": clause["max"],
                }
            )
            continue
        values = clause["values"] if clause["op"] == "one_of" else [clause["value"]]
        labels = options.get(clause["question"], [])
        initial[f"op_{i}"] = "one_of"
        initial[f"answers_{i}"] = ", ".join(
            labels[v] for v in values if v < len(labels)
        )
    return initial
