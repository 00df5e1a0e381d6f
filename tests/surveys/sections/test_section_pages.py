"""The researcher's page of sections: add, rename, move, delete, put a
question on a page and shuffle a direct question's options; once published
it only shows them, and says why they are frozen."""

from __future__ import annotations

import pytest

from surveys.builder.services import survey_publish
from tests.surveys.sections.sectioned import sectioned_survey

pytestmark = pytest.mark.django_db


def page_url(survey, tail=""):
    return f"/surveys/{survey.pk}/sections/{tail}"


def test_it_adds_renames_moves_and_deletes_a_section(as_owner, owner):
    survey = sectioned_survey(owner)
    page = as_owner.get(page_url(survey))
    assert page.status_code == 200
    assert b"Add a section" in page.content
    added = as_owner.post(
        page_url(survey), {"new-title": "Closing", "new-text": "Nearly done."}
    )
    assert added.status_code == 302
    closing = survey.sections.get(title="Closing")
    prefix = f"s{closing.pk}"
    as_owner.post(
        page_url(survey, f"{closing.pk}/"),
        {
            f"{prefix}-title": "The end",
            f"{prefix}-text": "",
            f"{prefix}-shuffle_questions": "on",
        },
    )
    closing.refresh_from_db()
    assert (closing.title, closing.shuffle_questions) == ("The end", True)
    as_owner.post(page_url(survey, f"{closing.pk}/move/"), {"direction": "up"})
    assert list(survey.sections.values_list("title", flat=True))[2] == "The end"
    assert (
        as_owner.post(
            page_url(survey, f"{closing.pk}/move/"), {"direction": "sideways"}
        ).status_code
        == 400
    )
    as_owner.post(page_url(survey, f"{closing.pk}/delete/"))
    assert not survey.sections.filter(title="The end").exists()


def test_an_empty_title_is_refused_on_the_page(as_owner, owner):
    survey = sectioned_survey(owner)
    response = as_owner.post(page_url(survey), {"new-title": ""})
    assert response.status_code == 400
    assert b"This field is required" in response.content


def test_it_assigns_questions_and_shuffles_direct_options(as_owner, owner):
    survey = sectioned_survey(owner)
    about = survey.sections.get(title="About you")
    fruit = survey.questions.get(text="Fruit 2?")
    warner = survey.questions.get(design__name="warner")
    form = {f"section-{q.pk}": q.section_id for q in survey.questions.all()}
    form[f"section-{fruit.pk}"] = about.pk
    form[f"shuffle-{fruit.pk}"] = "on"
    assert as_owner.post(page_url(survey, "questions/"), form).status_code == 302
    fruit.refresh_from_db()
    assert (fruit.section, fruit.shuffle_options) == (about, True)
    # A randomized question's options keep their order: refused, said why.
    form[f"shuffle-{warner.pk}"] = "on"
    refused = as_owner.post(page_url(survey, "questions/"), form, follow=True)
    assert "direct question" in refused.content.decode()
    warner.refresh_from_db()
    assert not warner.shuffle_options
    form[f"section-{fruit.pk}"] = "nonsense"
    assert as_owner.post(page_url(survey, "questions/"), form).status_code == 400


def test_published_it_shows_the_sections_and_why_they_are_frozen(as_owner, owner):
    survey = survey_publish(survey=sectioned_survey(owner))
    page = as_owner.get(page_url(survey)).content.decode()
    assert "frozen since publishing" in page
    assert "Add a section" not in page
    assert "About you" in page
    refused = as_owner.post(page_url(survey), {"new-title": "More"}, follow=True)
    assert "frozen" in refused.content.decode()
    assert survey.sections.count() == 3


def test_another_researcher_gets_a_404(client, colleague, owner):
    survey = sectioned_survey(owner)
    client.force_login(colleague)
    assert client.get(page_url(survey)).status_code == 404
