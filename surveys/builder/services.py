"""Everything that changes surveys and questions (responses: respond/submissions.py).

Views and commands parse input and call one of these; the rules about what a
survey's state allows live here and only here.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from estimation import Design, design_from_dict
from surveys.access.selectors import survey_is_full
from surveys.access.services import access_ledger_recount, access_settings_check
from surveys.builder.limits import limit_problems
from surveys.models import Question, Survey

MAX_OPTIONS = 20
YES_NO_OPTIONS = ["No", "Yes"]
DESIGNS_FOR_KIND = {
    Question.Kind.YES_NO: ("warner", "forced_response", "unrelated_question"),
    Question.Kind.MULTIPLE_CHOICE: ("krr", "forced_response"),
    Question.Kind.DIRECT: ("direct",),
}


class SurveyStateError(Exception):
    """The survey's state does not allow this action; the message says why."""


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


def _title_words(title: str) -> set[str]:
    return {word for word in re.split(r"[^a-z0-9]+", title.lower()) if len(word) >= 3}


def random_slug(title: str = "") -> str:
    """A fresh, unused, topic-free slug that shares no word with ``title``."""
    words = _title_words(title)
    while True:
        slug = "".join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))
        if any(word in slug for word in words):
            continue
        if not Survey.objects.filter(slug=slug).exists():
            return slug


def validate_slug(slug: str, survey: Survey | None = None) -> str:
    """A researcher's own slug, or a ValidationError naming what is wrong."""
    if not 4 <= len(slug) <= 64:
        raise ValidationError({"slug": "The link must be 4 to 64 characters long."})
    if not SLUG_PATTERN.match(slug):
        raise ValidationError(
            {
                "slug": "Use lowercase letters, digits and single hyphens "
                "(not at the start or end), e.g. “spring-wave-2”."
            }
        )
    if slug in RESERVED_SLUGS:
        raise ValidationError({"slug": f"“{slug}” is reserved: choose another link."})
    taken = Survey.objects.filter(slug=slug)
    if survey is not None and survey.pk is not None:
        taken = taken.exclude(pk=survey.pk)
    if taken.exists():
        raise ValidationError({"slug": f"The link “{slug}” is already in use."})
    return slug


def _save_survey(survey: Survey) -> Survey:
    if survey.opens_at and survey.closes_at and survey.closes_at <= survey.opens_at:
        raise ValidationError(
            {"closes_at": "The close date must be after the open date."}
        )
    survey.full_clean()
    access_settings_check(survey)
    survey.save()
    access_ledger_recount(survey=survey)
    return survey


def survey_create(*, owner: Any, title: str, slug: str = "", **fields: Any) -> Survey:
    """A draft survey; its link is random unless the researcher chose one."""
    chosen = validate_slug(slug) if slug else random_slug(title)
    survey = Survey(owner=owner, title=title, slug=chosen, **fields)
    return _save_survey(survey)


# Everything else (status, owner) changes only through its own service.
EDITABLE_SURVEY_FIELDS = frozenset(
    {
        "title",
        "public_title",
        "introduction",
        "consent",
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
    }
)


def survey_update(*, survey: Survey, **fields: Any) -> Survey:
    """Change a survey's details. The link may change only while it is a draft:
    after publishing, people may already hold it. An empty slug keeps it."""
    refused = sorted(set(fields) - EDITABLE_SURVEY_FIELDS)
    if refused:
        raise SurveyStateError(f"Cannot edit {', '.join(refused)} here.")
    slug = fields.pop("slug", "") or survey.slug
    if slug != survey.slug:
        if not survey.is_draft:
            raise SurveyStateError(
                "The link cannot change after publishing: respondents may already "
                "have it."
            )
        fields["slug"] = validate_slug(slug, survey)
    for name, value in fields.items():
        setattr(survey, name, value)
    return _save_survey(survey)


def survey_require_draft(survey: Survey, action: str) -> None:
    if not survey.is_draft:
        raise SurveyStateError(
            f"Cannot {action}: the survey is published, so its questions and designs "
            "are frozen. Create a new survey to ask something different."
        )


@transaction.atomic
def survey_publish(*, survey: Survey) -> Survey:
    """Freeze every question's design into the spec the browser will use."""
    survey = Survey.objects.select_for_update().get(pk=survey.pk)
    survey_require_draft(survey, "publish again")
    questions = list(survey.questions.all())
    if not questions:
        raise SurveyStateError("Add at least one question before publishing.")
    problems = limit_problems([(q.text, q.get_design()) for q in questions])
    if problems:
        raise SurveyStateError(" ".join(problems))
    for question in questions:
        spec = question.get_design().client_spec()
        question.spec, question.spec_version = spec, spec_digest(spec)
        question.save(update_fields=["spec", "spec_version"])
    survey.status, survey.published_at = Survey.Status.OPEN, timezone.now()
    survey.save(update_fields=["status", "published_at"])
    return survey


def survey_close(*, survey: Survey) -> Survey:
    if survey.status != Survey.Status.OPEN:
        raise SurveyStateError("Only an open survey can be closed.")
    survey.status = Survey.Status.CLOSED
    survey.save(update_fields=["status"])
    return survey


def survey_reopen(*, survey: Survey) -> Survey:
    if survey.status != Survey.Status.CLOSED:
        raise SurveyStateError("Only a closed survey can be reopened.")
    if survey_is_full(survey):
        raise SurveyStateError(
            f"The survey is full: it has its {survey.response_limit} responses. "
            "Raise its response limit to reopen it."
        )
    survey.status = Survey.Status.OPEN
    survey.save(update_fields=["status"])
    return survey


def survey_delete(*, survey: Survey) -> None:
    """Delete a survey that nobody has answered; answered data is never thrown away."""
    if survey.responses.exists():
        raise SurveyStateError(
            "Cannot delete: the survey has responses. Close it instead; its data "
            "stays available for export."
        )
    survey.delete()


def spec_digest(spec: Mapping[str, Any]) -> str:
    """A short digest that names the exact spec an answer was randomized with."""
    canonical = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# -- questions ---------------------------------------------------------------


def question_design(
    *, kind: str, options: Sequence[str], design: Mapping[str, Any]
) -> Design:
    """Validate a question's design against its kind and options."""
    if kind not in DESIGNS_FOR_KIND:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    allowed = DESIGNS_FOR_KIND[Question.Kind(kind)]
    name = design.get("name") if isinstance(design, Mapping) else None
    if name not in allowed:
        raise ValidationError(
            {
                "design": f"A {Question.Kind(kind).label} question uses {' or '.join(allowed)}."
            }
        )
    try:
        built = design_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.k != len(options):
        raise ValidationError(
            {
                "options": f"The design has {built.k} options but the question has {len(options)}."
            }
        )
    return built


def _clean_options(kind: str, options: Sequence[str] | None) -> list[str]:
    if kind not in Question.Kind.values:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    if kind == Question.Kind.YES_NO:
        return list(options) if options else list(YES_NO_OPTIONS)
    labels = [str(o).strip() for o in options or [] if str(o).strip()]
    if not 2 <= len(labels) <= MAX_OPTIONS:
        raise ValidationError(
            {"options": f"Give between 2 and {MAX_OPTIONS} options, one per line."}
        )
    if len(set(labels)) != len(labels):
        raise ValidationError({"options": "Each option must be different."})
    return labels


def _question_content(
    kind: str, options: Sequence[str] | None, design: Mapping[str, Any]
) -> tuple[list[str], dict[str, Any]]:
    """Validated option labels and the design as stored."""
    labels = _clean_options(kind, options)
    return labels, question_design(kind=kind, options=labels, design=design).to_dict()


def question_create(
    *,
    survey: Survey,
    text: str,
    kind: str,
    design: Mapping[str, Any],
    options: Sequence[str] | None = None,
    optional: bool = False,
) -> Question:
    """A question of a draft; ``optional`` lets it go unanswered (stored as missing)."""
    survey_require_draft(survey, "add questions")
    labels, design_data = _question_content(kind, options, design)
    last = (
        survey.questions.order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    question = Question(
        survey=survey,
        position=0 if last is None else last + 1,
        text=text.strip(),
        kind=kind,
        options=labels,
        design=design_data,
        optional=optional,
    )
    question.full_clean()
    question.save()
    return question


def question_update(
    *,
    question: Question,
    text: str,
    kind: str,
    design: Mapping[str, Any],
    options: Sequence[str] | None = None,
    optional: bool = False,
) -> Question:
    survey_require_draft(question.survey, "change questions")
    labels, design_data = _question_content(kind, options, design)
    question.text, question.kind = text.strip(), kind
    question.options, question.design = labels, design_data
    question.optional = optional
    question.full_clean()
    question.save()
    return question


def question_delete(*, question: Question) -> None:
    survey_require_draft(question.survey, "delete questions")
    question.delete()


@transaction.atomic
def question_move(*, question: Question, offset: int) -> None:
    """Move a question up (-1) or down (+1) in its survey."""
    survey_require_draft(question.survey, "reorder questions")
    ordered = list(question.survey.questions.select_for_update())
    index = next(i for i, q in enumerate(ordered) if q.pk == question.pk)
    target = min(max(index + offset, 0), len(ordered) - 1)
    ordered.insert(target, ordered.pop(index))
    for position, item in enumerate(ordered):
        if item.position != position:
            item.position = position
            item.save(update_fields=["position"])


@transaction.atomic
def question_reorder(*, survey: Survey, order: Sequence[int]) -> None:
    """Put the survey's questions in the order of ``order``, a list of all their ids."""
    survey_require_draft(survey, "reorder questions")
    questions = {q.pk: q for q in survey.questions.select_for_update()}
    if sorted(order) != sorted(questions):
        raise ValidationError(
            {
                "order": "List every question id of this survey exactly once: "
                f"{', '.join(map(str, sorted(questions)))}."
            }
        )
    for position, pk in enumerate(order):
        question = questions[pk]
        if question.position != position:
            question.position = position
            question.save(update_fields=["position"])
