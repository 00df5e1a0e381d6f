"""The models of invitations sent by e-mail. They belong to the ``surveys`` app
and are re-exported by :mod:`surveys.models`.

An address is linked to its invitation (a reminder must go only to those
whose invitation is unused) and to nothing else: no row here references a
response, carries the time an address was written to, or survives longer than
it is needed (docs/methodology.md, "Invitations by e-mail").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class MailKind(models.TextChoices):
    INVITATION = "invitation", "Invitation"
    REMINDER = "reminder", "Reminder"


class InvitationAddress(models.Model):
    """The address an invitation is mailed to, and the language it reads.

    No time column: ``invited`` says the invitation went, never when. Deleted
    when the survey closes or when the researcher asks (mailing/addresses.py).
    """

    invitation = models.OneToOneField(
        "surveys.Invitation",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="address",
    )
    survey = models.ForeignKey(
        "surveys.Survey", on_delete=models.CASCADE, related_name="addresses"
    )
    email = models.EmailField(max_length=254)
    language = models.CharField(max_length=8)
    invited = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["survey", "email"], name="one_invitation_per_address"
            )
        ]

    def __str__(self) -> str:
        return f"address of invitation {self.pk}"


class MessageTemplate(models.Model):
    """The researcher's wording of one kind of message in one language; without
    a row the platform's own wording is used (mailing/wording.py)."""

    survey = models.ForeignKey(
        "surveys.Survey", on_delete=models.CASCADE, related_name="message_templates"
    )
    kind = models.CharField(max_length=10, choices=MailKind.choices)
    language = models.CharField(max_length=8)
    subject = models.CharField(max_length=200)
    body = models.TextField(max_length=5000)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["survey", "kind", "language"], name="one_template_per_language"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} in {self.language} for {self.survey_id}"


class Mailing(models.Model):
    """One sending of invitations or of a reminder: counts only, never who."""

    class Status(models.TextChoices):
        SENDING = "sending", "Sending"
        FINISHED = "finished", "Finished"
        STOPPED = "stopped", "Stopped"

    survey = models.ForeignKey(
        "surveys.Survey", on_delete=models.CASCADE, related_name="mailings"
    )
    kind = models.CharField(max_length=10, choices=MailKind.choices)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.SENDING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    # Where the links point: the site's address as the researcher reached it.
    site = models.URLField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the next batch is due; the sweep sends again a batch long overdue.
    next_batch_at = models.DateTimeField(null=True, blank=True)
    # The latest batch: when it started and how many it could send, so that
    # the batches of every mailing in any minute stay within the site's rate.
    last_batch_at = models.DateTimeField(null=True, blank=True)
    last_batch_size = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    sent = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    # Reminders not sent because the invitation was used after the reminder
    # was asked for; and messages a crashed batch may or may not have sent,
    # never sent again (at most once per address and message).
    skipped = models.PositiveIntegerField(default=0)
    uncertain = models.PositiveIntegerField(default=0)
    stop_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} mailing {self.pk} of {self.survey_id}"

    @property
    def done(self) -> int:
        return self.sent + self.failed + self.skipped + self.uncertain


class MailingRecipient(models.Model):
    """An address a mailing still has to settle: deleted, with every other row
    of its mailing, when the mailing ends. No time column."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"

    mailing = models.ForeignKey(
        Mailing, on_delete=models.CASCADE, related_name="recipients"
    )
    address = models.ForeignKey(
        InvitationAddress, on_delete=models.CASCADE, related_name="+"
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    tries = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["mailing", "address"], name="one_message_per_address"
            )
        ]

    def __str__(self) -> str:
        return f"recipient of mailing {self.mailing_id}"
