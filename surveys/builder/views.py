"""Researcher pages: each view parses input, calls one service and renders.

Every survey and question is looked up through the owner's selectors, so
another researcher's survey is a 404, for reading and for every action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from estimation import Band, privacy_band
from surveys.access.selectors import ledger_count
from surveys.builder import questions, services
from surveys.builder.condition_form import ConditionForm
from surveys.builder.design_forms import (
    DesignForm,
    add_service_errors,
    design_field_config,
)
from surveys.builder.design_text import COMPOSITION
from surveys.builder.forms import MAX_PLANNED, QuestionForm, SurveyForm, preview_for
from surveys.builder.kinds import DESIGNS_FOR_KIND, YES_NO_KINDS
from surveys.builder.limits import (
    confirmation_label,
    limit_problems,
    no_guarantee_questions,
    total_epsilon_text,
    unbounded_questions,
)
from surveys.builder.planning import PlanningInputError, parse_assumptions
from surveys.builder.published import QUESTIONS_FROZEN
from surveys.builder.selectors import (
    epsilon_of,
    question_for_member,
    survey_closing,
    survey_for_member,
    surveys_for_member,
)
from surveys.builder.services import (
    DELETE_REFUSED,
    LockedFieldsError,
    SurveyStateError,
    UnconfirmedUnboundedError,
)
from surveys.builder.submission_size import size_problems
from surveys.kinds import kind_module
from surveys.languages import (
    chosen_languages,
    offered_language_states,
    translation_problems,
)
from surveys.models import Question, Survey
from surveys.respond.views import render_survey_page
from surveys.sealing.services import team_key_state
from surveys.team.roles import Need
from surveys.words import band_name

GET_POST = require_http_methods(["GET", "POST"])
MOVES = {"up": -1, "down": 1}


def _posted(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else None


def _to_detail(survey: Survey, anchor: str = "") -> HttpResponse:
    url = reverse("surveys:detail", args=[survey.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def _frozen(request: HttpRequest, survey: Survey) -> HttpResponse:
    messages.error(
        request,
        gettext(
            "This survey is published: its questions and designs were frozen "
            "when it was published."
        ),
    )
    return _to_detail(survey)


def _share_url(request: HttpRequest, survey: Survey) -> str:
    return request.build_absolute_uri(reverse("respond:page", args=[survey.slug]))


# -- surveys -----------------------------------------------------------------


@login_required
@require_GET
def survey_list(request: HttpRequest) -> HttpResponse:
    rows = [(survey, epsilon_of(survey)) for survey in surveys_for_member(request.user)]
    return render(request, "surveys/list.html", {"rows": rows})


@login_required
@GET_POST
def survey_create(request: HttpRequest) -> HttpResponse:
    form = SurveyForm(_posted(request))
    if form.is_valid():
        try:
            survey = services.survey_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, gettext("Survey created. Now add its questions."))
            return _to_detail(survey)
    return render(request, "surveys/survey_form.html", {"form": form, "survey": None})


@login_required
@GET_POST
def survey_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a survey's details; after publishing those that say how the
    answers were collected are read-only with the reason beside each, and a
    crafted change to them is refused by the service (400, nothing saved)."""
    survey = survey_for_member(request.user, pk, Need.EDIT)
    form = SurveyForm.for_survey(survey, _posted(request))
    status = 200
    if form.is_valid():
        try:
            changes = {**form.cleaned_data, **form.posted_locked_values()}
            services.survey_update(survey=survey, actor=request.user, **changes)
        except LockedFieldsError as error:
            status = 400
            form.add_error(None, str(error))
            for name in error.fields:
                if name in form.fields:
                    form.add_error(name, gettext("Cannot change after publishing."))
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, gettext("Survey details saved."))
            return _to_detail(survey)
    context = {"form": form, "survey": survey, "questions_frozen": QUESTIONS_FROZEN}
    return render(request, "surveys/survey_form.html", context, status=status)


@login_required
@require_POST
def survey_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for_member(request.user, pk, Need.EDIT)
    copy = services.survey_duplicate(survey=survey, owner=request.user)
    messages.success(
        request,
        gettext(
            "Duplicated: this is a new draft with the same questions and designs. "
            "Set its dates, then publish it when it is ready."
        ),
    )
    return _to_detail(copy)


@login_required
@GET_POST
def survey_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes a survey nobody has answered."""
    survey = survey_for_member(request.user, pk, Need.OWN)
    if request.method == "GET":
        if survey.response_count:
            messages.error(request, str(DELETE_REFUSED))
            return _to_detail(survey)
        return render(request, "surveys/survey_confirm_delete.html", {"survey": survey})
    try:
        services.survey_delete(survey=survey, actor=request.user)
    except SurveyStateError as error:
        messages.error(request, str(error))
        return _to_detail(survey)
    messages.success(request, gettext("Deleted “%(title)s”.") % {"title": survey.title})
    return redirect("surveys:list")


def question_summary(question: Question, n: int | None, language: str) -> Any:
    """A saved question's design preview, whatever its kind."""
    text = kind_module(question.kind, "text")
    return text.summary(question.get_design(), question.options, n, language=language)


@login_required
@require_GET
def survey_detail(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for_member(request.user, pk, Need.VIEW)
    # Each card lists its question's options unless its kind says they go
    # without saying (a yes/no question's No and Yes).
    questions = [
        (
            q,
            question_summary(q, survey.planned_responses, survey.language),
            kind_module(q.kind, "builder").LISTS_OPTIONS,
        )
        for q in survey.questions.all()
    ]
    context = {
        "survey": survey,
        "questions": questions,
        "epsilon": epsilon_of(survey),
        "composition": COMPOSITION,
        "share_url": _share_url(request, survey),
        "counted": ledger_count(survey),
        "offered": offered_language_states(survey),
        "closing": survey_closing(survey),
        # Sealed open answers: the team key's fingerprint, or that one is due.
        "team_key": team_key_state(survey),
    }
    return render(request, "surveys/detail.html", context)


@login_required
@require_GET
def survey_preview(request: HttpRequest, pk: int, lang: str = "") -> HttpResponse:
    """The respondent page of a draft or published survey, in any language it
    offers (an incomplete translation shows the survey's own texts in its gaps)."""
    survey = survey_for_member(request.user, pk, Need.VIEW)
    if lang and lang not in chosen_languages(survey):
        raise Http404(gettext("This survey does not offer that language."))
    return render_survey_page(request, survey, preview=True, language=lang)


@login_required
@GET_POST
def survey_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks for confirmation; POST publishes and freezes the designs. A
    design without a finite epsilon also needs the box confirming that
    respondents will be told: without it the page comes back saying so."""
    survey = survey_for_member(request.user, pk, Need.EDIT)
    if request.method == "GET":
        if not survey.is_draft:
            messages.info(request, gettext("This survey is already published."))
            return _to_detail(survey)
        return _publish_page(request, survey)
    confirmed = request.POST.get("confirm_unbounded") == "on"
    try:
        services.survey_publish(
            survey=survey, actor=request.user, confirm_unbounded=confirmed
        )
    except UnconfirmedUnboundedError as error:
        return _publish_page(request, survey, unconfirmed=str(error), status=400)
    except SurveyStateError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, gettext("Published. Respondents can answer at the link below.")
        )
    return _to_detail(survey)


def _band(band: Band) -> dict[str, str]:
    """A privacy band as the publish page shows it, named in the page's language."""
    return {"key": band.key, "name": band_name(band)}


def _publish_page(
    request: HttpRequest, survey: Survey, *, unconfirmed: str = "", status: int = 200
) -> HttpResponse:
    questions = [(q, q.get_design()) for q in survey.questions.all()]
    designed = [(q.text, d) for q, d in questions]
    unbounded = unbounded_questions(designed)
    total = epsilon_of(survey)
    context = {
        "survey": survey,
        "question_count": len(questions),
        "bands": [
            (
                q,
                kind_module(q.kind, "text").epsilon_text(d),
                _band(privacy_band(d.epsilon)),
            )
            for q, d in questions
        ],
        "total_text": total_epsilon_text([d for _q, d in questions]),
        "total_band": _band(privacy_band(total)),
        "problems": limit_problems(designed)
        + size_problems(survey, [q for q, _d in questions])
        + translation_problems(survey, [q for q, _d in questions]),
        "confirmation": (
            confirmation_label(unbounded, no_guarantee_questions(designed))
            if unbounded
            else ""
        ),
        "unconfirmed": unconfirmed,
    }
    return render(request, "surveys/publish_confirm.html", context, status=status)


@login_required
@require_POST
def survey_close(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for_member(request.user, pk, Need.EDIT)
    return _change_state(
        request,
        survey,
        services.survey_close,
        gettext("Closed: no more answers are accepted."),
    )


@login_required
@require_POST
def survey_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for_member(request.user, pk, Need.EDIT)
    return _change_state(
        request,
        survey,
        services.survey_reopen,
        gettext("Reopened: answers are accepted again."),
    )


def _change_state(
    request: HttpRequest,
    survey: Survey,
    action: Callable[..., Survey],
    done: str,
) -> HttpResponse:
    try:
        action(survey=survey, actor=request.user)
    except SurveyStateError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _to_detail(survey)


# -- questions ---------------------------------------------------------------


def _question_page(
    request: HttpRequest,
    survey: Survey,
    form: QuestionForm,
    question: Question | None,
    logic: ConditionForm | None = None,
) -> HttpResponse:
    context = {
        "survey": survey,
        "question": question,
        "form": form,
        "logic": logic
        or ConditionForm(_posted(request), survey=survey, question=question),
        "preview": preview_for(form, survey.planned_responses),
        "preview_config": {
            "url": reverse("surveys:design_preview"),
            "n": survey.planned_responses,
            "designsForKind": {k: list(v) for k, v in DESIGNS_FOR_KIND.items()},
            **design_field_config(),
            # Every word the page's script shows: it holds no text of its own.
            "labels": {
                "randomized": gettext("How answers are randomized"),
                "epsilon": gettext("Epsilon"),
                "notPrivate": gettext("not private"),
                "protection": gettext("Protection"),
                "observer": gettext("What an observer could learn"),
                "precision": gettext("Expected precision"),
                "assumption": gettext("Expected prevalence"),
                "groups": gettext("Two groups"),
                "encoding": gettext("Which encoding"),
                "unavailable": gettext("The preview is not available."),
                "unloaded": gettext(
                    "The preview could not be loaded. Saving still checks the design."
                ),
            },
        },
    }
    return render(request, "surveys/question_form.html", context)


def _save_question(
    form: QuestionForm,
    save: Callable[..., Question],
    logic: ConditionForm,
    **target: Any,
) -> Question | None:
    """Call the service with the form's question and display logic; None if
    either form or the service refused the input."""
    if not logic.is_valid():
        return None
    data = form.cleaned_data
    try:
        return save(
            **target,
            text=data["text"],
            kind=data["kind"],
            # A yes/no question's answers come in the survey's language.
            options=None if data["kind"] in YES_NO_KINDS else data["labels"],
            design=data["design"],
            optional=data["optional"],
            direct_percent=data.get("direct_percent") or 0,
            condition=logic.cleaned_data["condition"],
            # A typed answer's format (a number's bounds and bins), if any.
            answer_format=data.get("answer_format"),
        )
    except ValidationError as error:
        rest = _condition_errors_to(logic, error)
        if rest is not None:
            add_service_errors(form, rest)
        return None


def _condition_errors_to(
    logic: ConditionForm, error: ValidationError
) -> ValidationError | None:
    """Shows the service's errors about display logic on its own form; the
    others are returned, for the question form."""
    if not hasattr(error, "error_dict") or "condition" not in error.error_dict:
        return error
    others = error.message_dict
    for message in others.pop("condition"):
        logic.add_error("match", message)
    return ValidationError(others) if others else None


@login_required
@GET_POST
def question_create(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for_member(request.user, pk, Need.EDIT)
    if request.method == "GET" and not survey.is_draft:
        return _frozen(request, survey)
    form = QuestionForm(_posted(request))
    logic = ConditionForm(_posted(request), survey=survey, question=None)
    if form.is_valid():
        try:
            question = _save_question(
                form,
                questions.question_create,
                logic,
                survey=survey,
                actor=request.user,
            )
        except SurveyStateError as error:
            messages.error(request, str(error))
            return _to_detail(survey)
        if question is not None:
            messages.success(request, gettext("Question added."))
            return _to_detail(survey, f"question-{question.pk}")
    return _question_page(request, survey, form, None, logic)


@login_required
@GET_POST
def question_edit(request: HttpRequest, pk: int, qid: int) -> HttpResponse:
    question = question_for_member(request.user, pk, qid, Need.EDIT)
    survey = question.survey
    if request.method == "GET" and not survey.is_draft:
        return _frozen(request, survey)
    form = QuestionForm.for_question(question, _posted(request))
    logic = ConditionForm(_posted(request), survey=survey, question=question)
    if form.is_valid():
        try:
            saved = _save_question(
                form,
                questions.question_update,
                logic,
                question=question,
                actor=request.user,
            )
        except SurveyStateError as error:
            messages.error(request, str(error))
            return _to_detail(survey)
        if saved is not None:
            messages.success(request, gettext("Question saved."))
            return _to_detail(survey, f"question-{question.pk}")
    return _question_page(request, survey, form, question, logic)


@login_required
@GET_POST
def question_delete(request: HttpRequest, pk: int, qid: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes."""
    question = question_for_member(request.user, pk, qid, Need.EDIT)
    survey = question.survey
    if request.method == "GET":
        if not survey.is_draft:
            return _frozen(request, survey)
        context = {"survey": survey, "question": question}
        return render(request, "surveys/question_confirm_delete.html", context)
    try:
        questions.question_delete(question=question, actor=request.user)
    except SurveyStateError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("Question deleted."))
    return _to_detail(survey)


@login_required
@require_POST
def question_move(request: HttpRequest, pk: int, qid: int) -> HttpResponse:
    question = question_for_member(request.user, pk, qid, Need.EDIT)
    offset = MOVES.get(request.POST.get("direction", ""))
    if offset is None:
        return HttpResponseBadRequest("direction must be up or down.")
    try:
        questions.question_move(question=question, offset=offset, actor=request.user)
    except SurveyStateError as error:
        messages.error(request, str(error))
    return _to_detail(question.survey, f"question-{question.pk}")


# -- the live design preview --------------------------------------------------


def _planned(value: str | None) -> int | None:
    """The planned respondents from the query string; None if not usable."""
    if value is None or value == "":
        return Survey._meta.get_field("planned_responses").get_default()
    try:
        n = int(value)
    except ValueError:
        return None
    return n if 1 <= n <= MAX_PLANNED else None


@login_required
@require_GET
def design_preview(request: HttpRequest) -> JsonResponse:
    """What a design means, from the core.

    A design that is not valid yet is the normal state of a form being filled
    in, so it is a 200 with ``valid: false`` and an error naming the parameter;
    only a malformed ``n`` or planning assumption (``prevalence``,
    ``compared_prevalence``, ``first_group_share``, ``power``, ``alpha``: shares
    strictly inside their range) is a 400 naming it.
    """
    n = _planned(request.GET.get("n"))
    if n is None:
        return JsonResponse(
            {
                "error": gettext(
                    "n must be a whole number of respondents from 1 to %(maximum)s."
                )
                % {"maximum": f"{MAX_PLANNED:,}"},
                "fields": {"n": [gettext("Out of range.")]},
            },
            status=400,
        )
    try:
        assumptions = parse_assumptions(request.GET)
    except PlanningInputError as error:
        return JsonResponse(
            {"error": str(error), "fields": {error.field: [str(error)]}}, status=400
        )
    preview = preview_for(DesignForm(request.GET), n, assumptions)
    return JsonResponse({"valid": "error" not in preview, **preview})
