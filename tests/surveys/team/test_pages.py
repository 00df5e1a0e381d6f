"""The team page and the audit log: who sees what, and what each form does."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from surveys.models import AuditEvent, Membership, Role
from surveys.team.audit import Action, audit_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(draft_survey, colleague, django_user_model):
    """The owner, the colleague as analyst, and a viewer."""
    viewer = django_user_model.objects.create_user("viewer", password="viewer-pass-1")
    Membership.objects.create(survey=draft_survey, user=colleague, role=Role.ANALYST)
    Membership.objects.create(survey=draft_survey, user=viewer, role=Role.VIEWER)
    return draft_survey


def url(name, survey, *args):
    return reverse(f"surveys:{name}", args=[survey.pk, *args])


def member(survey, user):
    return survey.memberships.get(user=user)


def test_every_role_sees_the_team_and_what_roles_may_do(client, team, colleague):
    client.force_login(colleague)
    page = client.get(url("team", team)).content.decode()
    assert "Your role: <strong>Analyst</strong>" in page
    assert '<th scope="row">owner</th>' in page
    assert '<th scope="row">viewer</th>' in page
    assert "never the answer rows" in page
    assert "Leave this survey" in page
    assert "Add a member" not in page
    assert "Transfer ownership" not in page


def test_the_owner_gets_the_forms(as_owner, team):
    page = as_owner.get(url("team", team)).content.decode()
    assert "Add a member" in page
    assert "Transfer ownership" in page
    assert "Leave this survey" not in page


def test_a_stranger_gets_404_on_every_team_route(client, team, stranger, colleague):
    client.force_login(stranger)
    analyst = member(team, colleague).pk
    assert client.get(url("team", team)).status_code == 404
    assert client.get(url("audit", team)).status_code == 404
    assert client.get(url("audit_csv", team)).status_code == 404
    assert client.post(url("team_add", team), {"who": "x"}).status_code == 404
    assert client.post(url("team_role", team, analyst)).status_code == 404
    assert client.post(url("team_remove", team, analyst)).status_code == 404
    assert client.post(url("team_transfer", team)).status_code == 404


def test_staff_see_the_team_but_not_the_log(client, team, django_user_model):
    staff = django_user_model.objects.create_user("staffer", "", "s", is_staff=True)
    client.force_login(staff)
    assert client.get(url("team", team)).status_code == 200
    refused = client.get(url("audit", team))
    assert refused.status_code == 403
    assert "ask its owner to add you" in refused.content.decode()


def test_an_analyst_is_refused_owner_actions_with_the_reason(
    client, team, colleague, django_user_model
):
    client.force_login(colleague)
    viewer = member(team, django_user_model.objects.get(username="viewer")).pk
    for response in (
        client.get(url("audit", team)),
        client.get(url("audit_csv", team)),
        client.post(url("team_add", team), {"who": "stranger", "role": "viewer"}),
        client.post(url("team_role", team, viewer), {"role": "editor"}),
        client.post(url("team_remove", team, viewer)),
        client.get(url("team_transfer", team)),
    ):
        assert response.status_code == 403
        assert "Your role on this survey is analyst" in response.content.decode()
    assert Membership.objects.filter(survey=team).count() == 2
    assert not AuditEvent.objects.filter(action__startswith="member.").exists()


def test_the_owner_adds_a_member(as_owner, team, stranger):
    response = as_owner.post(
        url("team_add", team), {"who": "stranger", "role": "editor"}, follow=True
    )
    assert response.redirect_chain == [(url("team", team), 302)]
    assert "stranger is now editor on this survey." in response.content.decode()
    assert member(team, stranger).role == "editor"


def test_the_add_form_offers_the_least_privileged_role_first(as_owner, team):
    page = as_owner.get(url("team", team)).content.decode()
    add_form = page[page.index('id="add-title"') :]
    select = add_form[add_form.index('name="role"') : add_form.index("</select>")]
    assert '<option value="viewer" selected>' in select
    assert select.count("selected") == 1


def test_an_add_without_a_role_makes_a_viewer(as_owner, team, stranger):
    response = as_owner.post(url("team_add", team), {"who": "stranger"})
    assert response.status_code == 302
    assert member(team, stranger).role == "viewer"


def test_an_add_that_is_refused_is_a_400_saying_why(as_owner, team):
    response = as_owner.post(url("team_add", team), {"who": "nobody", "role": "editor"})
    assert response.status_code == 400
    assert "No researcher account has the username or email" in (
        response.content.decode()
    )


def test_the_owner_changes_a_role(as_owner, team, colleague):
    analyst = member(team, colleague)
    response = as_owner.post(url("team_role", team, analyst.pk), {"role": "viewer"})
    assert response.status_code == 302
    analyst.refresh_from_db()
    assert analyst.role == "viewer"


def test_a_made_up_role_is_a_400(as_owner, team, colleague):
    analyst = member(team, colleague)
    response = as_owner.post(url("team_role", team, analyst.pk), {"role": "owner"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_a_member_of_another_survey_is_404(as_owner, team, owner, stranger):
    from surveys.builder.services import survey_create

    other = survey_create(owner=stranger, title="Other")
    theirs = Membership.objects.create(survey=other, user=owner, role="viewer")
    response = as_owner.post(url("team_remove", team, theirs.pk))
    assert response.status_code == 404


def test_the_owner_removes_a_member(as_owner, team, colleague):
    response = as_owner.post(url("team_remove", team, member(team, colleague).pk))
    assert response.status_code == 302
    assert not team.memberships.filter(user=colleague).exists()


def test_a_member_leaves(client, team, colleague):
    client.force_login(colleague)
    response = client.post(url("team_remove", team, member(team, colleague).pk))
    assert response.url == reverse("surveys:list")
    assert client.get(url("team", team)).status_code == 404
    [event] = AuditEvent.objects.filter(action="member.remove")
    assert event.detail["left"] is True


def test_a_transfer_is_confirmed_then_made(as_owner, team, owner, colleague):
    analyst = member(team, colleague).pk
    query = {"to": analyst, "previous_owner_role": "analyst"}
    confirm = as_owner.get(url("team_transfer", team), query)
    assert confirm.status_code == 200
    assert "Make colleague the owner?" in confirm.content.decode()
    team.refresh_from_db()
    assert team.owner == owner  # asking changed nothing
    response = as_owner.post(url("team_transfer", team), query)
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.owner == colleague
    assert member(team, owner).role == "analyst"
    assert as_owner.get(url("audit", team)).status_code == 403


def test_a_transfer_to_a_non_member_is_a_400(as_owner, team, stranger):
    response = as_owner.get(url("team_transfer", team), {"to": 999_999})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_the_log_shows_events_newest_first_in_words(as_owner, team, owner):
    audit_record(actor=owner, action=Action.SURVEY_PUBLISH, survey=team)
    audit_record(
        actor=owner, action=Action.MEMBER_ADD, survey=team, member="bob", role="analyst"
    )
    page = as_owner.get(url("audit", team)).content.decode()
    assert page.index("added bob as analyst") < page.index("published the survey")
    assert "UTC" in page


def test_the_log_pages_through_many_events(as_owner, team, owner):
    for _ in range(51):
        audit_record(actor=owner, action=Action.SURVEY_UPDATE, survey=team)
    first = as_owner.get(url("audit", team)).content.decode()
    assert first.count("changed the survey&#x27;s details") == 50
    last = as_owner.get(url("audit", team), {"page": 2}).content.decode()
    assert last.count("changed the survey&#x27;s details") == 1
    assert as_owner.get(url("audit", team), {"page": "x"}).status_code == 200


def test_the_csv_has_every_event_and_guards_formulas(as_owner, team, owner):
    audit_record(
        actor=owner, action=Action.MEMBER_ADD, survey=team, member="=bad", role="viewer"
    )
    team.title = "=HYPERLINK(1)"
    audit_record(actor=owner, action=Action.SURVEY_UPDATE, survey=team)
    response = as_owner.get(url("audit_csv", team))
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == ["at", "actor", "action", "survey_id", "survey_title", "detail"]
    assert [row[2] for row in rows[1:3]] == ["survey.update", "member.add"]
    assert rows[1][4] == "'=HYPERLINK(1)"
    assert rows[1][0].endswith("Z")
    assert rows[2][5] == '{"member": "=bad", "role": "viewer"}'


def test_events_of_other_surveys_stay_out(as_owner, team, stranger):
    from surveys.builder.services import survey_create

    other = survey_create(owner=stranger, title="Other")
    audit_record(actor=stranger, action=Action.SURVEY_PUBLISH, survey=other)
    assert (
        "published the survey" not in as_owner.get(url("audit", team)).content.decode()
    )


def test_the_survey_page_summarises_the_team_for_the_owner(as_owner, team, owner):
    audit_record(actor=owner, action=Action.SURVEY_CLOSE, survey=team)
    page = as_owner.get(url("detail", team)).content.decode()
    assert "Owner: <strong>owner</strong>, and 2 members" in page
    assert "owner closed the survey" in page
    assert url("audit_csv", team) in page
