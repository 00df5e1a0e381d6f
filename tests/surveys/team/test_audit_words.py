"""Each audit event in plain words, for the log page and the API."""

from __future__ import annotations

import pytest

from surveys.models import AuditEvent
from surveys.team.audit import Action
from surveys.team.audit_selectors import event_words


def words(action, **detail):
    return event_words(AuditEvent(action=str(action), detail=detail))


@pytest.mark.parametrize(
    ("action", "detail", "expected"),
    [
        (Action.SURVEY_PUBLISH, {}, "published the survey"),
        (Action.ANSWERS_DOWNLOAD, {"format": "csv"}, "downloaded the answers (CSV)"),
        (Action.ANSWERS_DOWNLOAD, {}, "downloaded the answers"),
        (Action.CODEBOOK_DOWNLOAD, {"format": "json"}, "downloaded the codebook"),
        (Action.CODEBOOK_DOWNLOAD, {"format": "html"}, "read the codebook on its page"),
        (Action.INVITATIONS_CREATE, {"count": 1}, "made 1 invitation link"),
        (Action.INVITATIONS_CREATE, {"count": 30}, "made 30 invitation links"),
        (Action.TRANSLATION_UPDATE, {"language": "es"}, "changed the es translation"),
        (
            Action.MEMBER_ADD,
            {"member": "bob", "role": "analyst"},
            "added bob as analyst",
        ),
        (
            Action.MEMBER_ROLE,
            {"member": "bob", "role": "editor", "previous_role": "viewer"},
            "made bob an editor (was aggregates-only viewer)",
        ),
        (
            Action.MEMBER_REMOVE,
            {"member": "bob", "role": "analyst"},
            "removed bob (was analyst)",
        ),
        (
            Action.MEMBER_REMOVE,
            {"member": "bob", "role": "analyst", "left": True},
            "left the survey (was analyst)",
        ),
        (
            Action.OWNERSHIP_TRANSFER,
            {"member": "bob", "previous_owner_role": "editor"},
            "transferred ownership to bob, staying on as editor",
        ),
        (
            Action.AUDIT_PRUNE,
            {"before": "2025-01-01", "deleted": 3},
            "deleted 3 audit events from before 2025-01-01",
        ),
        (
            Action.MODEL_FIT,
            {"outcome": 5, "covariates": [8, 9], "formula": "q1 ~ q4 + q5"},
            "requested a model fit (q1 ~ q4 + q5)",
        ),
    ],
)
def test_it_words_each_action(action, detail, expected):
    assert words(action, **detail) == expected


def test_every_action_has_its_own_words():
    for action in Action:
        assert words(action) != action.value, action


def test_an_action_this_version_does_not_know_reads_as_stored():
    assert words("survey.teleport") == "survey.teleport"
