"""The invitations page: make single-use links, import identifiers, download
the links, list the unused ones. Another researcher's survey is a 404."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from surveys.access.forms import InvitationCountForm, InvitationImportForm
from surveys.access.selectors import invitations_split, ledger_count
from surveys.access.services import (
    invitation_labels_from_csv,
    invitations_create,
)
from surveys.builder.selectors import survey_plain
from surveys.models import Invitation, Survey
from surveys.results.file_names import download_name
from surveys.team.audit import Action, audit_record
from surveys.team.roles import Need

SHOWN = 200  # unused links listed on the page; the CSV has them all


def invitation_link(
    request: HttpRequest, survey: Survey, invitation: Invitation
) -> str:
    """The link to send: the token in the fragment, which browsers never send
    with the page request, so it reaches no server or proxy log."""
    page = request.build_absolute_uri(reverse("respond:page", args=[survey.slug]))
    return f"{page}#invitation={invitation.token}"


def _page(
    request: HttpRequest,
    survey: Survey,
    count_form: InvitationCountForm | None = None,
    import_form: InvitationImportForm | None = None,
    status: int = 200,
) -> HttpResponse:
    unused, used = invitations_split(survey)
    context = {
        "survey": survey,
        "unused": [
            (i.label, invitation_link(request, survey, i)) for i in unused[:SHOWN]
        ],
        "unused_count": len(unused),
        "used_count": len(used),
        "shown": SHOWN,
        "counted": ledger_count(survey),
        "count_form": count_form or InvitationCountForm(),
        "import_form": import_form or InvitationImportForm(),
    }
    return render(request, "surveys/invitations.html", context, status=status)


@login_required
@require_GET
def invitations(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, survey_plain(request.user, pk, Need.EDIT))


@login_required
@require_POST
def invitations_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    form = InvitationCountForm(request.POST)
    if not form.is_valid():
        return _page(request, survey, count_form=form, status=400)
    made = invitations_create(
        survey=survey, labels=[""] * form.cleaned_data["count"], actor=request.user
    )
    messages.success(
        request,
        ngettext(
            "%(n)d invitation link made.", "%(n)d invitation links made.", len(made)
        )
        % {"n": len(made)},
    )
    return redirect("surveys:invitations", pk=survey.pk)


@login_required
@require_POST
def invitations_import(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    form = InvitationImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            labels = invitation_labels_from_csv(form.cleaned_data["file"])
            made = invitations_create(survey=survey, labels=labels, actor=request.user)
        except ValidationError as error:
            form.add_error("file", error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)d invitation link made from the file.",
                    "%(n)d invitation links made from the file.",
                    len(made),
                )
                % {"n": len(made)},
            )
            return redirect("surveys:invitations", pk=survey.pk)
    return _page(request, survey, import_form=form, status=400)


@login_required
@require_GET
def invitations_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every link as label,link (``?unused=1``: only the unused, for reminders)."""
    survey = survey_plain(request.user, pk, Need.EDIT)
    unused, used = invitations_split(survey)
    rows = unused if request.GET.get("unused") else sorted(unused + used, key=_id)
    audit_record(
        actor=request.user,
        action=Action.INVITATIONS_DOWNLOAD,
        survey=survey,
        links=len(rows),
        unused_only=bool(request.GET.get("unused")),
    )
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    which = "unused-invitations" if request.GET.get("unused") else "invitations"
    response["Content-Disposition"] = (
        f'attachment; filename="{download_name(survey, which + ".csv")}"'
    )
    writer = csv.writer(response)
    writer.writerow(["label", "link"])
    for invitation in rows:
        writer.writerow(
            [_safe(invitation.label), invitation_link(request, survey, invitation)]
        )
    return response


def _id(invitation: Invitation) -> int:
    return invitation.pk


def _safe(label: str) -> str:
    """A label a spreadsheet will not run as a formula (CSV injection)."""
    return f"'{label}" if label[:1] in ("=", "+", "-", "@", "\t", "\r") else label
