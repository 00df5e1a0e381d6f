"""The researcher's page of sections: add, rename, reorder and delete the
respondent's pages, put each question on one, and choose what is shown in an
order drawn per respondent. Each view parses input and calls one service
(sections.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from surveys.builder import sections
from surveys.builder.selectors import survey_for_member
from surveys.builder.services import SurveyStateError
from surveys.display_logic.questions import survey_conditions_check
from surveys.models import Section, Survey
from surveys.team.roles import Need

MOVES = {"up": -1, "down": 1}


class SectionForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Section
        fields = ["title", "text", "shuffle_questions"]
        labels = {
            "title": _("Title"),
            "text": _("Short text (optional)"),
            "shuffle_questions": _(
                "Show this section's questions in a random order, "
                "drawn for each respondent"
            ),
        }
        widgets = {"text": forms.Textarea(attrs={"rows": 2})}


def _to_page(survey: Survey, anchor: str = "") -> HttpResponse:
    url = reverse("surveys:sections", args=[survey.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def _refused(request: HttpRequest, error: Exception) -> None:
    if isinstance(error, ValidationError):
        messages.error(request, " ".join(error.messages))
    else:
        messages.error(request, str(error))


@login_required
@require_http_methods(["GET", "POST"])
def sections_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET shows the sections and their questions; POST adds a section."""
    survey = survey_for_member(
        request.user, pk, Need.VIEW if request.method == "GET" else Need.EDIT
    )
    form = SectionForm(request.POST or None, prefix="new")
    if request.method == "POST" and form.is_valid():
        try:
            section = sections.section_create(
                survey=survey, actor=request.user, **form.cleaned_data
            )
        except (SurveyStateError, ValidationError) as error:
            _refused(request, error)
        else:
            messages.success(
                request,
                gettext("Added the section “%(title)s”.") % {"title": section.title},
            )
            return _to_page(survey, f"section-{section.pk}")
    all_sections = list(survey.sections.all())
    context = {
        "survey": survey,
        "sections": [
            (section, _section_form(section, instance=section))
            for section in all_sections
        ],
        "all_sections": all_sections,
        "questions": [
            (q, sections.kind_shuffles_options(q.kind)) for q in survey.questions.all()
        ],
        "form": form,
        "frozen": sections.SECTIONS_FROZEN,
    }
    return render(
        request, "surveys/sections.html", context, status=400 if form.errors else 200
    )


def _section_form(section: Section, **kwargs: Any) -> SectionForm:
    """A section's form; published, only its title and text may change (its
    random order is shown, not sent)."""
    form = SectionForm(
        prefix=f"s{section.pk}",
        initial={"shuffle_questions": section.shuffle_questions},
        **kwargs,
    )
    if not section.survey.is_draft:
        form.fields["shuffle_questions"].disabled = True
    return form


def _section(request: HttpRequest, pk: int, sid: int) -> Section:
    survey = survey_for_member(request.user, pk, Need.EDIT)
    return get_object_or_404(survey.sections, pk=sid)


@login_required
@require_POST
def section_edit(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    section = _section(request, pk, sid)
    form = _section_form(section, data=request.POST)
    if not form.is_valid():
        messages.error(
            request, " ".join(str(e) for errors in form.errors.values() for e in errors)
        )
        return _to_page(section.survey, f"section-{section.pk}")
    try:
        sections.section_update(
            section=section, actor=request.user, **form.cleaned_data
        )
    except (SurveyStateError, ValidationError) as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            gettext("Saved the section “%(title)s”.") % {"title": section.title},
        )
    return _to_page(section.survey, f"section-{section.pk}")


@login_required
@require_POST
def section_move(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    section = _section(request, pk, sid)
    offset = MOVES.get(request.POST.get("direction", ""))
    if offset is None:
        return HttpResponseBadRequest("direction must be up or down.")
    try:
        sections.section_move(section=section, offset=offset, actor=request.user)
    except (SurveyStateError, ValidationError) as error:
        _refused(request, error)
    return _to_page(section.survey, f"section-{section.pk}")


@login_required
@require_POST
def section_delete(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    section = _section(request, pk, sid)
    try:
        sections.section_delete(section=section, actor=request.user)
    except (SurveyStateError, ValidationError) as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            gettext(
                "Deleted the section “%(title)s”; its questions moved to the "
                "section next to it."
            )
            % {"title": section.title},
        )
    return _to_page(section.survey)


@login_required
@require_POST
def section_questions(request: HttpRequest, pk: int) -> HttpResponse:
    """Each question's section (``section-<id>``) and whether its options are
    shown in a random order (``shuffle-<id>``), for every question at once."""
    survey = survey_for_member(request.user, pk, Need.EDIT)
    by_id = {s.pk: s for s in survey.sections.all()}
    try:
        _questions_assign(request, survey, by_id)
    except (SurveyStateError, ValidationError) as error:
        _refused(request, error)
    except _BadSection as error:
        return HttpResponseBadRequest(str(error))
    else:
        messages.success(request, gettext("Saved the questions' sections and order."))
    return _to_page(survey, "questions-title")


class _BadSection(ValueError):
    """A section id that is not one of the survey's."""


@transaction.atomic
def _questions_assign(
    request: HttpRequest, survey: Survey, by_id: dict[int, Section]
) -> None:
    """Every move and order at once, checked once at the end (the display
    logic must hold when all are done, not after each), or none."""
    for question in survey.questions.all():
        chosen = request.POST.get(f"section-{question.pk}")
        if chosen is not None:
            if not chosen.isdigit() or int(chosen) not in by_id:
                raise _BadSection(
                    f"section-{question.pk} must be the id of one of this "
                    "survey's sections."
                )
            sections.question_section_assign(
                question=question,
                section=by_id[int(chosen)],
                actor=request.user,
                check=False,
            )
        wanted = request.POST.get(f"shuffle-{question.pk}") == "on"
        if wanted != question.shuffle_options:
            sections.question_shuffle_set(
                question=question, shuffle_options=wanted, actor=request.user
            )
    survey_conditions_check(survey, field="section")
