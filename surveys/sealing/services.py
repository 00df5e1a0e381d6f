"""Setting a survey's team key, and reading the sealed answers for the team's
browser to open. The server checks the forms (surveys/sealing/envelope.py);
it never receives the passphrase or the private key unwrapped."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from surveys.models import Answer, Question, Response, Survey, TeamKey
from surveys.sealing.envelope import FormRefused, grouped, public_key, wrapped_key

__all__ = [
    "TeamKeyRefused",
    "needs_team_key",
    "sealed_envelopes",
    "team_key_problem",
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


@transaction.atomic
def team_key_set(
    *,
    survey: Survey,
    public_jwk: Any,
    wrapped_private: Any = None,
    actor: Any = None,
) -> TeamKey:
    """The survey's team key, set or replaced while the survey is a draft:
    once published, answers are sealed for it, so it never changes. The
    wrapped private key is optional; when given it must be the key file of
    this very key."""
    survey = Survey.objects.select_for_update().get(pk=survey.pk)
    if not survey.is_draft:
        raise TeamKeyRefused(
            gettext(
                "The team key cannot change once the survey is published: every "
                "sealed answer is encrypted for it."
            )
        )
    try:
        jwk, fingerprint = public_key(public_jwk)
        wrapped = (
            wrapped_key(wrapped_private, fingerprint=fingerprint)
            if wrapped_private is not None
            else None
        )
    except FormRefused as error:
        raise TeamKeyRefused(str(error)) from None
    key, _ = TeamKey.objects.update_or_create(
        survey=survey,
        defaults={
            "public_jwk": jwk,
            "fingerprint": fingerprint,
            "wrapped_private": wrapped,
            "created_by": actor,
        },
    )
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
