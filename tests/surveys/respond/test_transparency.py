"""The transparency page, the integrity hashes behind it, and the randomizer's
cap that the browser enforces."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from estimation.bands import RANDOMIZER_MAX_EPSILON
from estimation.inference.validation import MAX_DIRECT_PERCENT
from surveys.respond.integrity import RANDOMIZER, integrity

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[3]


def test_the_browser_cap_is_the_one_python_states():
    source = (REPO / "static/js/rr.js").read_text()
    (cap,) = re.findall(r"export const MAX_EPSILON = ([0-9.]+);", source)
    assert float(cap) == RANDOMIZER_MAX_EPSILON


def test_the_browser_limit_on_a_validation_arm_is_the_one_python_states():
    source = (REPO / "static/js/rr.js").read_text()
    (limit,) = re.findall(r"export const MAX_DIRECT_PERCENT = ([0-9]+);", source)
    assert int(limit) == MAX_DIRECT_PERCENT == 50


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("export const MAX_DIRECT_PERCENT = 100;", "MAX_DIRECT_PERCENT = 100.0"),
        ("export const MAX_EPSILON = 12;", "MAX_EPSILON = 12.0"),
    ],
)
def test_a_served_randomizer_with_other_limits_fails_the_system_check(
    tmp_path, line, words
):
    source = (REPO / "static/js/rr.js").read_text()
    name = line.split()[2]
    changed = re.sub(rf"^export const {name} = .*;$", line, source, flags=re.M)
    assert changed != source
    (tmp_path / "js").mkdir()
    (tmp_path / "js/rr.js").write_text(changed)
    call_command("check")  # the repository's own randomizer passes
    with (
        override_settings(STATICFILES_DIRS=[tmp_path]),
        pytest.raises(SystemCheckError, match=re.escape(words)),
    ):
        call_command("check")


def test_integrity_is_computed_from_the_served_file():
    content = (REPO / "static/js/rr.js").read_bytes()
    found = integrity(RANDOMIZER)
    assert found.sha256 == hashlib.sha256(content).hexdigest()
    digest = base64.b64encode(hashlib.sha256(content).digest()).decode()
    assert found.sri == f"sha256-{digest}"
    assert found.size == len(content)


def test_the_transparency_page_states_every_design(client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/transparency/")
    assert page.status_code == 200
    text = page.content.decode()
    for question in open_survey.questions.all():
        design = question.get_design()
        assert question.text in text
        if design.randomized:
            # The exact matrix entries, to ten decimals.
            entry = f"{float(design.matrix[0, 0]):.10f}".rstrip("0").rstrip(".")
            assert entry in text
    assert integrity(RANDOMIZER).sha256 in text
    assert integrity(RANDOMIZER).sri in text
    # Development serves the sources as they are: nothing was stripped.
    assert not integrity(RANDOMIZER).stripped
    assert "static_minify" not in text


def test_the_respondent_page_links_to_it_and_pins_the_scripts(client, open_survey):
    text = client.get(f"/s/{open_survey.slug}/").content.decode()
    assert f'href="/s/{open_survey.slug}/transparency/"' in text
    assert f'integrity="{integrity(RANDOMIZER).sri}"' in text
    assert "All your protected answers together" in text


def test_a_draft_has_no_transparency_page(client, draft_survey):
    assert client.get(f"/s/{draft_survey.slug}/transparency/").status_code == 404


def test_the_public_api_gives_the_public_title_and_bands(client, open_survey):
    open_survey.public_title = "A questionnaire"
    open_survey.save()
    body = client.get(f"/api/v1/public/surveys/{open_survey.slug}/").json()
    assert body["title"] == "A questionnaire"
    assert body["transparency_url"] == f"/s/{open_survey.slug}/transparency/"
    assert body["whole_response"]["band"] in {"strong", "moderate", "weak", "minimal"}
    bands = {q["band"] for q in body["questions"]}
    assert "none" in bands  # the demo's question asked plainly


@pytest.mark.parametrize("path", ["/s/{slug}/", "/s/{slug}/transparency/"])
def test_the_public_pages_read_the_questions_once(
    client, open_survey, django_assert_num_queries, path
):
    # One query for the survey, one for its questions, whatever their number.
    with django_assert_num_queries(2):
        assert client.get(path.format(slug=open_survey.slug)).status_code == 200
