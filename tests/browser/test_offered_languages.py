"""In the browser: an English survey answered on its Spanish page, reached
through the language switcher, with the same codes stored as from English."""

from __future__ import annotations

from playwright.sync_api import expect

from surveys.access.services import invitations_create
from surveys.builder.services import survey_publish, survey_update
from surveys.models import Answer, Response
from tests.browser.helpers import (
    check_requests,
    check_storage,
    expected_receipt,
    page_path,
    radio,
    receipt_items,
    submit_path,
)
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_languages import assert_no_english
from tests.surveys.translated import SPANISH, SPANISH_TITLE, offer_spanish


def test_an_english_survey_is_answered_on_its_spanish_page(
    visit,
    draft_survey,
    axe_source,  # noqa: F811
):
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switcher = page.get_by_role("navigation", name="Languages of this survey")
    expect(switcher.get_by_role("link", name="English")).to_have_attribute(
        "aria-current", "page"
    )
    switcher.get_by_role("link", name="español").click()

    expect(page).to_have_url(f"{respondent.origin}{page_path(survey)}es/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page).to_have_title(SPANISH_TITLE)
    expect(page.get_by_role("heading", name="Su privacidad")).to_be_visible()
    assert violations(page, axe_source) == [], "Spanish page of an English survey"

    for text, options in SPANISH["questions"]:
        group = page.get_by_role("radiogroup", name=text)
        radio(group, (options or ["No", "Sí"])[-1]).click()
    page.get_by_role("button", name="Enviar mis respuestas").click()
    expect(page.locator("#receipt")).to_be_visible()
    expect(page.locator("#receipt-intro")).to_have_text(
        "Hemos recibido sus respuestas. Esto es lo que envió su dispositivo."
    )
    assert_no_english(page.locator("#receipt").inner_text())

    body = check_requests(respondent, survey, languages=("es",))
    (post,) = respondent.posts
    assert post.headers.get("accept-language") == "es"
    check_storage(respondent, survey, body)
    assert receipt_items(page) == expected_receipt(body["answers"], language="es")
    # Stored as sent: the codes, with nothing that says which page sent them.
    (response,) = Response.objects.filter(survey=survey)
    stored = sorted(
        Answer.objects.filter(response=response).values_list("question_id", "report")
    )
    assert stored == sorted((a["question"], a["report"]) for a in body["answers"])
    respondent.assert_clean()


def test_the_switcher_keeps_an_invitation_held_in_the_fragment(visit, draft_survey):
    """The invitation travels in the fragment, which no request carries: the
    page carries it over to the page in another language itself."""
    offer_spanish(draft_survey)
    survey_update(survey=draft_survey, access_mode="invitation")
    survey = survey_publish(survey=draft_survey)
    token = invitations_create(survey=survey, labels=["ana"])[0].token
    respondent = visit()
    page = respondent.page
    respondent.goto(f"{page_path(survey)}#invitation={token}")
    page.get_by_role("link", name="español").click()
    expect(page).to_have_url(
        f"{respondent.origin}{page_path(survey)}es/#invitation={token}"
    )
    for text, options in SPANISH["questions"]:
        group = page.get_by_role("radiogroup", name=text)
        radio(group, (options or ["No", "Sí"])[-1]).click()
    page.get_by_role("button", name="Enviar mis respuestas").click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = [r for r in respondent.posts if r.path == submit_path(survey)]
    assert post.json()["invitation"] == token
    assert not [r.url for r in respondent.requests if token in r.url]
    assert Response.objects.filter(survey=survey).count() == 1


def test_a_spanish_browser_opens_the_bare_link_in_spanish_and_can_leave_it(
    visit, draft_survey
):
    """The browser's preferred language picks the page's; the switcher's choice
    of the survey's own language then stays chosen (its link names it)."""
    offer_spanish(draft_survey)
    survey = survey_publish(survey=draft_survey)
    respondent = visit(locale="es-ES")
    page = respondent.page
    respondent.goto(page_path(survey))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page).to_have_title(SPANISH_TITLE)
    assert_no_english(page.locator("main").inner_text())
    page.get_by_role("link", name="English").click()
    expect(page).to_have_url(f"{respondent.origin}{page_path(survey)}en/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Send my answers")).to_be_visible()
    respondent.assert_clean()
