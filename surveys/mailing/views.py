"""The e-mail page of a survey's invitations: addresses, the message in each
language, sending and its progress, deleting the addresses. Editors and the
owner only; another researcher's survey is a 404."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from surveys.builder.selectors import survey_plain
from surveys.mailing.addresses import (
    address_lines_parse,
    addresses_add,
    addresses_delete,
    addresses_expire_for,
)
from surveys.mailing.forms import AddressesForm, MessageForm, SendForm
from surveys.mailing.selectors import (
    WordingRow,
    mail_page_facts,
    mailing_progress,
    mailings_recent,
)
from surveys.mailing.sending import MailingRefused, mailing_start, mailings_resume
from surveys.mailing.wording import message_template_save
from surveys.models import Survey
from surveys.team.roles import Need


def _page(
    request: HttpRequest,
    survey: Survey,
    status: int = 200,
    *,
    addresses_form: AddressesForm | None = None,
    message_form: MessageForm | None = None,
    refusal: str = "",
) -> HttpResponse:
    facts = mail_page_facts(survey)
    context: dict[str, Any] = {
        "survey": survey,
        **facts,
        "addresses_form": addresses_form or AddressesForm(),
        "editors": _editors(survey, facts["wordings"], message_form),
        "refusal": refusal,
        "progress": {
            "url": reverse("surveys:invitations_mail_progress", args=[survey.pk]),
            "mailings": [mailing_progress(m) for m in facts["mailings"]],
            "words": _progress_words(),
        },
    }
    return render(request, "surveys/invitations_mail.html", context, status=status)


def _editors(
    survey: Survey, rows: list[WordingRow], failed: MessageForm | None
) -> list[tuple[WordingRow, MessageForm]]:
    """A form per kind and language; the one just refused keeps its input."""
    editors = []
    for row in rows:
        form = MessageForm(
            survey=survey,
            auto_id=f"id_{row.kind}_{row.language}_%s",
            initial={
                "kind": row.kind,
                "language": row.language,
                "subject": row.subject,
                "body": row.body,
            },
        )
        if failed is not None and (
            failed.data.get("kind"),
            failed.data.get("language"),
        ) == (row.kind, row.language):
            failed.auto_id = form.auto_id
            form = failed
        # The message is written in its language, whatever the page's.
        for name in ("subject", "body"):
            form.fields[name].widget.attrs["lang"] = row.language
        editors.append((row, form))
    return editors


def _progress_words() -> dict[str, str]:
    """The script's sentences, translated here (static/js/mailing-progress.js)."""
    return {
        "sending": _("Sending: %(done)s of %(total)s settled."),
        "finished": _("Finished."),
        "stopped": _("Stopped."),
        "counts": _(
            "%(sent)s sent, %(failed)s failed, %(skipped)s skipped (already "
            "used), %(uncertain)s uncertain."
        ),
    }


@login_required
@require_GET
def mail_page(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    addresses_expire_for(survey)
    mailings_resume(survey=survey)  # without a beat, nothing else would
    return _page(request, survey)


@login_required
@require_POST
def addresses_add_view(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    form = AddressesForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            lines = address_lines_parse(survey=survey, text=form.cleaned_data["text"])
            added = addresses_add(survey=survey, lines=lines, actor=request.user)
        except ValidationError as error:
            form.add_error("addresses", error)
        else:
            messages.success(
                request,
                _(
                    "Addresses added: %(added)d, each with its own link; already there: %(already)d."
                )
                % {"added": added.added, "already": added.already},
            )
            return redirect("surveys:invitations_mail", pk=survey.pk)
    return _page(request, survey, 400, addresses_form=form)


@login_required
@require_POST
def message_save_view(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    form = MessageForm(request.POST, survey=survey)
    if not form.is_valid():
        unknown = [name for name in ("kind", "language") if name in form.errors]
        refusal = (
            _("Unknown message %(field)s: reload the page and edit the message again.")
            % {"field": unknown[0]}
            if unknown
            else ""
        )
        return _page(request, survey, 400, message_form=form, refusal=refusal)
    data = form.cleaned_data
    message_template_save(
        survey=survey,
        kind=data["kind"],
        language=data["language"],
        subject=data["subject"],
        body=data["body"],
        actor=request.user,
    )
    messages.success(request, _("The message is saved."))
    return redirect("surveys:invitations_mail", pk=survey.pk)


@login_required
@require_POST
def mailing_send_view(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    form = SendForm(request.POST)
    if not form.is_valid():
        return _page(request, survey, 400, refusal=_("Choose what to send."))
    try:
        mailing = mailing_start(
            survey=survey,
            kind=form.cleaned_data["kind"],
            site=request.build_absolute_uri("/"),
            actor=request.user,
        )
    except MailingRefused as refused:
        return _page(request, survey, 409, refusal=str(refused))
    messages.success(
        request,
        _("Sending has started (%(n)d messages); its progress is shown below.")
        % {"n": mailing.total},
    )
    return redirect("surveys:invitations_mail", pk=survey.pk)


@login_required
@require_POST
def addresses_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    deleted = addresses_delete(survey=survey, actor=request.user, reason="request")
    messages.success(
        request,
        _("Addresses deleted: %(n)d. The links already sent still work.")
        % {"n": deleted},
    )
    return redirect("surveys:invitations_mail", pk=survey.pk)


@login_required
@require_GET
def mailing_progress_view(request: HttpRequest, pk: int) -> JsonResponse:
    survey = survey_plain(request.user, pk, Need.EDIT)
    mailings = mailings_recent(survey)
    return JsonResponse({"mailings": [mailing_progress(m) for m in mailings]})
