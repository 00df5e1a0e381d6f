"""Surveys, their questions, and the randomized answers respondents send.

No true answer ever reaches these tables: the browser randomizes first. A
response keeps the date it arrived (never the time) and a random id (never a
sequence), and no IP address or user agent is stored anywhere.
"""

from __future__ import annotations

import datetime
import json
import secrets
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, RegexValidator, URLValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from estimation.inference.validation import MAX_DIRECT_PERCENT, arm_spec
from estimation.kinds import AnyDesign, any_design_from_dict
from surveys.access.models import AccessBucket as AccessBucket
from surveys.accounts.models import AccountPreference as AccountPreference
from surveys.kinds import KIND_TABLE, KindEntry
from surveys.mailing.models import InvitationAddress as InvitationAddress
from surveys.mailing.models import Mailing as Mailing
from surveys.mailing.models import MailingRecipient as MailingRecipient
from surveys.mailing.models import MailKind as MailKind
from surveys.mailing.models import MessageTemplate as MessageTemplate
from surveys.sealing.models import TeamKey as TeamKey
from surveys.team.models import AppendOnlyError as AppendOnlyError
from surveys.team.models import AuditEvent as AuditEvent
from surveys.team.models import AuditEventQuerySet as AuditEventQuerySet
from surveys.team.models import Membership as Membership
from surveys.team.models import Role as Role
from surveys.team.models import TokenScope as TokenScope


class FrozenDesignError(Exception):
    """Privacy only tightens: once a survey has responses, no save may change
    what its answers were randomized with, nor add a question (which would
    raise the survey's total epsilon), nor make it a draft again."""


def _has_responses(survey_id: int | None) -> bool:
    return (
        survey_id is not None and Response.objects.filter(survey_id=survey_id).exists()
    )


def _refuse_frozen_change(instance: Any, what: str, why: str) -> None:
    """Refuse a save that would add ``instance`` (a question, a section) to a
    survey with responses, or change one of its ``FROZEN_FIELDS``."""
    if not _has_responses(instance.survey_id):
        return
    fields = instance.FROZEN_FIELDS
    manager = type(instance)._default_manager
    stored = (
        manager.filter(pk=instance.pk).values(*fields).first()
        if instance.pk is not None
        else None
    )
    if stored is None:
        raise FrozenDesignError(f"Cannot add a {what} to a survey that has responses.")
    changed = [f for f in fields if stored[f] != getattr(instance, f)]
    if changed:
        raise FrozenDesignError(
            f"Cannot change {', '.join(changed)}: the survey has responses {why}."
        )


WEB_SCHEMES = ["http", "https"]


def language_choices() -> list[tuple[str, str]]:
    """The site's languages, read when asked: adding one to ``LANGUAGES`` needs
    no migration."""
    return list(settings.LANGUAGES)


class AccessMode(models.TextChoices):
    OPEN = "open", _("Open link: anyone with the link")
    INVITATION = "invitation", _("Invitation only: single-use links")
    PANEL = "panel", _("Panel: participant ids from the panel's link")


class Survey(models.Model):
    AccessMode = AccessMode

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class State(models.TextChoices):
        """What a survey is doing at a moment: its status read with its dates."""

        DRAFT = "draft", _("Draft")
        SCHEDULED = "scheduled", _("Scheduled")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="surveys"
    )
    title = models.CharField(max_length=200)
    # What respondents see in the page, its tab and its history entry. Empty:
    # the title is shown. A neutral one keeps the topic out of shared screens.
    public_title = models.CharField(max_length=200, blank=True)
    slug = models.SlugField(max_length=64, unique=True)
    # The language respondents read the survey in: the researcher writes its
    # texts (titles, introduction, consent, questions, options) in it, and the
    # respondent pages and the public API speak it (docs/languages.md).
    language = models.CharField(max_length=8, choices=language_choices, default="en")
    # Further languages respondents may choose (surveys/languages.py): each is
    # offered only once its translation is complete, and freezes at publishing.
    offered_languages = models.JSONField(default=list, blank=True)
    # The researcher's texts in those languages: {"es": {"title": ...,
    # "public_title": ..., "introduction": ..., "consent": ...}}.
    translations = models.JSONField(default=dict, blank=True)
    introduction = models.TextField(blank=True)
    # Shown before the questions, which appear only once the respondent agrees.
    # A page step, never stored: declining sends nothing (docs/methodology.md).
    consent = models.TextField(blank=True)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.DRAFT
    )
    opens_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True)
    planned_responses = models.PositiveIntegerField(
        default=500, help_text="Used to show the precision to expect while designing."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # Set by the first response after the last estimate run; cleared when a
    # run starts. The periodic sweep runs whatever stays set too long.
    estimates_stale_since = models.DateTimeField(null=True, blank=True)
    # Set only on the demo survey, whose answers come from simulated people:
    # {"respondents": n, "seed": s, "true_shares": {...}} (builder/demo.py), so
    # its results page can say so and show the truth to compare with.
    simulation = models.JSONField(null=True, blank=True, editable=False)

    # Who may answer (surveys/access/): anyone with the link, only holders of
    # an invitation, or a panel's participants, each counted once.
    access_mode = models.CharField(
        max_length=10, choices=AccessMode.choices, default=AccessMode.OPEN
    )
    # A quota: the survey closes itself at exactly this many responses.
    response_limit = models.PositiveIntegerField(null=True, blank=True)
    panel_id_parameter = models.CharField(
        max_length=64,
        default="PROLIFIC_PID",
        validators=[
            RegexValidator(
                r"^[A-Za-z0-9_.-]+$",
                "Use letters, digits, dots, hyphens and underscores only.",
            )
        ],
    )
    completion_url = models.URLField(
        max_length=500, blank=True, validators=[URLValidator(schemes=WEB_SCHEMES)]
    )
    completion_code = models.CharField(max_length=100, blank=True)
    screen_out_url = models.URLField(
        max_length=500, blank=True, validators=[URLValidator(schemes=WEB_SCHEMES)]
    )
    # Teaching the randomizer (docs/methodology.md, "The practice round"): a
    # harmless yes/no question the page randomizes exactly as a real one and
    # never sends; its wording is the default one, translated, while empty.
    practice = models.BooleanField(default=False)
    practice_question = models.CharField(max_length=300, blank=True)
    # The comprehension check: a direct question of this survey and the
    # option code that counts as passing it (surveys/builder/teaching.py), so
    # the results can be read among those who passed. At most one per survey.
    comprehension_check = models.ForeignKey(
        "Question",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    comprehension_pass = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.is_draft and _has_responses(self.pk):
            raise FrozenDesignError(
                "A survey with responses cannot become a draft again."
            )
        super().save(*args, **kwargs)

    @property
    def respondent_title(self) -> str:
        """The title respondents see: the public title if set, else the title."""
        return self.public_title or self.title

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    @property
    def is_controlled(self) -> bool:
        """Whether submissions go through the access ledger (surveys/access/):
        each person counted once, or a quota to hold exactly."""
        return self.access_mode != AccessMode.OPEN or self.response_limit is not None

    def state_at(self, moment: datetime.datetime) -> Survey.State:
        """The one rule for what a survey shows as: published to open later is
        scheduled, past its close date is closed, whatever its status says."""
        if self.is_draft:
            return self.State.DRAFT
        if self.status != self.Status.OPEN or (
            self.closes_at and moment >= self.closes_at
        ):
            return self.State.CLOSED
        if self.opens_at and moment < self.opens_at:
            return self.State.SCHEDULED
        return self.State.OPEN

    @property
    def state(self) -> Survey.State:
        return self.state_at(timezone.now())

    def accepts_responses_at(self, moment: datetime.datetime) -> bool:
        return self.state_at(moment) == self.State.OPEN


# A question's kind: one member per entry of the kinds' registry
# (surveys/kinds/__init__.py), named as its value (``Kind.YES_NO``).
QuestionKind = models.TextChoices(
    "Kind", [(entry.value.upper(), (entry.value, entry.label)) for entry in KIND_TABLE]
)
KIND_ENTRIES: dict[str, KindEntry] = {entry.value: entry for entry in KIND_TABLE}


class Section(models.Model):
    """A page of the respondent's questionnaire (``Question.section``); a
    survey without sections is one page. Its place and random order are
    frozen once answers exist, like the questions': the answers were given
    on the pages as they were. Its title and short text frame its questions
    without changing what any asks, so, like the introduction, they may be
    corrected after publishing (surveys/builder/sections.py), audited."""

    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="sections"
    )
    position = models.PositiveIntegerField(default=0)
    title = models.CharField(max_length=200)
    text = models.TextField(blank=True, max_length=2000)
    # Its questions shown in an order each respondent's browser draws.
    shuffle_questions = models.BooleanField(default=False)
    # Its title and text in the survey's other languages, as the survey's own
    # texts are: {"es": {"title": ..., "text": ...}} (surveys/languages.py).
    # Not frozen: like the introduction's, they may be corrected after
    # publishing (surveys/builder/translations.py), each change audited.
    translations = models.JSONField(default=dict, blank=True)

    FROZEN_FIELDS = ("position", "shuffle_questions")

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        _refuse_frozen_change(self, "section", "given on its pages as they are")
        super().save(*args, **kwargs)


class Question(models.Model):
    Kind = QuestionKind

    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="questions"
    )
    position = models.PositiveIntegerField(default=0)
    text = models.TextField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Empty for a kind whose answers are typed words: it has no options.
    options = models.JSONField(
        blank=True, help_text="Option labels in order; [No, Yes] for yes/no."
    )
    design = models.JSONField(help_text='The design as {"name": ..., **params}.')
    # Frozen at publication: the exact data the browser randomizes with, and a
    # digest of it that every stored answer carries.
    spec = models.JSONField(null=True, blank=True)
    spec_version = models.CharField(max_length=16, blank=True)
    # May be left unanswered (direct) or answered "prefer not to answer"
    # (randomized); either way no answer row is stored.
    optional = models.BooleanField(default=False)
    # The text and options in the survey's other languages, options in the
    # same order, so an answer's code means the same in each:
    # {"es": {"text": ..., "options": [...]}} (surveys/languages.py).
    translations = models.JSONField(default=dict, blank=True)
    # The validation arm (estimation/inference/validation.py): the whole percentage of
    # respondents, drawn in their browser, asked this sensitive question
    # directly, without randomization, and told so before they answer. 0: none.
    direct_percent = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(MAX_DIRECT_PERCENT)]
    )
    # The page it is asked on (none: the survey has no sections); its
    # ``position`` orders it within the survey, and so within its section.
    section = models.ForeignKey(
        Section,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="questions",
    )
    # A direct question's options shown in an order drawn in each
    # respondent's browser; the codes stay indices into ``options``.
    shuffle_options = models.BooleanField(default=False)
    # Display logic: shown only when earlier direct answers meet this
    # condition (surveys/display_logic/conditions.py); null: always shown.
    # Frozen with the design: it decides whose answers the estimates are of.
    condition = models.JSONField(null=True, blank=True, default=None)

    # What a typed answer may be, for the kinds that take one (a number's
    # bounds, unit, decimals and the cut points of its bins), as its kind's
    # ``answer`` role cleans it (surveys/kinds/base_answer.py); {} for the rest.
    answer_format = models.JSONField(default=dict, blank=True)

    # What a stored answer was randomized with, and what it (or its absence)
    # means: ``optional`` decides how the strata code a missing direct answer.
    FROZEN_FIELDS = (
        "kind",
        "options",
        "design",
        "spec",
        "spec_version",
        "optional",
        "direct_percent",
        "section_id",
        "shuffle_options",
        "condition",
        "answer_format",
    )

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.text[:60]

    def save(self, *args: Any, **kwargs: Any) -> None:
        _refuse_frozen_change(self, "question", "randomized with the current design")
        super().save(*args, **kwargs)

    @property
    def kind_entry(self) -> KindEntry:
        """Its kind's entry in the kinds' registry (surveys/kinds/__init__.py)."""
        return KIND_ENTRIES[self.kind]

    @property
    def is_sensitive(self) -> bool:
        return self.kind_entry.sensitive

    @property
    def in_strata(self) -> bool:
        """Asked plainly with answers a response can be grouped by: it makes
        the strata, and so the subgroups, breakdowns, covariates and display
        conditions (a kind whose answers are typed words does not)."""
        return not self.kind_entry.sensitive and self.kind_entry.stratifies

    @property
    def is_count(self) -> bool:
        """Its options are the counts 0 .. M, in order."""
        return self.kind_entry.counts

    @property
    def is_number(self) -> bool:
        """Its answer is a number (a count, or a number typed as it is): a
        model takes it as one, per unit, with no reference level."""
        return self.kind_entry.counts or self.kind_entry.typed_number

    @property
    def is_instructed(self) -> bool:
        """The device draws a group and an instruction, the respondent answers,
        and the report is ``2 * group + answer`` (estimation/kinds/instructed/designs.py)."""
        return self.kind_entry.device_instructs

    def get_design(self) -> AnyDesign:
        """The question's design, built by its kind (a unary encoding for
        check all that apply, an instructed design for cheating detection and
        the lie detector), whose ``epsilon``, ``randomized``, ``client_spec()``
        and ``describe()`` read as a design's do."""
        # Built once per process for each design a question holds: a
        # submission asks for its questions' designs about ten times each.
        # Named by the question, its spec version and the design's own
        # text, so an edit of a draft (no spec version yet) or a
        # republication is another entry, never a stale design.
        return _built_design(
            self.pk, self.spec_version, json.dumps(self.design, sort_keys=True)
        )

    def client_spec(self) -> dict[str, Any]:
        """What the browser asks with, and what publishing freezes: the
        design's client spec and, with a validation arm, ``direct_arm``, so
        the answers' spec version covers the share asked directly too."""
        spec = self.get_design().client_spec()
        arm = arm_spec(self.direct_percent) if self.has_direct_arm else None
        if arm is not None:
            spec["direct_arm"] = arm
        return spec

    @property
    def has_direct_arm(self) -> bool:
        return self.is_sensitive and self.direct_percent > 0

    @property
    def code_count(self) -> int:
        """How many different codes a stored answer may have, as its design
        says: one per option; for check all that apply one per subset of the
        items (a bit mask); with a validation arm, ``k..2k-1`` are direct
        answers (estimation/inference/validation.py); an instructed question's
        four reports are ``2 * group + answer``."""
        return self.get_design().code_count(
            self.direct_percent if self.is_sensitive else 0
        )


def random_id() -> int:
    """A random positive 63-bit id: a sequence would number responses in the
    order they arrived, which a panel's completion times could then match
    (docs/methodology.md, "Invitations, panels and quotas")."""
    return secrets.randbelow(2**63 - 1) + 1


# Designs are frozen dataclasses: one instance may serve every caller.
@lru_cache(maxsize=4096)
def _built_design(pk: int | None, spec_version: str, text: str) -> AnyDesign:
    return any_design_from_dict(json.loads(text))


class Response(models.Model):
    id = models.BigIntegerField(primary_key=True, default=random_id, editable=False)
    # No index of its own: one_response_per_key (survey, respondent_key) serves
    # lookups by survey, and every index is one more write per submission.
    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="responses", db_index=False
    )
    respondent_key = models.CharField(max_length=32)
    received_on = models.DateField()
    # Whether the saved counts (estimation/runs/counting.py) include this
    # response's answers: an estimate run adds those not yet counted and marks
    # them, in one statement. A database default, so the submission's own
    # statement (surveys/respond/response_store.py) need not name it.
    counted = models.BooleanField(default=False, db_default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["survey", "respondent_key"], name="one_response_per_key"
            )
        ]
        # Only the responses not yet counted: small, so finding them costs the
        # same at any size of survey, and a submission adds one small entry.
        indexes = [
            models.Index(
                fields=["survey"],
                condition=models.Q(counted=False),
                name="response_not_counted",
            )
        ]

    def __str__(self) -> str:
        return f"response {self.pk} to {self.survey_id}"


class Answer(models.Model):
    id = models.BigIntegerField(primary_key=True, default=random_id, editable=False)
    # Served by one_answer_per_question (response, question), like Response.survey.
    response = models.ForeignKey(
        Response, on_delete=models.CASCADE, related_name="answers", db_index=False
    )
    question = models.ForeignKey(
        Question, on_delete=models.PROTECT, related_name="answers"
    )
    # Check all that apply stores the items sent ticked as a bit mask (item i
    # in bit i), up to 2**30 - 1 for estimation.kinds.multiselect.designs.MAX_ITEMS = 30 items: one
    # row per answer, like every other kind, so the one-answer-per-question
    # constraint, receipts and counting by (question, report, stratum) stay.
    report = models.PositiveIntegerField(
        help_text="The randomized option index; for check all that apply, the "
        "bit mask of the items sent ticked (item i in bit i)."
    )
    stratum = models.PositiveIntegerField(
        default=0,
        help_text="The response's direct answers (surveys/respond/strata.py).",
    )
    spec_version = models.CharField(max_length=16)
    # A number typed to a question asked plainly that takes one (its kind's
    # ``answer`` role): the answer itself, beside ``report``, its bin.
    number = models.FloatField(null=True, blank=True)
    # Words typed to a question asked plainly that takes them (its kind's
    # ``answer`` role): stored exactly as typed, within the question's limit,
    # beside ``report`` (0, answered). Not protected, and the page says so.
    # NULL, as ``number``, for every answer of a kind that takes no words: an
    # empty text is never stored, and the one-statement insert passes NULL.
    text = models.TextField(null=True, blank=True)  # noqa: DJ001

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["response", "question"], name="one_answer_per_question"
            )
        ]

    def __str__(self) -> str:
        return f"report {self.report} to question {self.question_id}"


class Invitation(models.Model):
    """A single-use link's token and the label only its researcher sees.

    Written once and never updated: that it was used is recorded in the
    survey's :class:`AccessLedger`, so nothing here changes, moves or carries
    a time when it is used (docs/methodology.md, "Invitations, panels and quotas").
    """

    survey = models.ForeignKey(
        Survey, on_delete=models.CASCADE, related_name="invitations"
    )
    token = models.CharField(max_length=32, unique=True)
    label = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.survey_id}"


class AccessLedger(models.Model):
    """How many responses a controlled survey holds: one row per survey,
    locked by every submission to it, so its credentials count once and its
    quota holds exactly.

    The set of credentials used is ``pending``, a pool of recent ones, and
    the survey's :class:`~surveys.access.models.AccessBucket` rows, a fixed
    number of them: each a sorted concatenation of 16-byte keyed digests, a set
    with no order of use and no link to any response (surveys/access/ledger.py).
    """

    DIGEST_BYTES = 16

    survey = models.OneToOneField(
        Survey, on_delete=models.CASCADE, primary_key=True, related_name="ledger"
    )
    pending = models.BinaryField(default=b"")
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"ledger of {self.survey_id}: {self.count}"
