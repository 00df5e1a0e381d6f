"""Everything that changes surveys (questions: questions.py; responses:
respond/submissions.py).

Views and commands parse input and call one of these; the rules about what a
survey's state allows live here and only here.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.access.selectors import survey_is_full
from surveys.access.services import (
    access_ledger_recount,
    access_settings_check,
    panel_settings_check,
    panel_settings_clear,
)
from surveys.builder.kinds import YES_NO_KINDS
from surveys.builder.limits import (
    limit_problems,
    unbounded_questions,
    unconfirmed_message,
)
from surveys.builder.published import (
    EDITABLE_AFTER_PUBLISHING,
    published_change_problems,
)
from surveys.builder.section_copy import sections_copy
from surveys.builder.submission_size import size_problems
from surveys.builder.teaching import teaching_problems
from surveys.kinds.base import yes_no_options
from surveys.languages import translation_problems
from surveys.mailing.addresses import addresses_delete
from surveys.models import Question, Survey
from surveys.sealing.services import team_key_problem
from surveys.team.audit import Action, audit_record


class SurveyStateError(Exception):
    """The survey's state does not allow this action; the message says why."""


class IncompleteTranslationError(SurveyStateError):
    """Publishing would offer a language whose translation lacks texts."""

    field = "offered_languages"


class UnconfirmedUnboundedError(SurveyStateError):
    """Publishing a design without a finite epsilon (which the site allows)
    needs the researcher's word that respondents will be told."""

    field = "confirm_unbounded"


class SlugTakenError(ValidationError):
    """Another survey took this link between our check and our save (two
    researchers choosing it at the same instant). A form shows it beside the
    link field; the API answers 409, since the request was valid a moment ago."""

    field = "slug"

    def __init__(self, slug: str) -> None:
        super().__init__(
            {
                "slug": gettext(
                    "The link “%(slug)s” was taken a moment ago by another "
                    "survey: choose another link."
                )
                % {"slug": slug}
            }
        )


class LockedFieldsError(SurveyStateError):
    """A change to details that publishing froze; ``fields`` names them, and
    ``field`` the first, for the API's error body."""

    def __init__(self, message: str, fields: Sequence[str]) -> None:
        super().__init__(message)
        self.fields = tuple(fields)
        self.field = self.fields[0] if self.fields else None


# -- surveys ---------------------------------------------------------------


# Respondent links end up in browser history, mail and proxy logs, so by
# default they say nothing about the survey: ten characters from an alphabet
# without look-alikes (about 50 bits), never a word of the title.
SLUG_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SLUG_LENGTH = 10
# Links that would read as part of the site rather than a survey.
RESERVED_SLUGS = frozenset(
    {"admin", "api", "demo-link", "edit", "new", "static", "survey", "transparency"}
)
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


# Shorter title words ("at", "of", "2") tell nothing of the topic, and a
# two-letter one turns up by chance in about one random slug in a hundred.
SLUG_TITLE_WORD_MIN = 3


def slug_title_words(title: str) -> set[str]:
    """The words of ``title`` that a random slug never contains."""
    words = re.split(r"[^a-z0-9]+", title.lower())
    return {word for word in words if len(word) >= SLUG_TITLE_WORD_MIN}


def random_slug(
    title: str = "", *, choice: Callable[[str], str] = secrets.choice
) -> str:
    """A fresh, unused, topic-free slug that shares no word with ``title``.

    ``choice`` draws one character; tests pass a scripted one.
    """
    words = slug_title_words(title)
    while True:
        slug = "".join(choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))
        if any(word in slug for word in words):
            continue
        if not Survey.objects.filter(slug=slug).exists():
            return slug


def validate_slug(slug: str, survey: Survey | None = None) -> str:
    """A researcher's own slug, or a ValidationError naming what is wrong."""
    if not 4 <= len(slug) <= 64:
        raise ValidationError(
            {"slug": gettext("The link must be 4 to 64 characters long.")}
        )
    if not SLUG_PATTERN.match(slug):
        raise ValidationError(
            {
                "slug": gettext(
                    "Use lowercase letters, digits and single hyphens "
                    "(not at the start or end), e.g. “spring-wave-2”."
                )
            }
        )
    if slug in RESERVED_SLUGS:
        raise ValidationError(
            {
                "slug": gettext("“%(slug)s” is reserved: choose another link.")
                % {"slug": slug}
            }
        )
    taken = Survey.objects.filter(slug=slug)
    if survey is not None and survey.pk is not None:
        taken = taken.exclude(pk=survey.pk)
    if taken.exists():
        raise ValidationError(
            {"slug": gettext("The link “%(slug)s” is already in use.") % {"slug": slug}}
        )
    return slug


def _save_survey(survey: Survey) -> Survey:
    panel_settings_clear(survey)
    if survey.opens_at and survey.closes_at and survey.closes_at <= survey.opens_at:
        raise ValidationError(
            {"closes_at": gettext("The close date must be after the open date.")}
        )
    survey.full_clean()
    access_settings_check(survey)
    problems = teaching_problems(survey)
    if problems:
        raise ValidationError(problems)
    try:
        # A savepoint: the unique constraint may refuse the slug (someone took
        # it after full_clean looked), and the caller's transaction must stay
        # usable to say so.
        with transaction.atomic():
            survey.save()
    except IntegrityError as error:
        taken = Survey.objects.filter(slug=survey.slug).exclude(pk=survey.pk)
        if not taken.exists():
            raise
        raise SlugTakenError(survey.slug) from error
    access_ledger_recount(survey=survey)
    return survey


@transaction.atomic
def survey_create(*, owner: Any, title: str, slug: str = "", **fields: Any) -> Survey:
    """A draft survey; its link is random unless the researcher chose one."""
    chosen = validate_slug(slug) if slug else random_slug(title)
    panel_settings_check(survey=Survey(), given=fields)
    survey = _save_survey(Survey(owner=owner, title=title, slug=chosen, **fields))
    audit_record(actor=owner, action=Action.SURVEY_CREATE, survey=survey)
    return survey


# Everything else (status, owner) changes only through its own service.
EDITABLE_SURVEY_FIELDS = frozenset(
    {
        "title",
        "public_title",
        "introduction",
        "consent",
        # The language respondents read, and the researcher writes in.
        "language",
        "opens_at",
        "closes_at",
        "planned_responses",
        "slug",
        # Who may answer (surveys/access/).
        "access_mode",
        "response_limit",
        "panel_id_parameter",
        "completion_url",
        "completion_code",
        "screen_out_url",
        # Teaching the randomizer (teaching.py).
        "practice",
        "practice_question",
        "comprehension_check",
        "comprehension_pass",
    }
)
# After publishing, the details that say how the answers were collected stay
# as respondents met them; the texts around the questions, the close date and
# the panel's addresses may still change (published.py says which and why).
# The pages and the API both ask survey_update, so this is the one rule for both.


def survey_locked_fields(survey: Survey) -> frozenset[str]:
    """The editable fields this survey's state no longer lets change."""
    if survey.is_draft:
        return frozenset()
    return EDITABLE_SURVEY_FIELDS - EDITABLE_AFTER_PUBLISHING


def _locked_changes(survey: Survey, fields: Mapping[str, Any]) -> list[str]:
    locked = survey_locked_fields(survey)
    return sorted(
        name
        for name, value in fields.items()
        if name in locked and value != getattr(survey, name)
    )


@transaction.atomic
def survey_update(*, survey: Survey, actor: Any = None, **fields: Any) -> Survey:
    """Change a survey's details; after publishing only those published.py
    lists, each saved change one audit event naming the fields.

    A locked field sent with its current value is no change and is accepted,
    so a client may send the whole survey back. An empty slug keeps the link.
    """
    refused = sorted(set(fields) - EDITABLE_SURVEY_FIELDS)
    if refused:
        raise SurveyStateError(
            gettext("Cannot edit %(fields)s here.") % {"fields": ", ".join(refused)}
        )
    if "slug" in fields and not fields["slug"]:
        del fields["slug"]
    changed = _locked_changes(survey, fields)
    if changed == ["slug"]:
        raise LockedFieldsError(
            gettext(
                "The link cannot change after publishing: respondents may already "
                "have it."
            ),
            changed,
        )
    if changed:
        raise LockedFieldsError(
            gettext(
                "Cannot change %(fields)s after publishing: these details are "
                "frozen as respondents met them, since they say how the answers "
                "were collected. Duplicate the survey for a new draft you can change."
            )
            % {"fields": ", ".join(changed)},
            changed,
        )
    if "slug" in fields and fields["slug"] != survey.slug:
        fields["slug"] = validate_slug(fields["slug"], survey)
    _check_limit_above_stored(survey, fields.get("response_limit"))
    panel_settings_check(survey=survey, given=fields)
    language_before = survey.language
    changed_fields = sorted(n for n, v in fields.items() if v != getattr(survey, n))
    if not survey.is_draft:
        problems = published_change_problems(
            survey, {n: fields[n] for n in changed_fields}, now=timezone.now()
        )
        if problems:
            raise ValidationError(problems)
    for name, value in fields.items():
        setattr(survey, name, value)
    if survey.language != language_before:
        _drop_translation(survey, survey.language)
    saved = _save_survey(survey)
    if saved.language != language_before:
        _relabel_yes_no(saved, language_before)
    if changed_fields:
        audit_record(
            actor=actor,
            action=Action.SURVEY_UPDATE,
            survey=saved,
            fields=changed_fields,
        )
    return saved


def _drop_translation(survey: Survey, language: str) -> None:
    """The survey's own language is always offered and never a translation:
    one left under its code would stand in for the texts themselves."""
    survey.offered_languages = [c for c in survey.offered_languages if c != language]
    survey.translations = {
        c: texts for c, texts in survey.translations.items() if c != language
    }
    for question in survey.questions.all():
        if language in question.translations:
            del question.translations[language]
            question.save(update_fields=["translations"])


def _relabel_yes_no(survey: Survey, language_before: str) -> None:
    """A draft's yes/no questions that kept the old language's answers take
    the new one's; answers the researcher wrote stay as written."""
    old, new = yes_no_options(language_before), yes_no_options(survey.language)
    survey.questions.filter(kind__in=YES_NO_KINDS, options=old).update(options=new)


def _check_limit_above_stored(survey: Survey, limit: int | None) -> None:
    """A response limit below the responses already stored could never be
    met exactly; refuse it rather than leave the survey over its quota."""
    if limit is None or survey.is_draft:
        return
    stored = survey.responses.count()
    if limit < stored:
        raise SurveyStateError(
            gettext(
                "The response limit cannot be below the %(stored)s responses "
                "already stored."
            )
            % {"stored": stored}
        )


def survey_require_draft(survey: Survey, action: str) -> None:
    if not survey.is_draft:
        raise SurveyStateError(
            f"Cannot {action}: the survey is published, so its questions and designs "
            "are frozen. Create a new survey to ask something different."
        )


@transaction.atomic
def survey_publish(
    *, survey: Survey, actor: Any = None, confirm_unbounded: bool = False
) -> Survey:
    """Freeze every question's design into the spec the browser will use.

    A question whose design has no finite epsilon is published only where the
    site allows it (``limit_problems``) and with ``confirm_unbounded``: the
    researcher's word that respondents will be told, kept in the audit log."""
    survey = Survey.objects.select_for_update().get(pk=survey.pk)
    survey_require_draft(survey, "publish again")
    questions = list(survey.questions.all())
    if not questions:
        raise SurveyStateError(gettext("Add at least one question before publishing."))
    designed = [(q.text, q.get_design()) for q in questions]
    problems = limit_problems(designed) + size_problems(survey, questions)
    if problems:
        raise SurveyStateError(" ".join(problems))
    unkeyed = team_key_problem(survey)
    if unkeyed:
        raise SurveyStateError(unkeyed)
    untranslated = translation_problems(survey, questions)
    if untranslated:
        raise IncompleteTranslationError(" ".join(untranslated))
    unbounded = unbounded_questions(designed)
    if unbounded and not confirm_unbounded:
        raise UnconfirmedUnboundedError(unconfirmed_message(unbounded))
    for question in questions:
        spec = question.client_spec()
        question.spec, question.spec_version = spec, spec_digest(spec)
        question.save(update_fields=["spec", "spec_version"])
    survey.status, survey.published_at = Survey.Status.OPEN, timezone.now()
    survey.save(update_fields=["status", "published_at"])
    confirmed = {"unbounded_questions": unbounded} if unbounded else {}
    audit_record(actor=actor, action=Action.SURVEY_PUBLISH, survey=survey, **confirmed)
    return survey


@transaction.atomic
def survey_close(*, survey: Survey, actor: Any = None) -> Survey:
    if survey.status != Survey.Status.OPEN:
        raise SurveyStateError(gettext("Only an open survey can be closed."))
    survey.status = Survey.Status.CLOSED
    survey.save(update_fields=["status"])
    audit_record(actor=actor, action=Action.SURVEY_CLOSE, survey=survey)
    # Invitation addresses are kept only while the survey is open.
    addresses_delete(survey=survey, actor=actor, reason="closed")
    return survey


@transaction.atomic
def survey_reopen(*, survey: Survey, actor: Any = None) -> Survey:
    if survey.status != Survey.Status.CLOSED:
        raise SurveyStateError(gettext("Only a closed survey can be reopened."))
    if survey_is_full(survey):
        raise SurveyStateError(
            gettext(
                "The survey is full: it has its %(limit)s responses. Raise its "
                "response limit to reopen it."
            )
            % {"limit": survey.response_limit}
        )
    survey.status = Survey.Status.OPEN
    survey.save(update_fields=["status"])
    audit_record(actor=actor, action=Action.SURVEY_REOPEN, survey=survey)
    return survey


DELETE_REFUSED = _(
    "Cannot delete: the survey has responses. Close it instead; its data "
    "stays available for export."
)


@transaction.atomic
def survey_delete(*, survey: Survey, actor: Any = None) -> None:
    """Delete a survey that nobody has answered; answered data is never thrown
    away. Its audit events stay, this one last."""
    if survey.responses.exists():
        raise SurveyStateError(DELETE_REFUSED)
    audit_record(actor=actor, action=Action.SURVEY_DELETE, survey=survey)
    survey.delete()


# What a copy does not take over: its identity, its state and history, and its
# dates (a new wave has its own). Everything else, including fields added later,
# is copied, so a copy never silently loses a setting. A per-survey secret (a
# key for hashing identifiers) must be listed here: a copy sharing it could
# link people across waves.
SURVEY_FIELDS_NOT_COPIED = frozenset(
    {
        "id",
        "owner",
        "slug",
        "status",
        "opens_at",
        "closes_at",
        "created_at",
        "published_at",
        "estimates_stale_since",
        "simulation",
        # A question of the copy, set once the copy's questions exist.
        "comprehension_check",
    }
)
# The frozen spec belongs to a publication: the copy freezes its own.
QUESTION_FIELDS_NOT_COPIED = frozenset(
    {"id", "survey", "spec", "spec_version", "section"}
)
COPY_SUFFIX = " (copy)"


def _copied_values(
    instance: Survey | Question, excluded: frozenset[str]
) -> dict[str, Any]:
    return {
        field.attname: copy.deepcopy(getattr(instance, field.attname))
        for field in instance._meta.concrete_fields
        if field.name not in excluded
    }


def _conditions_renumber(
    originals: Sequence[Question], copies: Sequence[Question]
) -> None:
    """A copy's display logic reads the copy's questions, not the original's."""
    new_id = {old.pk: new.pk for old, new in zip(originals, copies, strict=True)}
    for copy_ in copies:
        if copy_.condition:
            for clause in copy_.condition["clauses"]:
                clause["question"] = new_id[clause["question"]]
            copy_.save(update_fields=["condition"])


def copy_title(title: str) -> str:
    limit = Survey._meta.get_field("title").max_length or len(title) + len(COPY_SUFFIX)
    return title[: limit - len(COPY_SUFFIX)] + COPY_SUFFIX


@transaction.atomic
def survey_duplicate(*, survey: Survey, owner: Any) -> Survey:
    """A new draft with the survey's details and questions: the next wave.

    Works from any state; the copy has no responses and no frozen specs (it
    freezes its own when published) and a new random link.
    """
    values = _copied_values(survey, SURVEY_FIELDS_NOT_COPIED)
    values["title"] = copy_title(survey.title)
    duplicate = Survey(owner=owner, slug=random_slug(survey.title), **values)
    duplicate.full_clean()
    duplicate.save()
    originals = list(survey.questions.all())
    copies = Question.objects.bulk_create(
        Question(survey=duplicate, **_copied_values(q, QUESTION_FIELDS_NOT_COPIED))
        for q in originals
    )
    _conditions_renumber(originals, copies)
    original_ids = [q.pk for q in originals]
    if survey.comprehension_check_id in original_ids:
        duplicate.comprehension_check = copies[
            original_ids.index(survey.comprehension_check_id)
        ]
        duplicate.save(update_fields=["comprehension_check"])
    sections_copy(source=survey, target=duplicate)
    audit_record(
        actor=owner,
        action=Action.SURVEY_DUPLICATE,
        survey=duplicate,
        copied_from=survey.pk,
        copied_from_title=survey.title,
    )
    return duplicate


def spec_digest(spec: Mapping[str, Any]) -> str:
    """A short digest that names the exact spec an answer was randomized with."""
    canonical = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]
