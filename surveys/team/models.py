"""The models of a survey's team and its history: the roles and memberships
of researchers, the append-only audit log and API tokens' scope. They belong
to the ``surveys`` app (their tables and migrations are its own) and are
re-exported by :mod:`surveys.models`; they live here, beside the team's
services, to keep that module to the survey and its answers."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    """A researcher's part in a survey. Each role may do everything the roles
    below it may (docs/teams.md): the owner is the survey's ``owner``; the
    others are :class:`Membership` rows."""

    OWNER = "owner", _("Owner")
    EDITOR = "editor", _("Editor")
    ANALYST = "analyst", _("Analyst")
    VIEWER = "viewer", _("Aggregates-only viewer")


class Membership(models.Model):
    """A collaborator on a survey, with a role below owner."""

    survey = models.ForeignKey(
        "surveys.Survey", on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(
        max_length=8,
        choices=[(r.value, r.label) for r in Role if r != Role.OWNER],
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["survey", "user"], name="one_membership_per_person"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=["editor", "analyst", "viewer"]),
                name="membership_role_below_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} as {self.role} of {self.survey_id}"


class AuditEventQuerySet(models.QuerySet["AuditEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("The audit log is append-only: no row is updated.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("The audit log is append-only: no row is deleted.")


class AppendOnlyError(Exception):
    """An attempt to change or remove an audit event."""


class AuditEvent(models.Model):
    """One researcher action on a survey, its members or its data, or one
    download of its answer rows (surveys/team/audit.py).

    Append-only: the application never updates or deletes a row, and on
    PostgreSQL and SQLite a trigger refuses it too. The survey and the actor
    are kept as ids and names without foreign-key constraints, so deleting a
    survey or an account leaves its history as it was. Nothing about
    respondents is recorded, and no IP address (docs/teams.md, "Audit log").
    """

    at = models.DateTimeField(default=timezone.now, editable=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        related_name="+",
        editable=False,
    )
    # The actor's username when it happened; empty for a command or the demo.
    actor_name = models.CharField(max_length=150, blank=True, editable=False)
    survey = models.ForeignKey(
        "surveys.Survey",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        related_name="audit_events",
        editable=False,
    )
    survey_title = models.CharField(max_length=200, blank=True, editable=False)
    action = models.CharField(max_length=40, editable=False)
    detail = models.JSONField(default=dict, blank=True, editable=False)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["survey", "at"], name="audit_by_survey")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name or 'system'} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("The audit log is append-only: no row is updated.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("The audit log is append-only: no row is deleted.")


class TokenScope(models.Model):
    """How much an API token may do: a read-only token may read whatever its
    user's roles allow, and change nothing."""

    token = models.OneToOneField(
        "authtoken.Token",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="scope",
    )
    read_only = models.BooleanField(default=False)

    def __str__(self) -> str:
        return "read-only" if self.read_only else "read-write"
