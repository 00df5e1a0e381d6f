"""Free text on the respondent and transparency pages: a box with no name, its
limit and count, and the note that the answer is not protected, before it is
answered, in the page's language; a question's markup is shown as text."""

from __future__ import annotations

import re

import pytest

from tests.surveys.freetext.data import text_survey

pytestmark = pytest.mark.django_db


def test_the_page_shows_a_box_with_no_name_and_says_it_is_not_protected(client, owner):
    survey = text_survey(owner, limit=120)
    words = survey.questions.get(kind="free_text")
    html = client.get(f"/s/{survey.slug}/").content.decode()
    box = re.search(r"<textarea[^>]*>", html).group(0)
    assert "name=" not in box
    assert 'maxlength="120"' in box
    assert (
        f'aria-describedby="q{words.pk}-how q{words.pk}-limit q{words.pk}-optional"'
        in box
    )
    note = html.split(f'id="q{words.pk}-how"')[1].split("</p>")[0]
    assert "Not protected:" in note
    assert "the research team can read it" in note
    assert "Please do not write names" in note
    assert "Up to 120 characters." in html
    assert "0 of 120 characters used" in html
    assert "Answers typed in your own words are not protected" in html


def test_a_survey_asked_only_plainly_still_says_free_text_is_not_protected(
    client, owner
):
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish

    survey = survey_create(owner=owner, title="Plain")
    question_create(
        survey=survey,
        text="Comments <b>please</b>",
        kind="free_text",
        design={"name": "direct"},
    )
    survey = survey_publish(survey=survey)
    html = client.get(f"/s/{survey.slug}/").content.decode()
    assert "Every question here is asked plainly" in html
    assert "Answers typed in your own words are not protected" in html
    # The researcher's text is escaped like any other.
    assert "Comments &lt;b&gt;please&lt;/b&gt;" in html
    transparency = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert "not randomized and not protected" in transparency
    assert "Sent exactly as typed" in transparency


def test_the_box_and_its_note_speak_spanish(client, owner):
    survey = text_survey(owner, language="es")
    html = client.get(f"/s/{survey.slug}/").content.decode()
    assert "Su respuesta, con sus propias palabras" in html
    assert "Sin protección:" in html
    assert "el equipo de investigación puede leerlo" in html
    assert "0 de 200 caracteres usados" in html
