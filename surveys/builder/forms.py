"""Forms for the researchers' pages: they parse input; services.py decides.

A question's kind, options and design parameters are design_forms.py's.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from estimation.inference.validation import MAX_DIRECT_PERCENT
from surveys.access.services import PANEL_SETTINGS
from surveys.builder.design_forms import DesignForm, initial_for_question
from surveys.builder.planning import (
    Assumptions,
    assumption_sentence,
    groups_summary,
)
from surveys.builder.published import (
    CLOSES_AT_HELP,
    FROZEN_REASONS,
    consent_step_frozen,
)
from surveys.builder.services import survey_locked_fields
from surveys.builder.teaching import check_candidates
from surveys.kinds import kind_module
from surveys.models import Question, Survey, language_choices

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"
MAX_PLANNED = 10_000_000


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format=DATETIME_LOCAL)


class SurveyForm(forms.Form):
    # Choices are read when a form is made, never when this module is imported.
    language = forms.TypedChoiceField(
        choices=language_choices,
        initial="en",
        # A form posted without it (an older page) keeps the default.
        required=False,
        empty_value="en",
        label=_("Language"),
        help_text=_(
            "The language respondents read: their pages, the sentences "
            "that say how each answer is protected, and the messages they may get "
            "are in it. Write the public title, introduction, consent statement, "
            "questions and options in this language too. It cannot change after "
            "publishing."
        ),
    )
    title = forms.CharField(
        max_length=200,
        label=_("Title"),
        help_text=_(
            "For you and your team; respondents see the public title, or "
            "this title when there is none."
        ),
    )
    public_title = forms.CharField(
        max_length=200,
        required=False,
        label=_("Public title (optional), in the survey language"),
        help_text=_(
            "Shown to respondents, in their browser tab and history. A "
            "neutral one (“Spring questionnaire”) keeps the topic off shared screens; "
            "empty uses the title."
        ),
    )
    slug = forms.CharField(
        max_length=64,
        required=False,
        label=_("Respondent link (optional)"),
        help_text=_(
            "The part after /s/. New surveys get a random link that says "
            "nothing about the topic; type your own for a readable one. It cannot "
            "change after publishing."
        ),
    )
    introduction = forms.CharField(
        required=False,
        label=_("Introduction (optional), in the survey language"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "Plain text shown above the questions; line breaks are kept, "
            "and web addresses (https://…) and [label](https://…) become links."
        ),
    )
    consent = forms.CharField(
        required=False,
        label=_("Consent statement (optional), in the survey language"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "If set, respondents see it first and choose “I agree” or “I do "
            "not agree”; the questions appear only after they agree. Links as in the "
            "introduction. Agreeing or declining is not stored: declining sends nothing."
        ),
    )
    opens_at = forms.DateTimeField(
        required=False, label=_("Opens at (optional)"), widget=DateTimeLocalInput()
    )
    closes_at = forms.DateTimeField(
        required=False, label=_("Closes at (optional)"), widget=DateTimeLocalInput()
    )
    planned_responses = forms.IntegerField(
        min_value=1,
        max_value=MAX_PLANNED,
        initial=500,
        label=_("Planned number of respondents"),
        help_text=_("Used to show the precision to expect while you choose designs."),
    )
    # Who may answer (surveys/access/); the panel settings matter in panel mode.
    access_mode = forms.ChoiceField(
        choices=Survey.AccessMode.choices,
        initial=Survey.AccessMode.OPEN,
        required=False,
        label=_("Who may answer"),
        help_text=_(
            "Invitation only: each single-use link answers once. Panel: "
            "each participant id from the panel's link answers once. Neither is ever "
            "stored with the answers."
        ),
    )
    response_limit = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PLANNED,
        label=_("Response limit (optional)"),
        help_text=_(
            "A quota: the survey closes itself at exactly this many responses."
        ),
    )
    panel_id_parameter = forms.CharField(
        max_length=64,
        initial="PROLIFIC_PID",
        required=False,
        label=_("Panel: participant id parameter"),
        help_text=_(
            "The query parameter of the panel's link that carries the "
            "participant id (Prolific: PROLIFIC_PID; MTurk: workerId)."
        ),
    )
    completion_url = forms.URLField(
        max_length=500,
        required=False,
        assume_scheme="https",
        label=_("Panel: completion URL"),
        help_text=_(
            "Where respondents go after answering. Put {code} where the "
            "completion code goes; without it, the code is added as ?cc=CODE."
        ),
    )
    completion_code = forms.CharField(
        max_length=100, required=False, label=_("Panel: completion code")
    )
    screen_out_url = forms.URLField(
        max_length=500,
        required=False,
        assume_scheme="https",
        label=_("Panel: screen-out URL (optional)"),
        help_text=_("Where panel respondents go when the survey is closed or full."),
    )

    practice = forms.BooleanField(
        required=False,
        label=_("Practice round"),
        help_text=_(
            "Before the questions, respondents may try the randomizer on a "
            "harmless yes/no question: their device randomizes the answer as it does "
            "a real one, then says what it would have sent. The practice answer is "
            "never sent or stored, and counts nowhere."
        ),
    )
    practice_question = forms.CharField(
        max_length=300,
        required=False,
        label=_("Practice question (optional), in the survey language"),
        help_text=_(
            "A harmless yes/no question. Empty: “Is your birthday in the "
            "first half of the year (January to June)?”, in the respondent's language."
        ),
    )
    comprehension_check = forms.ChoiceField(
        required=False,
        label=_("Comprehension check"),
        help_text=_(
            "A direct question you wrote to check that respondents "
            "understood the randomizer, and the answer that passes it. The results "
            "can then be read among those who passed. Add the direct question first."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.candidates: dict[int, Question] = {}
        self.fields["comprehension_check"].choices = [("", _("None"))]
        self.locked: list[str] = []
        self.not_shown: frozenset[str] = frozenset()
        # A published survey's close date, which the page shows to the minute:
        # posted back as shown, it is no change (not a new date seconds earlier).
        self.closes_at_kept: Any = None
        zone = timezone.get_current_timezone_name()
        for name in ("opens_at", "closes_at"):
            self.fields[name].help_text = _("Time zone: %(zone)s.") % {"zone": zone}

    @classmethod
    def for_survey(cls, survey: Survey, data: Any = None) -> SurveyForm:
        """The survey's details; those its state locks are shown read-only."""
        initial = {name: getattr(survey, name) for name in cls.base_fields}
        for name in ("opens_at", "closes_at"):
            if initial[name] is not None:
                initial[name] = timezone.localtime(initial[name])
        initial["comprehension_check"] = check_choice(survey)
        form = cls(data, initial=initial)
        form.offer_checks(survey)
        if not survey.is_draft and survey.access_mode != Survey.AccessMode.PANEL:
            # Its mode is frozen, so panel settings could never apply: not
            # shown, and the service refuses them if a request sends any.
            form.not_shown = frozenset(PANEL_SETTINGS)
        form.locked = sorted(survey_locked_fields(survey) & set(form.fields))
        for name in form.locked:
            form.fields[name].disabled = True
            form.fields[name].help_text = FROZEN_REASONS.get(
                name, _("Frozen since publishing.")
            )
        if not survey.is_draft:
            form.closes_at_kept = survey.closes_at
            zone = form.fields["closes_at"].help_text
            form.fields["closes_at"].help_text = f"{CLOSES_AT_HELP} {zone}"
            why = consent_step_frozen(survey)
            if why:
                consent = form.fields["consent"]
                consent.help_text = f"{consent.help_text} {why}"
        return form

    def add_error(self, field: str | None, error: Any) -> None:
        """An error on a field the page does not show is said above the form."""
        if field in self.not_shown:
            field = None
        super().add_error(field, error)

    def panel_settings_shown(self) -> bool:
        """Whether the page first shows the panel settings: for a panel survey,
        or when one of them has an error to read (the script hides them when
        another mode is chosen; without it they all stay visible)."""
        if self["access_mode"].value() == Survey.AccessMode.PANEL:
            return True
        return any(
            self.has_error(name) for name in PANEL_SETTINGS if name in self.fields
        )

    def editable_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in self.fields
            if name not in self.locked and name not in self.not_shown
        ]

    def frozen_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in self.fields
            if name in self.locked and name not in self.not_shown
        ]

    def posted_locked_values(self) -> dict[str, Any]:
        """What a request posted for read-only fields, parsed, for the service
        to refuse: a browser never sends them, so any is a crafted change."""
        posted = {}
        for name in self.locked:
            if name not in self.data:
                continue
            field = self.fields[name]
            raw = field.widget.value_from_datadict(self.data, self.files, name)
            try:
                posted[name] = field.to_python(raw)
            except ValidationError:
                posted[name] = raw  # unparsable: certainly not the current value
        return posted

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # Left out (a script's post, an older page): today's behaviour.
        data["access_mode"] = data.get("access_mode") or Survey.AccessMode.OPEN
        data["panel_id_parameter"] = data.get("panel_id_parameter") or "PROLIFIC_PID"
        kept = self.closes_at_kept
        if kept is not None and data.get("closes_at") == timezone.localtime(
            kept
        ).replace(second=0, microsecond=0):
            data["closes_at"] = kept
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error(
                "closes_at", _("The close date must be after the open date.")
            )
        chosen = data.pop("comprehension_check", "")
        question, passing = None, None
        if chosen:
            number, _sep, code = str(chosen).partition(":")
            question, passing = self.candidates.get(int(number)), int(code)
        data["comprehension_check"], data["comprehension_pass"] = question, passing
        return data

    def offer_checks(self, survey: Survey) -> None:
        """The comprehension check's choices: each direct question of the
        survey with each of its answers as the passing one."""
        choices: list[tuple[str, str]] = [("", _("None"))]
        for number, question in enumerate(survey.questions.all(), start=1):
            if question not in check_candidates(survey):
                continue
            self.candidates[question.pk] = question
            for code, option in enumerate(question.options):
                label = _(
                    "Question %(number)s (%(text)s), passing answer: %(option)s"
                ) % {"number": number, "text": question.text[:60], "option": option}
                choices.append((f"{question.pk}:{code}", label))
        self.fields["comprehension_check"].choices = choices


def check_choice(survey: Survey) -> str:
    """The survey's check as the builder's choice names it: "question:answer"."""
    if survey.comprehension_check_id is None or survey.comprehension_pass is None:
        return ""
    return f"{survey.comprehension_check_id}:{survey.comprehension_pass}"


class QuestionForm(DesignForm):
    text = forms.CharField(
        label=_("Question text, in the survey language"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Plain text, shown to respondents as written."),
    )
    optional = forms.BooleanField(
        required=False,
        label=_("Optional"),
        help_text=_(
            "Direct questions may be left unanswered; randomized ones offer "
            "“Prefer not to answer”, which is sent as it is, not randomized. Either "
            "way the answer is stored as missing and the estimate uses only those "
            "who answered."
        ),
    )
    direct_percent = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_DIRECT_PERCENT,
        initial=0,
        label=_("Validation arm: percent asked directly"),
        help_text=format_lazy(
            _(
                # xgettext:no-python-format
                "Randomized questions only. This share of respondents, chosen at "
                "random on their own device, is asked the question directly "
                "instead, without protection, and told so before answering. The "
                "results then compare the direct answers with the randomized "
                "estimate, to show how much asking directly changes what people "
                "say. 0 for none; at most {maximum}. Their answers do not count in "
                "the randomized estimate, which uses fewer respondents: at 30% its "
                "interval is about 1.2 times as wide (1 / √0.7), at 50% about 1.4 "
                "times."
            ),
            maximum=MAX_DIRECT_PERCENT,
        ),
    )
    field_order = ["text"]

    @classmethod
    def for_question(cls, question: Question, data: Any = None) -> QuestionForm:
        return cls(data, initial=initial_for_question(question))


def errors_text(form: forms.Form, skip: tuple[str, ...] = ()) -> str:
    """A form's errors in one line, each after the label of its field."""
    parts = []
    for name, errors in form.errors.items():
        if name in skip:
            continue
        label = form.fields[name].label if name in form.fields else None
        parts += [f"{label}: {e}" if label else str(e) for e in errors]
    return " ".join(parts)


def preview_for(
    form: DesignForm, n: int | None, assumptions: Assumptions | None = None
) -> dict[str, Any]:
    """The design preview of a form's values (its initial ones when unbound),
    or ``{"error": ..., "fields": ...}`` when they do not make a design; the
    precision and two groups planned with the researcher's ``assumptions``."""
    if not form.is_bound:
        data = {
            name: form.get_initial_for_field(form.fields[name], name)
            for name in DesignForm.base_fields
        }
        form = DesignForm({k: v for k, v in data.items() if v is not None})
    form.is_valid()
    built = form.cleaned_data.get("built")
    if built is None:
        fields = {k: list(v) for k, v in form.errors.items() if k != "text"}
        error = errors_text(form, skip=("text",))
        return {
            "error": error or gettext("These settings do not make a design."),
            "fields": fields,
        }
    assumptions = assumptions or Assumptions()
    text = kind_module(form.cleaned_data["kind"], "text")
    summary: dict[str, Any] = text.summary(
        built, form.cleaned_data["labels"], n, prevalence=assumptions.prevalence
    )
    return {
        **summary,
        "prevalence_assumed": assumptions.assumed,
        "assumption": assumption_sentence(assumptions),
        "groups": groups_summary(built, assumptions),
    }
