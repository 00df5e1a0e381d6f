"""The survey page's team section: who works on it and, for its owner, the
latest audit events."""

from __future__ import annotations

from typing import Any

from django import template

from surveys.models import Survey
from surveys.team.audit_selectors import audit_events_of, event_words

register = template.Library()

LATEST = 5


@register.simple_tag
def team_of(survey: Survey, user: Any) -> dict[str, Any]:
    """The owner's name, the member count, and the owner's latest events."""
    is_owner = user.is_authenticated and survey.owner_id == user.pk
    events = list(audit_events_of(survey)[:LATEST]) if is_owner else []
    return {
        "owner": survey.owner.get_username(),
        "member_count": survey.memberships.count(),
        "is_owner": is_owner,
        "events": [(event, event_words(event)) for event in events],
    }
