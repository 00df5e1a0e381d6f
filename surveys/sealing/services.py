"""Setting a survey's team key, and reading the sealed answers for the team's
browser to open. The server checks the forms (surveys/sealing/envelope.py);
it never receives the passphrase or the private key unwrapped."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from surveys.models import Answer, Question, Response, Survey, TeamKey
from surveys.sealing.envelope import FormRefused, grouped, public_key, wrapped_key
from surveys.team.audit import Action, audit_record

__all__ = [
    "TeamKeyRefused",
    "needs_team_key",
    "sealed_envelopes",
    "team_key_file_set",
    "team_key_problem",
    "team_key_remove",
    "team_key_set",
    "team_key_state",
]


class TeamKeyRefused(ValueError):
    """A team key that cannot be set: the message says why, for a 400."""


def needs_team_key(survey: Survey) -> bool:
    """Whether any of the survey's questions is sealed for its team key."""
    return any(q.kind_entry.needs_team_key for q in survey.questions.all())


def team_key_state(survey: Survey) -> dict[str, Any] | None:
    """What the survey's page says of its team key: its fingerprint, or that
    a sealed question needs one; None for a survey with neither."""
    key = TeamKey.objects.filter(survey=survey).first()
    if key is None and not needs_team_key(survey):
        return None
    return {"fingerprint": grouped(key.fingerprint) if key else ""}


def team_key_problem(survey: Survey) -> str | None:
    """Why the survey cannot be published for want of a team key, or None."""
    if needs_team_key(survey) and not TeamKey.objects.filter(survey=survey).exists():
        return gettext(
            "Make the survey's team key before publishing: its sealed open "
            "answers are encrypted for it (Team key, on the survey's page)."
        )
    return None


def _draft_for_key(survey: Survey) -> Survey:
    """The survey locked for a change of its key pair, which only a draft
    allows: a draft has no answers (``Survey.save`` refuses a draft with
    responses), so no answer is ever sealed for a key that is later lost."""
    survey = Survey.objects.select_for_update().get(pk=survey.pk)
    if not survey.is_draft:
        raise TeamKeyRefused(
            gettext(
                "The team key cannot be replaced or removed once the survey is "
                "published: every sealed answer is encrypted for it, and answers "
                "sealed for a replaced key could no longer be read. Change the "
                "passphrase instead, or copy the survey to start again with a "
                "new key."
            )
        )
    return survey


def _checked_file(wrapped_private: Any, fingerprint: str) -> dict[str, Any] | None:
    try:
        if wrapped_private is None:
            return None
        return wrapped_key(wrapped_private, fingerprint=fingerprint)
    except FormRefused as error:
        raise TeamKeyRefused(str(error)) from None


@transaction.atomic
def team_key_set(
    *,
    survey: Survey,
    public_jwk: Any,
    wrapped_private: Any = None,
    actor: Any = None,
) -> TeamKey:
    """The survey's team key, made or replaced while the survey is a draft
    (see ``_draft_for_key``). The wrapped private key is optional; when given
    it must be the key file of this very key. Recorded in the audit log with
    the fingerprints (public), never the key file."""
    survey = _draft_for_key(survey)
    try:
        jwk, fingerprint = public_key(public_jwk)
    except FormRefused as error:
        raise TeamKeyRefused(str(error)) from None
    wrapped = _checked_file(wrapped_private, fingerprint)
    old = TeamKey.objects.filter(survey=survey).first()
    key, _ = TeamKey.objects.update_or_create(
        survey=survey,
        defaults={
            "public_jwk": jwk,
            "fingerprint": fingerprint,
            "wrapped_private": wrapped,
            "created_by": actor,
        },
    )
    detail: dict[str, Any] = {"fingerprint": fingerprint, "kept": wrapped is not None}
    if old is not None:
        detail["replaced"] = old.fingerprint
    action = Action.TEAM_KEY_CREATE if old is None else Action.TEAM_KEY_REPLACE
    audit_record(actor=actor, action=action, survey=survey, **detail)
    return key


@transaction.atomic
def team_key_remove(*, survey: Survey, actor: Any = None) -> None:
    """The draft's team key removed (with any kept key file); a survey with
    sealed questions then cannot be published until a new one is made."""
    survey = _draft_for_key(survey)
    key = TeamKey.objects.filter(survey=survey).first()
    if key is None:
        raise TeamKeyRefused(gettext("This survey has no team key to remove."))
    key.delete()
    audit_record(
        actor=actor,
        action=Action.TEAM_KEY_DELETE,
        survey=survey,
        fingerprint=key.fingerprint,
    )


@transaction.atomic
def team_key_file_set(
    *, survey: Survey, wrapped_private: Any, actor: Any = None
) -> TeamKey:
    """The server's copy of the key file stored, replaced (the same key
    re-wrapped under a new passphrase, in the browser) or removed (None), in
    any state of the survey: the key pair, and so every answer, is unchanged.
    The copy must be the key file of the survey's own key."""
    Survey.objects.select_for_update().get(pk=survey.pk)
    key = TeamKey.objects.filter(survey=survey).first()
    if key is None:
        raise TeamKeyRefused(gettext("Make the team key first."))
    wrapped = _checked_file(wrapped_private, key.fingerprint)
    if wrapped is None and key.wrapped_private is None:
        raise TeamKeyRefused(gettext("The server keeps no copy of the key file."))
    was_kept = key.wrapped_private is not None
    key.wrapped_private = wrapped
    key.save(update_fields=["wrapped_private"])
    if wrapped is None:
        action = Action.TEAM_KEY_FILE_REMOVE
    else:
        action = (
            Action.TEAM_KEY_FILE_REPLACE if was_kept else Action.TEAM_KEY_FILE_STORE
        )
    audit_record(actor=actor, action=action, survey=survey, fingerprint=key.fingerprint)
    return key


def sealed_envelopes(question: Question) -> list[dict[str, Any]]:
    """The question's envelopes, each with its response's number as the
    answers export numbers its rows (in the order received), for the team's
    browser to open."""
    numbers = {
        pk: n
        for n, pk in enumerate(
            Response.objects.filter(survey_id=question.survey_id)
            .order_by("pk")
            .values_list("pk", flat=True)
            .iterator(chunk_size=5000),
            start=1,
        )
    }
    rows = (
        Answer.objects.filter(question=question, text__isnull=False)
        .order_by("response_id")
        .values_list("response_id", "text")
    )
    return [{"response": numbers[pk], "envelope": text} for pk, text in rows]
