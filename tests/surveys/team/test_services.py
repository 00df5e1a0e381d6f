"""Member services: each change is refused or recorded exactly once."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from surveys.models import AuditEvent, Membership, Role
from surveys.team.services import (
    member_add,
    member_remove,
    member_role_change,
    ownership_transfer,
)

pytestmark = pytest.mark.django_db


TEAM_ACTIONS = ("member.add", "member.role", "member.remove", "ownership.transfer")


def events(survey, action):
    return list(AuditEvent.objects.filter(survey=survey, action=action))


def test_it_adds_a_member_by_username_in_any_case(draft_survey, owner, colleague):
    membership = member_add(
        survey=draft_survey, actor=owner, who="COLLEAGUE", role="analyst"
    )
    assert membership.user == colleague
    assert membership.role == Role.ANALYST
    [event] = events(draft_survey, "member.add")
    assert event.actor == owner
    assert event.detail == {"member": "colleague", "role": "analyst"}


def test_it_adds_a_member_by_email(draft_survey, owner, colleague):
    colleague.email = "Col@Example.org"
    colleague.save()
    member_add(survey=draft_survey, actor=owner, who=" col@example.ORG ", role="viewer")
    assert draft_survey.memberships.get().user == colleague


def test_an_unknown_name_says_to_get_an_account_first(draft_survey, owner):
    with pytest.raises(ValidationError) as refused:
        member_add(survey=draft_survey, actor=owner, who="nobody", role="analyst")
    assert refused.value.message_dict["who"] == [
        "No researcher account has the username or email “nobody”. Ask them to get "
        "an account first (docs/deploy.md, Accounts)."
    ]
    assert not AuditEvent.objects.filter(action__startswith="member.").exists()


def test_an_email_of_several_accounts_is_refused(
    draft_survey, owner, colleague, stranger
):
    for user in (colleague, stranger):
        user.email = "shared@example.org"
        user.save()
    with pytest.raises(ValidationError, match="Several accounts match"):
        member_add(
            survey=draft_survey, actor=owner, who="shared@example.org", role="viewer"
        )
    assert not Membership.objects.exists()


def test_the_owner_cannot_be_added(draft_survey, owner):
    with pytest.raises(ValidationError, match="owner owns this survey already"):
        member_add(survey=draft_survey, actor=owner, who="owner", role="editor")


def test_an_existing_member_is_refused_with_their_role(draft_survey, owner, colleague):
    member_add(survey=draft_survey, actor=owner, who="colleague", role="analyst")
    with pytest.raises(ValidationError, match="already a member, as analyst"):
        member_add(survey=draft_survey, actor=owner, who="colleague", role="editor")
    assert len(events(draft_survey, "member.add")) == 1


def test_an_inactive_account_is_refused(draft_survey, owner, colleague):
    colleague.is_active = False
    colleague.save()
    with pytest.raises(ValidationError, match="deactivated"):
        member_add(survey=draft_survey, actor=owner, who="colleague", role="viewer")


@pytest.mark.parametrize("role", ["owner", "admin", ""])
def test_owner_and_unknown_roles_are_refused(draft_survey, owner, colleague, role):
    with pytest.raises(ValidationError) as refused:
        member_add(survey=draft_survey, actor=owner, who="colleague", role=role)
    assert "role" in refused.value.message_dict
    assert not Membership.objects.exists()


@pytest.fixture
def membership(draft_survey, owner, colleague):
    return member_add(survey=draft_survey, actor=owner, who="colleague", role="viewer")


def test_it_changes_a_role_once(draft_survey, owner, membership):
    member_role_change(membership=membership, actor=owner, role=Role.EDITOR)
    membership.refresh_from_db()
    assert membership.role == "editor"
    [event] = events(draft_survey, "member.role")
    assert event.detail == {
        "member": "colleague",
        "role": "editor",
        "previous_role": "viewer",
    }


def test_the_same_role_again_changes_and_records_nothing(
    draft_survey, owner, membership
):
    member_role_change(membership=membership, actor=owner, role="viewer")
    assert events(draft_survey, "member.role") == []


def test_a_role_cannot_become_owner(owner, membership):
    with pytest.raises(ValidationError, match="transfer ownership"):
        member_role_change(membership=membership, actor=owner, role="owner")


def test_the_owner_removes_a_member(draft_survey, owner, membership):
    member_remove(membership=membership, actor=owner)
    assert not Membership.objects.exists()
    [event] = events(draft_survey, "member.remove")
    assert event.detail == {"member": "colleague", "role": "viewer"}


def test_a_member_who_removes_themselves_left(draft_survey, colleague, membership):
    member_remove(membership=membership, actor=colleague)
    [event] = events(draft_survey, "member.remove")
    assert event.actor == colleague
    assert event.detail == {"member": "colleague", "role": "viewer", "left": True}


def test_a_transfer_swaps_owner_and_member(draft_survey, owner, colleague, membership):
    survey = ownership_transfer(survey=draft_survey, actor=owner, to_user=colleague)
    survey.refresh_from_db()
    assert survey.owner == colleague
    [kept] = Membership.objects.filter(survey=survey)
    assert (kept.user, kept.role) == (owner, "editor")
    [event] = events(survey, "ownership.transfer")
    assert event.detail == {
        "member": "colleague",
        "previous_role": "viewer",
        "previous_owner": "owner",
        "previous_owner_role": "editor",
    }
    team_events = AuditEvent.objects.filter(action__in=TEAM_ACTIONS)
    assert team_events.count() == 2  # the add, then the transfer


def test_the_previous_owner_may_keep_another_role(
    draft_survey, owner, colleague, membership
):
    ownership_transfer(
        survey=draft_survey,
        actor=owner,
        to_user=colleague,
        previous_owner_role="viewer",
    )
    assert Membership.objects.get(user=owner).role == "viewer"


def test_only_a_member_can_become_the_owner(draft_survey, owner, stranger):
    with pytest.raises(ValidationError, match="not a member of this survey"):
        ownership_transfer(survey=draft_survey, actor=owner, to_user=stranger)
    draft_survey.refresh_from_db()
    assert draft_survey.owner == owner
    assert not AuditEvent.objects.filter(action="ownership.transfer").exists()


def test_a_transfer_from_a_stale_owner_is_refused(
    draft_survey, owner, colleague, stranger, membership
):
    """Two transfers in a row by the same page: the second finds another owner."""
    member_add(survey=draft_survey, actor=owner, who="stranger", role="viewer")
    ownership_transfer(survey=draft_survey, actor=owner, to_user=colleague)
    with pytest.raises(PermissionDenied, match="owned by colleague"):
        ownership_transfer(survey=draft_survey, actor=owner, to_user=stranger)
    assert len(events(draft_survey, "ownership.transfer")) == 1


def test_the_owner_role_cannot_be_kept(draft_survey, owner, colleague, membership):
    with pytest.raises(ValidationError) as refused:
        ownership_transfer(
            survey=draft_survey,
            actor=owner,
            to_user=colleague,
            previous_owner_role="owner",
        )
    assert "previous_owner_role" in refused.value.message_dict


def test_a_member_removed_meanwhile_is_refused_not_an_error(
    draft_survey, owner, membership
):
    stale = Membership.objects.get(pk=membership.pk)
    member_remove(membership=membership, actor=owner)
    with pytest.raises(ValidationError, match="no longer a member"):
        member_role_change(membership=stale, actor=owner, role="editor")
    with pytest.raises(ValidationError, match="no longer a member"):
        member_remove(membership=stale, actor=owner)
    assert len(events(draft_survey, "member.remove")) == 1
