"""The team key page (any member sees the key's fingerprint; an editor makes
the key pair while the survey is a draft, and changes the key file's
passphrase or the server's copy of it at any time) and the sealed answers
page (an analyst or above: the envelopes are answer rows), whose scripts do
all the crypto in the researcher's browser (surveys/kinds/sealed/static/)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from surveys.builder.selectors import question_for_member, survey_plain
from surveys.models import Survey, TeamKey
from surveys.sealing.envelope import grouped
from surveys.sealing.services import (
    TeamKeyRefused,
    needs_team_key,
    sealed_envelopes,
    team_key_file_set,
    team_key_remove,
    team_key_set,
)
from surveys.team.audit import Action, audit_record
from surveys.team.roles import Need, allows
from surveys.team.selectors import role_of


@login_required
@require_http_methods(["GET", "POST"])
def team_key_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the key's fingerprint, and for an editor the forms the browser
    fills in. POST (an editor), by ``action``: ``make`` the public key and,
    if chosen, the wrapped key file, as the browser made them (a draft only);
    ``key_file`` a re-wrapped key file of the same key, or none to remove the
    server's copy (any state); ``remove`` the draft's key. A 400 says what is
    wrong."""
    need = Need.EDIT if request.method == "POST" else Need.VIEW
    survey = survey_plain(request.user, pk, need)
    key = TeamKey.objects.filter(survey=survey).first()
    if request.method == "GET":
        return _key_page(request, survey, key)
    action = request.POST.get("action", "make")
    try:
        wrapped_text = request.POST.get("wrapped_private", "").strip()
        wrapped = json.loads(wrapped_text) if wrapped_text else None
        if action == "make":
            public_jwk = json.loads(request.POST.get("public_key", ""))
    except json.JSONDecodeError:
        return _key_page(
            request, survey, key, gettext("The key is not valid JSON."), 400
        )
    refusal = _unconfirmed_removal(request, action, wrapped)
    if refusal:
        return _key_page(request, survey, key, refusal, 400)
    try:
        if action == "make":
            team_key_set(
                survey=survey,
                public_jwk=public_jwk,
                wrapped_private=wrapped,
                actor=request.user,
            )
            done = gettext("The team key is saved.")
        elif action == "key_file":
            team_key_file_set(
                survey=survey, wrapped_private=wrapped, actor=request.user
            )
            done = (
                gettext("The server's copy of the key file is saved.")
                if wrapped is not None
                else gettext("The server's copy of the key file is removed.")
            )
        elif action == "remove":
            team_key_remove(survey=survey, actor=request.user)
            done = gettext("The team key is removed.")
        else:
            return HttpResponseBadRequest(gettext("Unknown action."))
    except TeamKeyRefused as error:
        return _key_page(request, survey, key, str(error), 400)
    messages.success(request, done)
    return redirect("surveys:team_key", pk=survey.pk)


def _unconfirmed_removal(request: HttpRequest, action: str, wrapped: object) -> str:
    """Why a removal is refused, or "" when it is not one or is confirmed.

    Nothing brings back what a removal deletes: the server's copy of the key
    file may be the team's only one, and a draft's key is made anew in the
    browser. So the form asks the editor to tick that they mean it, and the
    server holds to it too (a form posted by a script or an old page).
    """
    if request.POST.get("confirm") == "yes":
        return ""
    if action == "remove":
        return gettext(
            "Tick the box to confirm that the team key should be removed: "
            "a survey with sealed questions then needs a new key before it "
            "can be published."
        )
    if action == "key_file" and wrapped is None:
        return gettext(
            "Tick the box to confirm that your team keeps the key file and "
            "its passphrase elsewhere: without them, no sealed answer can be "
            "opened."
        )
    return ""


def _key_page(
    request: HttpRequest,
    survey: Survey,
    key: TeamKey | None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "survey": survey,
        "key": key,
        "fingerprint": grouped(key.fingerprint) if key else "",
        "may_set": survey.is_draft and allows(role_of(survey), Need.EDIT),
        "may_rewrap": key is not None and allows(role_of(survey), Need.EDIT),
        "needed": needs_team_key(survey),
        "error": error,
    }
    return render(request, "surveys/team_key.html", context, status=status)


@login_required
@require_GET
def sealed_answers_page(request: HttpRequest, pk: int, qid: int) -> HttpResponse:
    """A sealed question's envelopes and the team's wrapped key (if kept on
    the server), for the reader's browser to open with the passphrase;
    recorded in the audit log as an answers download."""
    question = question_for_member(request.user, pk, qid, Need.ANALYSE)
    if not question.kind_entry.needs_team_key:
        return HttpResponseBadRequest(
            gettext("This question's answers are not sealed: see the exports.")
        )
    survey = question.survey
    key = TeamKey.objects.filter(survey=survey).first()
    audit_record(
        actor=request.user,
        action=Action.ANSWERS_DOWNLOAD,
        survey=survey,
        format="sealed",
        via="web",
    )
    data = {
        "slug": survey.slug,
        "question": question.pk,
        "fingerprint": key.fingerprint if key else "",
        "wrapped": key.wrapped_private if key else None,
        "answers": sealed_envelopes(question),
    }
    context = {
        "survey": survey,
        "question": question,
        "key": key,
        "fingerprint": grouped(key.fingerprint) if key else "",
        "data": data,
    }
    return render(request, "surveys/sealed_answers.html", context)
