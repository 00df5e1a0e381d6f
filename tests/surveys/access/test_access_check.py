"""The check the respondent page makes when it opens: an unknown or used
invitation (or a panel id already counted) is refused before anything is
answered, a valid one is let in, and the check writes nothing, uses nothing
up and is throttled with the submissions."""

from __future__ import annotations

import json
import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from surveys.access.services import invitations_create
from surveys.builder.services import survey_close, survey_publish, survey_update
from surveys.models import AccessLedger, Answer, Invitation, Response
from tests.surveys.access.conftest import SCREEN_OUT, body, post
from tests.surveys.translated import offer_spanish

pytestmark = pytest.mark.django_db

USED = "This invitation has already been used."


def check(client, survey, payload, **headers):
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/access/",
        data=json.dumps(payload),
        content_type="application/json",
        headers=headers,
    )


def token_of(survey):
    return invitations_create(survey=survey, labels=["someone"])[0].token


def used_token(client, survey):
    token = token_of(survey)
    assert post(client, survey, body(survey, invitation=token)).status_code == 201
    return token


def test_it_lets_an_unused_invitation_in(client, invitation_survey):
    reply = check(
        client, invitation_survey, {"invitation": token_of(invitation_survey)}
    )
    assert reply.status_code == 200
    assert reply.json() == {"usable": True}


def test_it_refuses_a_used_invitation_as_the_submission_does(client, invitation_survey):
    token = used_token(client, invitation_survey)
    reply = check(client, invitation_survey, {"invitation": token})
    assert reply.status_code == 409
    assert reply.json()["error"].startswith(USED)
    assert "ask whoever invited you for a new link" in reply.json()["error"]
    again = post(client, invitation_survey, body(invitation_survey, invitation=token))
    assert (again.status_code, again.json()) == (409, reply.json())


@pytest.mark.parametrize(
    ("access", "status", "words"),
    [
        ({}, 403, "by invitation only"),
        ({"invitation": ""}, 403, "by invitation only"),
        ({"invitation": "A" * 22}, 403, "not valid for this survey"),
        ({"invitation": "short"}, 400, "not valid for this survey"),
        ({"invitation": 12}, 400, "not valid for this survey"),
    ],
)
def test_it_refuses_a_missing_or_unknown_invitation(
    client, invitation_survey, access, status, words
):
    token_of(invitation_survey)
    reply = check(client, invitation_survey, access)
    assert reply.status_code == status
    assert words in reply.json()["error"]


def test_another_surveys_invitation_is_unknown_here(client, invitation_survey, owner):
    from surveys.builder.services import survey_create

    other = survey_create(owner=owner, title="Other")
    reply = check(client, invitation_survey, {"invitation": token_of(other)})
    assert reply.status_code == 403


def test_checking_uses_nothing_up(client, invitation_survey):
    token = token_of(invitation_survey)
    for _ in range(3):
        assert (
            check(client, invitation_survey, {"invitation": token}).status_code == 200
        )
    stored = post(client, invitation_survey, body(invitation_survey, invitation=token))
    assert stored.status_code == 201


def test_the_submission_stays_the_final_authority(client, invitation_survey):
    """Two tabs open the same link while it is unused; the first to send is
    stored, the second is refused on sending."""
    token = token_of(invitation_survey)
    tabs = [check(client, invitation_survey, {"invitation": token}) for _ in range(2)]
    assert [tab.status_code for tab in tabs] == [200, 200]
    first = post(client, invitation_survey, body(invitation_survey, invitation=token))
    second = post(client, invitation_survey, body(invitation_survey, invitation=token))
    assert (first.status_code, second.status_code) == (201, 409)
    assert second.json()["error"].startswith(USED)
    assert Response.objects.count() == 1


def test_a_used_panel_id_is_refused_with_the_screen_out_url(client, panel_survey):
    new = check(client, panel_survey, {"participant": "p-1"})
    assert new.status_code == 200
    assert post(client, panel_survey, body(panel_survey, participant="p-1")).status_code
    used = check(client, panel_survey, {"participant": "p-1"})
    assert used.status_code == 409
    assert "already taken part" in used.json()["error"]
    assert used.json()["redirect"] == SCREEN_OUT
    assert check(client, panel_survey, {}).status_code == 403


def test_an_open_survey_has_nothing_to_refuse(client, open_survey):
    assert check(client, open_survey, {}).json() == {"usable": True}


def test_a_closed_survey_is_refused_as_closed(client, panel_survey):
    survey_close(survey=panel_survey)
    reply = check(client, panel_survey, {"participant": "p-2"})
    assert reply.status_code == 409
    assert "not accepting responses" in reply.json()["error"]
    assert reply.json()["redirect"] == SCREEN_OUT


@pytest.mark.parametrize(
    ("payload", "status", "words"),
    [
        ({"invitation": "x" * 22, "answers": []}, 400, "Unknown field(s): answers"),
        ([], 400, "must be a JSON object"),
    ],
)
def test_a_malformed_check_gets_a_clear_400(
    client, invitation_survey, payload, status, words
):
    reply = check(client, invitation_survey, payload)
    assert reply.status_code == status
    assert words in reply.json()["error"]


def test_a_check_that_is_not_json_or_of_no_survey_is_refused(client, draft_survey):
    not_json = client.post(
        f"/api/v1/public/surveys/{draft_survey.slug}/access/",
        data="invitation=x",
        content_type="application/x-www-form-urlencoded",
    )
    assert not_json.status_code == 415
    assert check(client, draft_survey, {}).status_code == 404  # a draft
    assert (
        client.get(f"/api/v1/public/surveys/{draft_survey.slug}/access/").status_code
        == 405
    )


def test_a_refusal_speaks_the_page_language(client, draft_survey):
    offer_spanish(draft_survey)
    survey_update(survey=draft_survey, access_mode="invitation")
    survey = survey_publish(survey=draft_survey)
    token = used_token(client, survey)
    reply = check(client, survey, {"invitation": token}, **{"Accept-Language": "es"})
    assert reply.status_code == 409
    assert reply.json()["error"].startswith("Esta invitación ya se ha utilizado.")


# -- nothing written, nothing kept ---------------------------------------------


def physical_rows(table: str) -> list[tuple]:
    """Each row with where it lies and which transaction wrote it: an UPDATE
    would change both."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ctid::text, xmin::text, * FROM {table} ORDER BY 3")
        return cursor.fetchall()


def table_state() -> dict[str, list[tuple]]:
    tables = (Invitation, AccessLedger, Response, Answer)
    return {m._meta.db_table: physical_rows(m._meta.db_table) for m in tables}


@pytest.mark.parametrize("kind", ["unused", "used", "unknown", "malformed"])
def test_the_check_writes_nothing(client, invitation_survey, kind):
    used = used_token(client, invitation_survey)
    token = {
        "unused": token_of(invitation_survey),
        "used": used,
        "unknown": "B" * 22,
        "malformed": "?",
    }[kind]
    before = table_state()
    with CaptureQueriesContext(connection) as queries:
        check(client, invitation_survey, {"invitation": token})
    statements = [q["sql"].lstrip().split()[0].upper() for q in queries]
    assert statements, "the check read nothing"
    assert set(statements) <= {"SELECT"}, statements
    assert table_state() == before


def test_the_check_makes_no_ledger_for_a_survey_with_none(client, panel_survey):
    assert check(client, panel_survey, {"participant": "p-3"}).status_code == 200
    assert not AccessLedger.objects.exists()


def test_no_log_line_holds_the_token_or_the_id(client, invitation_survey, caplog):
    token = token_of(invitation_survey)
    with caplog.at_level(logging.DEBUG):
        check(client, invitation_survey, {"invitation": token})
        check(client, invitation_survey, {"invitation": token + "x"})
    assert caplog.records, "the request line is logged"
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token not in json.dumps(record.__dict__, default=str)


# -- throttled with the submissions --------------------------------------------


def test_checks_count_against_the_submissions_limit(
    client, invitation_survey, settings
):
    """Guessing tokens here is no faster than guessing them by submitting:
    both draw on one counter per client."""
    settings.THROTTLE_SUBMISSIONS = "3/minute"
    tokens = [
        i.token for i in invitations_create(survey=invitation_survey, labels=["", ""])
    ]
    assert (
        check(client, invitation_survey, {"invitation": tokens[0]}).status_code == 200
    )
    assert check(client, invitation_survey, {"invitation": "C" * 22}).status_code == 403
    stored = post(
        client, invitation_survey, body(invitation_survey, invitation=tokens[0])
    )
    assert stored.status_code == 201
    refused = check(client, invitation_survey, {"invitation": tokens[1]})
    assert refused.status_code == 429
    assert "try again in" in refused.json()["error"]
    late = post(
        client, invitation_survey, body(invitation_survey, invitation=tokens[1])
    )
    assert late.status_code == 429
