"""What a survey shows as (its status read with its dates), the list's order,
and times that name their zone on every page."""

import datetime

import pytest
from django.utils import timezone

from surveys.builder.services import survey_create, survey_publish
from surveys.models import Survey
from surveys.templatetags.times import time_with_zone, when
from tests.surveys.builder.pages import url

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 25, 14, 0, tzinfo=datetime.UTC)
DAY = datetime.timedelta(days=1)


@pytest.mark.parametrize(
    ("status", "opens", "closes", "state"),
    [
        ("draft", None, None, "draft"),
        ("draft", NOW + DAY, None, "draft"),
        ("open", None, None, "open"),
        ("open", NOW - DAY, NOW + DAY, "open"),
        ("open", NOW + DAY, None, "scheduled"),
        ("open", None, NOW, "closed"),  # closes_at is the first closed moment
        ("open", NOW - 2 * DAY, NOW - DAY, "closed"),
        ("closed", None, None, "closed"),
        ("closed", NOW + DAY, None, "closed"),
    ],
)
def test_the_state_reads_the_status_with_the_dates(status, opens, closes, state):
    survey = Survey(status=status, opens_at=opens, closes_at=closes)
    assert survey.state_at(NOW) == state
    assert survey.accepts_responses_at(NOW) == (state == "open")


def scheduled(owner, days=30):
    survey = survey_create(
        owner=owner, title="Next month", opens_at=timezone.now() + days * DAY
    )
    from surveys.builder.questions import question_create

    question_create(
        survey=survey, text="Q?", kind="yes_no", design={"name": "warner", "p": 0.75}
    )
    return survey_publish(survey=survey)


def test_a_survey_published_to_open_next_month_shows_as_scheduled(as_owner, owner):
    survey = scheduled(owner)
    opens = time_with_zone(survey.opens_at)
    for page_url in (url("list"), url("detail", survey.pk), url("results", survey.pk)):
        page = as_owner.get(page_url).content.decode()
        assert '<span class="badge badge-scheduled">Scheduled</span>' in page, page_url
        assert "opens <time datetime=" in page
        assert opens in page
        assert "badge-open" not in page
    body = as_owner.get(f"/api/v1/surveys/{survey.pk}/").json()
    assert (body["status"], body["state"]) == ("open", "scheduled")


def test_a_survey_past_its_close_date_shows_as_closed(as_owner, open_survey):
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=timezone.now() - DAY)
    page = as_owner.get(url("list")).content.decode()
    assert '<span class="badge badge-closed">Closed</span>' in page
    detail = as_owner.get(url("detail", open_survey.pk)).content.decode()
    assert '<span class="badge badge-closed">Closed</span>' in detail
    assert "Share with respondents" not in detail
    assert as_owner.get(f"/api/v1/surveys/{open_survey.pk}/").json()["state"] == (
        "closed"
    )
    respondent = as_owner.get(f"/s/{open_survey.slug}/").content.decode()
    assert "not accepting answers: it is closed" in respondent


def test_the_list_is_newest_first_as_it_says(as_owner, owner):
    titles = [f"Survey {i}" for i in range(5)]
    surveys = [survey_create(owner=owner, title=t) for t in titles]
    # Created out of order: the list follows created_at, not the id.
    for offset, survey in zip([3, 1, 4, 0, 2], surveys, strict=True):
        Survey.objects.filter(pk=survey.pk).update(
            created_at=NOW + offset * datetime.timedelta(minutes=1)
        )
    page = as_owner.get(url("list")).content.decode()
    assert "newest first" in page
    shown = page.split('<th scope="row"')[1:]
    order = [next(t for t in titles if f">{t}</a>" in row) for row in shown]
    assert order == ["Survey 2", "Survey 0", "Survey 4", "Survey 1", "Survey 3"]


def test_a_time_names_its_zone(settings):
    moment = datetime.datetime(2026, 11, 25, 14, 0, tzinfo=datetime.UTC)
    assert time_with_zone(moment) == "25 November 2026, 14:00 UTC"
    assert when(moment) == (
        '<time datetime="2026-11-25T14:00:00+00:00">25 November 2026, 14:00 UTC</time>'
    )
    assert when(None) == ""
    with timezone.override("Europe/Berlin"):
        assert time_with_zone(moment) == "25 November 2026, 15:00 CET"


def test_every_time_on_the_pages_carries_its_zone(as_owner, owner):
    survey = scheduled(owner, days=3)
    Survey.objects.filter(pk=survey.pk).update(closes_at=survey.opens_at + 10 * DAY)
    pages = {
        "detail": as_owner.get(url("detail", survey.pk)).content.decode(),
        "respondent": as_owner.get(f"/s/{survey.slug}/").content.decode(),
    }
    opens = time_with_zone(survey.opens_at)
    closes = time_with_zone(survey.opens_at + 10 * DAY)
    assert opens.endswith(" UTC")
    assert opens in pages["detail"]
    assert closes in pages["detail"]
    assert "until <time datetime=" in pages["respondent"]
    assert opens in pages["respondent"]
