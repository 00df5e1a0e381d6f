"""The researcher's side: access settings in the survey form and the
invitations page (make, import, download, list unused)."""

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from surveys.access.services import invitations_create
from surveys.models import Invitation, Survey
from tests.surveys.access.conftest import body, post
from tests.surveys.builder.pages import form_errors, url

pytestmark = pytest.mark.django_db


def survey_form(**overrides):
    data = {"title": "Habits", "planned_responses": "500", "access_mode": "open"}
    data.update(overrides)
    return data


def test_the_survey_form_sets_a_panel_with_its_settings(as_owner):
    reply = as_owner.post(
        url("create"),
        survey_form(
            access_mode="panel",
            panel_id_parameter="workerId",
            completion_url="https://panel.example.org/done?c={code}",
            completion_code="XYZ",
            screen_out_url="https://panel.example.org/out",
            response_limit="200",
        ),
    )
    assert reply.status_code == 302
    survey = Survey.objects.get()
    assert (survey.access_mode, survey.panel_id_parameter, survey.response_limit) == (
        "panel",
        "workerId",
        200,
    )
    page = as_owner.get(url("detail", survey.pk)).content.decode()
    assert "Panel: participant ids from the panel" in page
    assert "200: closes itself when full" in page


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"access_mode": "panel"}, "completion_url", "needs the panel"),
        (
            {"access_mode": "panel", "completion_url": "ftp://x.example/done"},
            "completion_url",
            "valid URL",
        ),
        (
            {"access_mode": "panel", "panel_id_parameter": "id with spaces"},
            "panel_id_parameter",
            "letters",
        ),
        (
            {"completion_url": "https://x.example/done"},
            "completion_url",
            "applies only to panel surveys",
        ),
        ({"response_limit": "0"}, "response_limit", "greater than or equal to 1"),
        ({"access_mode": "everyone"}, "access_mode", "valid choice"),
    ],
)
def test_bad_access_settings_are_form_errors(as_owner, overrides, field, words):
    reply = as_owner.post(url("create"), survey_form(**overrides))
    assert reply.status_code == 200
    assert any(words in message for message in form_errors(reply, field)), form_errors(
        reply, field
    )
    assert not Survey.objects.exists()


def test_the_api_sets_and_validates_access(as_owner):
    created = as_owner.post(
        "/api/v1/surveys/",
        {"title": "T", "access_mode": "invitation", "response_limit": 40},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert created.json()["access_mode"] == "invitation"
    assert created.json()["response_limit"] == 40
    refused = as_owner.post(
        "/api/v1/surveys/",
        {"title": "T", "access_mode": "panel"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "completion URL" in refused.json()["error"]


def test_the_researcher_makes_links_and_sees_them_unused(as_owner, invitation_survey):
    reply = as_owner.post(
        url("invitations_create", invitation_survey.pk), {"count": "3"}
    )
    assert reply.status_code == 302
    assert Invitation.objects.filter(survey=invitation_survey).count() == 3
    page = as_owner.get(url("invitations", invitation_survey.pk)).content.decode()
    assert page.count("#invitation=") == 3
    assert '<dd id="unused-count">3</dd>' in page


def test_a_bad_count_is_a_form_error(as_owner, invitation_survey):
    reply = as_owner.post(
        url("invitations_create", invitation_survey.pk), {"count": "0"}
    )
    assert reply.status_code == 400
    assert not Invitation.objects.exists()


def test_an_imported_csv_makes_a_link_per_identifier(as_owner, invitation_survey):
    upload = SimpleUploadedFile("people.csv", b"label\nalice\nbob\n", "text/csv")
    reply = as_owner.post(
        url("invitations_import", invitation_survey.pk), {"file": upload}
    )
    assert reply.status_code == 302
    labels = set(Invitation.objects.values_list("label", flat=True))
    assert labels == {"alice", "bob"}


def test_a_bad_csv_is_explained_and_makes_nothing(as_owner, invitation_survey):
    upload = SimpleUploadedFile("people.csv", b"\xff\xfe\x00\x00", "text/csv")
    reply = as_owner.post(
        url("invitations_import", invitation_survey.pk), {"file": upload}
    )
    assert reply.status_code == 400
    assert "not UTF-8" in reply.content.decode()
    assert not Invitation.objects.exists()


def test_the_links_download_as_csv_and_the_unused_for_reminders(
    as_owner, client, invitation_survey
):
    made = invitations_create(
        survey=invitation_survey, labels=["alice", "=bob", "carol"]
    )
    assert (
        post(
            client, invitation_survey, body(invitation_survey, invitation=made[0].token)
        ).status_code
        == 201
    )
    everything = as_owner.get(url("invitations_csv", invitation_survey.pk))
    assert everything["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(everything.content.decode())))
    assert rows[0] == ["label", "link"]
    assert [r[0] for r in rows[1:]] == ["alice", "'=bob", "carol"]
    assert rows[1][1].endswith(
        f"/s/{invitation_survey.slug}/#invitation={made[0].token}"
    )
    unused = as_owner.get(url("invitations_csv", invitation_survey.pk) + "?unused=1")
    rows = list(csv.reader(io.StringIO(unused.content.decode())))
    assert [r[0] for r in rows[1:]] == ["'=bob", "carol"]
    page = as_owner.get(url("invitations", invitation_survey.pk)).content.decode()
    assert '<dd id="used-count">1</dd>' in page
    assert '<dd id="unused-count">2</dd>' in page
    assert made[0].token not in page


def test_the_public_definition_says_how_to_take_part(client, panel_survey):
    definition = client.get(f"/api/v1/public/surveys/{panel_survey.slug}/").json()
    assert definition["access_mode"] == "panel"
    assert definition["panel_id_parameter"] == "PROLIFIC_PID"


def test_the_detail_page_says_how_to_share_an_invitation_survey(
    as_owner, invitation_survey
):
    page = as_owner.get(url("detail", invitation_survey.pk)).content.decode()
    assert "Send each person their own link" in page
    assert url("invitations", invitation_survey.pk) in page


def closes_fact(page):
    """The survey page's fact about when it closes, or how it closed."""
    start = page.index("<dt>Close")
    return page[start : page.index("</dd>", start)]


def test_a_survey_full_at_its_limit_says_so_and_when(as_owner, quota_survey):
    from django.test import Client

    from surveys.models import AuditEvent

    respondent = Client()
    for _ in range(3):
        assert post(respondent, quota_survey, body(quota_survey)).status_code == 201
    page = as_owner.get(url("detail", quota_survey.pk)).content.decode()
    event = AuditEvent.objects.get(action="survey.close_at_limit")
    when = event.at.strftime("%-d %B %Y")
    fact = closes_fact(page)
    assert fact.startswith('<dt>Closed</dt><dd id="survey-closed">Closed on ')
    assert when in fact
    assert fact.endswith("when it reached its limit of 3 responses")
    assert "when you close it" not in page
    audit = as_owner.get(url("audit", quota_survey.pk)).content.decode()
    assert "closed the survey: it reached its limit of 3 responses" in audit
    assert '<td data-label="Who">system</td>' in audit


def test_an_open_survey_with_a_limit_says_it_closes_there_too(as_owner, quota_survey):
    fact = closes_fact(as_owner.get(url("detail", quota_survey.pk)).content.decode())
    assert fact.endswith(
        "when you close it, or when it reaches its limit of 3 responses"
    )


def test_a_survey_closed_by_hand_says_so(as_owner, quota_survey):
    from surveys.builder.services import survey_close

    survey_close(survey=quota_survey)
    fact = closes_fact(as_owner.get(url("detail", quota_survey.pk)).content.decode())
    assert "Closed on " in fact
    assert fact.endswith("with “Close survey”")
    assert "limit" not in fact


def test_a_survey_past_its_close_date_says_it_closed_on_it(as_owner, open_survey):
    import datetime

    from django.utils import timezone

    past = timezone.now() - datetime.timedelta(days=1)
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=past)
    fact = closes_fact(as_owner.get(url("detail", open_survey.pk)).content.decode())
    assert fact.endswith("its close date")


# -- panel settings only for panel surveys ------------------------------------------


def panel_block(page):
    start = page.index('id="panel-settings"')
    return page[page.rindex("<div", 0, start) : start]


def test_a_new_survey_form_starts_with_the_panel_settings_hidden(as_owner):
    page = as_owner.get(url("create")).content.decode()
    assert "is-inactive" in panel_block(page)
    assert 'name="completion_url"' in page  # there, for a reader without scripts
    assert "css/no-script.css" in page.split("</head>")[0]
    assert "js/access-fields.js" in page


def test_a_panel_draft_shows_its_panel_settings_from_the_first_paint(
    as_owner, draft_survey
):
    from surveys.builder.services import survey_update

    survey_update(
        survey=draft_survey,
        access_mode="panel",
        completion_url="https://panel.example.org/done",
    )
    page = as_owner.get(url("edit", draft_survey.pk)).content.decode()
    assert "is-inactive" not in panel_block(page)


def test_a_panel_setting_with_an_error_is_shown_whatever_the_mode(as_owner):
    reply = as_owner.post(
        url("create"), survey_form(completion_url="https://panel.example.org/x")
    )
    assert reply.status_code == 200
    assert "is-inactive" not in panel_block(reply.content.decode())
    assert not Survey.objects.exists()


def test_a_draft_that_stops_being_a_panel_drops_its_panel_settings(
    as_owner, draft_survey
):
    from surveys.builder.services import survey_update

    survey_update(
        survey=draft_survey,
        access_mode="panel",
        panel_id_parameter="workerId",
        completion_url="https://panel.example.org/done",
        completion_code="C0DE",
    )
    # As a page without scripts posts it: the panel's values still in place.
    reply = as_owner.post(
        url("edit", draft_survey.pk),
        survey_form(
            access_mode="invitation",
            panel_id_parameter="workerId",
            completion_url="https://panel.example.org/done",
            completion_code="C0DE",
        ),
    )
    assert reply.status_code == 302
    draft_survey.refresh_from_db()
    assert draft_survey.access_mode == "invitation"
    assert (draft_survey.panel_id_parameter, draft_survey.completion_url) == (
        "PROLIFIC_PID",
        "",
    )
    assert draft_survey.completion_code == ""


def test_the_api_refuses_panel_settings_for_a_survey_that_is_not_a_panel(as_owner):
    refused = as_owner.post(
        "/api/v1/surveys/",
        {
            "title": "T",
            "access_mode": "invitation",
            "completion_url": "https://panel.example.org/done",
            "screen_out_url": "https://panel.example.org/out",
        },
        content_type="application/json",
    )
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert "The completion URL applies only to panel surveys" in error
    assert 'access_mode "panel"' in error or "access_mode “panel”" in error
    assert not Survey.objects.exists()


def test_the_api_takes_a_survey_sent_back_whole(as_owner, open_survey):
    path = f"/api/v1/surveys/{open_survey.pk}/"
    whole = as_owner.get(path).json()
    whole["title"] = "Renamed"
    reply = as_owner.put(path, whole, content_type="application/json")
    assert reply.status_code == 200, reply.json()


def test_a_published_panel_survey_still_shows_its_panel_settings(
    as_owner, panel_survey
):
    page = as_owner.get(url("edit", panel_survey.pk)).content.decode()
    assert 'name="completion_url"' in page
    assert 'name="screen_out_url"' in page


def test_a_published_open_survey_refuses_a_crafted_panel_setting(
    as_owner, quota_survey
):
    reply = as_owner.post(
        url("edit", quota_survey.pk),
        {
            "title": quota_survey.title,
            "response_limit": "3",
            "completion_url": "https://panel.example.org/done",
        },
    )
    assert reply.status_code == 200
    assert "applies only to panel surveys" in reply.content.decode()
    quota_survey.refresh_from_db()
    assert quota_survey.completion_url == ""
