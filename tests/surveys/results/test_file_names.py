"""Download file names: the survey's title in safe characters and the date,
so that files from several surveys and days can be told apart."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from surveys.models import Survey
from surveys.results.file_names import MAX_TITLE, download_name, title_slug

DAY = datetime.date(2026, 11, 27)


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Conduct at work", "conduct-at-work"),
        ('Étude «santé» / 2026: "risques"', "etude-sante-2026-risques"),
        ('a"b\r\nContent-Type: x', "ab-content-type-x"),
        ("职场行为调查", ""),
        ("   ", ""),
    ],
)
def test_the_title_keeps_only_safe_ascii(title, slug):
    assert title_slug(title) == slug


def test_a_long_title_is_cut_between_words():
    slug = title_slug("A survey of conduct at work in the public sector of Bavaria")
    assert slug == "a-survey-of-conduct-at-work-in-the"
    assert len(slug) <= MAX_TITLE
    assert len(title_slug("x" * 100)) == MAX_TITLE


def test_the_name_carries_the_title_and_the_date():
    survey = Survey(title="Conduct at work", slug="rf93nypbck")
    assert download_name(survey, "answers.sav", DAY) == (
        "conduct-at-work-2026-11-27-answers.sav"
    )


def test_a_title_with_no_safe_character_falls_back_to_the_link_code():
    survey = Survey(title="职场行为调查", slug="rf93nypbck")
    assert download_name(survey, "answers.csv", DAY) == (
        "survey-rf93nypbck-2026-11-27-answers.csv"
    )


@pytest.mark.django_db
def test_web_and_api_downloads_are_named_alike(as_owner, open_survey, owner):
    from tests.api.conftest import token_client

    today = timezone.localdate().isoformat()
    expected = f'attachment; filename="{title_slug(open_survey.title)}-{today}'
    web = as_owner.get(reverse("surveys:export_answers_sav", args=[open_survey.pk]))
    assert web["Content-Disposition"] == f'{expected}-answers.sav"'
    api = token_client(owner).get(reverse("api:answers-sav", args=[open_survey.pk]))
    assert api["Content-Disposition"] == web["Content-Disposition"]
