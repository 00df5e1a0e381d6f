"""The team page (who works on a survey, with which role) and the audit log.

Anyone with a role sees the team; only the owner changes it and reads the log.
A member may leave on their own. No role on the survey: 404; too low: 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from surveys.models import Membership, Role, Survey
from surveys.results.export_views import CSV, download
from surveys.team import services
from surveys.team.audit_selectors import audit_csv, audit_events_of, event_words
from surveys.team.forms import MemberAddForm, MemberRoleForm, TransferForm
from surveys.team.roles import ABILITIES, Need
from surveys.team.selectors import check_allowed, role_of, survey_for

EVENTS_PER_PAGE = 50


def _page(
    request: HttpRequest,
    survey: Survey,
    *,
    add_form: MemberAddForm | None = None,
    transfer_form: TransferForm | None = None,
    status: int = 200,
) -> HttpResponse:
    members = list(survey.memberships.select_related("user"))
    context = {
        "survey": survey,
        "role": role_of(survey),
        "is_owner": role_of(survey) == Role.OWNER,
        "members": [(m, MemberRoleForm(initial={"role": m.role})) for m in members],
        "mine": next((m for m in members if m.user_id == request.user.pk), None),
        "abilities": ABILITIES,
        "add_form": add_form or MemberAddForm(),
        "transfer_form": transfer_form or TransferForm(survey=survey),
    }
    return render(request, "surveys/team.html", context, status=status)


def _refused(request: HttpRequest, survey: Survey, error: ValidationError) -> Any:
    for message in error.messages:
        messages.error(request, message)
    return _page(request, survey, status=400)


def _member(survey: Survey, member_id: int) -> Membership:
    return get_object_or_404(survey.memberships.select_related("user"), pk=member_id)


@login_required
@require_GET
def team(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, survey_for(request.user, pk, Need.VIEW))


@login_required
@require_POST
def team_add(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for(request.user, pk, Need.OWN)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            added = services.member_add(
                survey=survey, actor=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                gettext("%(name)s is now %(role)s on this survey.")
                % {
                    "name": added.user.get_username(),
                    "role": added.get_role_display().lower(),
                },
            )
            return redirect("surveys:team", pk=survey.pk)
    return _page(request, survey, add_form=form, status=400)


@login_required
@require_POST
def team_role(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    survey = survey_for(request.user, pk, Need.OWN)
    membership = _member(survey, member_id)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        return _refused(request, survey, ValidationError(form.errors["role"]))
    try:
        changed = services.member_role_change(
            membership=membership, actor=request.user, role=form.cleaned_data["role"]
        )
    except ValidationError as error:
        return _refused(request, survey, error)
    messages.success(
        request,
        gettext("%(name)s is now %(role)s on this survey.")
        % {
            "name": changed.user.get_username(),
            "role": changed.get_role_display().lower(),
        },
    )
    return redirect("surveys:team", pk=survey.pk)


@login_required
@require_POST
def team_remove(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    """The owner removes a member, or a member leaves."""
    survey = survey_for(request.user, pk, Need.VIEW)
    membership = _member(survey, member_id)
    leaving = membership.user_id == request.user.pk
    if not leaving:
        check_allowed(request.user, survey, Need.OWN)
    name = membership.user.get_username()
    try:
        services.member_remove(membership=membership, actor=request.user)
    except ValidationError as error:
        return _refused(request, survey, error)
    if leaving:
        messages.success(
            request, gettext("You left “%(title)s”.") % {"title": survey.title}
        )
        return redirect("surveys:list")
    messages.success(
        request, gettext("%(name)s is no longer on this survey.") % {"name": name}
    )
    return redirect("surveys:team", pk=survey.pk)


@login_required
@require_http_methods(["GET", "POST"])
def team_transfer(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm the chosen transfer; POST makes it."""
    survey = survey_for(request.user, pk, Need.OWN)
    data = request.POST if request.method == "POST" else request.GET
    form = TransferForm(data, survey=survey)
    if not form.is_valid():
        return _page(request, survey, transfer_form=form, status=400)
    membership = form.cleaned_data["to"]
    kept = form.cleaned_data["previous_owner_role"]
    if request.method == "GET":
        context = {
            "survey": survey,
            "member": membership,
            "kept": Role(kept),
            "form": form,
        }
        return render(request, "surveys/team_transfer_confirm.html", context)
    try:
        services.ownership_transfer(
            survey=survey,
            actor=request.user,
            to_user=membership.user,
            previous_owner_role=kept,
        )
    except ValidationError as error:
        return _refused(request, survey, error)
    messages.success(
        request,
        gettext("%(name)s now owns “%(title)s”; you are %(role)s on it.")
        % {
            "name": membership.user.get_username(),
            "title": survey.title,
            "role": Role(kept).label.lower(),
        },
    )
    return redirect("surveys:team", pk=survey.pk)


@login_required
@require_GET
def audit(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_for(request.user, pk, Need.OWN)
    page = Paginator(audit_events_of(survey), EVENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "survey": survey,
        "page": page,
        "events": [(event, event_words(event)) for event in page],
    }
    return render(request, "surveys/audit.html", context)


@login_required
@require_GET
def audit_csv_download(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    survey = survey_for(request.user, pk, Need.OWN)
    events = audit_events_of(survey).iterator(chunk_size=500)
    return download(survey, "audit.csv", audit_csv(events), CSV)
