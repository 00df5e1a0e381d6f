"""The builder's Translations pages: which further languages a survey offers,
and each language's texts entered beside the survey's own."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from surveys.builder.kinds import YES_NO_KINDS
from surveys.builder.selectors import survey_for_member
from surveys.builder.services import SurveyStateError
from surveys.builder.translations import (
    survey_languages_set,
    survey_translation_update,
)
from surveys.kinds.base import yes_no_options
from surveys.languages import (
    SECTION_TEXT_FIELDS,
    SURVEY_TEXT_FIELDS,
    extra_language_choices,
    format_texts,
    format_translation,
    offered_language_states,
    options_made_by_format,
    question_translation,
    section_translation,
    survey_translation,
    teaching_translation,
    text_name,
    translation_gaps,
)
from surveys.models import Question, Section, Survey
from surveys.team.roles import Need

GET_POST = require_http_methods(["GET", "POST"])
LONG_TEXTS = {"introduction", "consent"}


class LanguagesForm(forms.Form):
    offered_languages = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Further languages respondents may choose"),
    )

    def __init__(self, survey: Survey, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, initial={"offered_languages": survey.offered_languages})
        field = self.fields["offered_languages"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = extra_language_choices(survey)
        field.disabled = not survey.is_draft


class TranslationForm(forms.Form):
    """One field per source text that is not empty, marked with the target
    language; ``sections`` pairs each with the text it translates."""

    def __init__(
        self,
        survey: Survey,
        questions: list[Question],
        language: str,
        data: Any = None,
    ) -> None:
        super().__init__(data)
        self.questions, self.sections = questions, []
        attrs = {"lang": language}
        texts = survey_translation(survey, language)
        rows = []
        for name in SURVEY_TEXT_FIELDS:
            # Published, a text not written yet is translated first, so its
            # language stays complete when it is written (published.py).
            if getattr(survey, name).strip() or not survey.is_draft:
                long = name in LONG_TEXTS
                widget = forms.Textarea(attrs={**attrs, "rows": 3}) if long else None
                self._add(name, capfirst(text_name(name)), texts[name], widget)
                rows.append((getattr(survey, name), name))
        if survey.practice and survey.practice_question.strip():
            self._add(
                "practice_question",
                gettext("Practice question"),
                teaching_translation(survey, language)["practice_question"],
            )
            rows.append((survey.practice_question, "practice_question"))
        self.sections.append((gettext("The survey"), rows))
        self.pages = list(survey.sections.all())
        for number, section in enumerate(self.pages, start=1):
            self.sections.append(
                (
                    gettext("Page %(number)s") % {"number": number},
                    self._section_rows(section, language),
                )
            )
        for number, question in enumerate(questions, start=1):
            self.sections.append(
                (
                    gettext("Question %(number)s") % {"number": number},
                    self._question_rows(question, language),
                )
            )
        # Published, the texts around the questions may still change.
        editable = {*SURVEY_TEXT_FIELDS, "practice_question"}
        editable |= {
            f"s{s.pk}_{name}" for s in self.pages for name in SECTION_TEXT_FIELDS
        }
        for name, field in self.fields.items():
            # Read with the text it translates (the paragraph above it).
            field.widget.attrs.update(
                attrs, **{"aria-describedby": f"id_{name}-source"}
            )
            field.disabled = not survey.is_draft and name not in editable

    def _section_rows(self, section: Section, language: str) -> list[Any]:
        given = section_translation(section, language)
        rows = []
        for name in SECTION_TEXT_FIELDS:
            # Published, a text not written yet is translated first, as the
            # survey's own are (sections.py refuses it until then).
            if str(getattr(section, name)).strip() or not section.survey.is_draft:
                widget = forms.Textarea(attrs={"rows": 2}) if name == "text" else None
                field = f"s{section.pk}_{name}"
                self._add(field, f"Page {name}", given[name], widget)
                rows.append((getattr(section, name), field))
        return rows

    def _add(self, name: str, label: str, initial: str, widget: Any = None) -> None:
        self.fields[name] = forms.CharField(
            required=False, label=label, initial=initial, widget=widget, strip=True
        )

    def _question_rows(self, question: Question, language: str) -> list[Any]:
        text, options = question_translation(question, language)
        if not options and question.kind in YES_NO_KINDS:
            options = yes_no_options(language)
        self._add(
            f"q{question.pk}_text", gettext("Question text"), text, forms.Textarea
        )
        self.fields[f"q{question.pk}_text"].widget.attrs["rows"] = 2
        rows = [(question.text, f"q{question.pk}_text")]
        words = format_translation(question, language)
        for name, label in format_texts(question).items():
            source = str(question.answer_format.get(name) or "")
            if source.strip():
                self._add(f"q{question.pk}_format_{name}", label, words[name])
                rows.append((source, f"q{question.pk}_format_{name}"))
        if options_made_by_format(question):
            # Its options (a number's ranges) are said in each language from
            # its format: nothing to type.
            return rows
        for index, source in enumerate(question.options):
            name = f"q{question.pk}_option_{index}"
            given = options[index] if index < len(options) else ""
            self._add(name, gettext("Option %(number)s") % {"number": index + 1}, given)
            rows.append((source, name))
        return rows

    def bound_sections(self) -> list[tuple[str, list[tuple[str, Any]]]]:
        return [
            (heading, [(source, self[name]) for source, name in rows])
            for heading, rows in self.sections
        ]

    def translation(
        self,
    ) -> tuple[dict[str, str], dict[int, dict[str, Any]], dict[int, dict[str, str]]]:
        """The survey's texts, the questions' and the sections', as the
        translation service takes them."""
        data = self.cleaned_data
        texts = {
            n: data[n] for n in (*SURVEY_TEXT_FIELDS, "practice_question") if n in data
        }
        questions = {q.pk: self._question_given(q) for q in self.questions}
        sections = {
            s.pk: {
                name: data[f"s{s.pk}_{name}"]
                for name in SECTION_TEXT_FIELDS
                if f"s{s.pk}_{name}" in data
            }
            for s in self.pages
        }
        return texts, questions, sections

    def _question_given(self, question: Question) -> dict[str, Any]:
        data = self.cleaned_data
        given: dict[str, Any] = {
            "text": data[f"q{question.pk}_text"],
            "options": [
                data[f"q{question.pk}_option_{i}"]
                for i in range(len(question.options))
                if f"q{question.pk}_option_{i}" in data
            ],
        }
        words = format_texts(question)
        if words:
            given["format"] = {
                name: data.get(f"q{question.pk}_format_{name}", "") for name in words
            }
        return given


@login_required
@GET_POST
def survey_translations(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the further languages; each one's state and a link to its texts."""
    survey = survey_for_member(request.user, pk, Need.EDIT)
    form = LanguagesForm(survey, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            survey_languages_set(
                survey=survey,
                languages=form.cleaned_data["offered_languages"],
                actor=request.user,
            )
        except (SurveyStateError, ValidationError) as error:
            messages.error(request, " ".join(_messages_of(error)))
        else:
            messages.success(request, gettext("Languages saved."))
        return redirect("surveys:translations", survey.pk)
    context = {
        "survey": survey,
        "form": form,
        "languages": offered_language_states(survey),
    }
    return render(request, "surveys/translations.html", context)


@login_required
@GET_POST
def survey_translation_edit(request: HttpRequest, pk: int, lang: str) -> HttpResponse:
    """A language's texts beside the survey's own; a draft may save them
    incomplete, and the page says what is still missing."""
    survey = survey_for_member(request.user, pk, Need.EDIT)
    if lang not in survey.offered_languages:
        raise Http404(gettext("This survey does not offer that language."))
    questions = list(survey.questions.all())
    form = TranslationForm(survey, questions, lang, request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        texts, wording, pages = form.translation()
        if not survey.is_draft:
            wording = {}  # frozen, shown read-only: nothing to send
        try:
            missing = survey_translation_update(
                survey=survey,
                language=lang,
                texts=texts,
                questions=wording,
                sections=pages,
                actor=request.user,
            )
        except SurveyStateError as error:
            messages.error(request, str(error))
            status = 409
        except ValidationError as error:
            form.add_error(None, " ".join(_messages_of(error)))
            status = 400
        else:
            messages.success(
                request,
                gettext("Translation saved: complete.")
                if not missing
                else gettext("Translation saved; still missing: %(missing)s.")
                % {"missing": ", ".join(missing)},
            )
            return redirect("surveys:translation_edit", survey.pk, lang)
    context = {
        "survey": survey,
        "form": form,
        "language": lang,
        "language_name": dict(extra_language_choices(survey)).get(lang, lang),
        "missing": translation_gaps(survey, questions, lang),
    }
    return render(request, "surveys/translation_form.html", context, status=status)


def _messages_of(error: Exception) -> list[str]:
    if isinstance(error, ValidationError):
        return list(error.messages)
    return [str(error)]
