"""Cheating detection in a real browser, on a phone-sized screen: the device
shows a group and an instruction, the respondent answers, and only
2 * group + answer is sent; the instruction never leaves the page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Survey
from tests.browser.helpers import page_path, radio, send_button, storage_key
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
TEXT = "Have you ever taken something from work without permission?"
SHOWN = re.compile(r"group (\d) and says: answer (Yes|truthfully)")
VISITS = 6
CDM_DESIGN = {"name": "cheating_detection", "p1": 0.3, "p2": 0.7}


@pytest.fixture
def cheating_survey(owner: Any) -> Survey:
    survey = survey_create(owner=owner, title="Work", consent="I agree to answer.")
    question_create(
        survey=survey,
        text=TEXT,
        kind="instructed",
        design=CDM_DESIGN,
        optional=True,
    )
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=True):
        return survey_publish(survey=survey, confirm_unbounded=True)


def answer_as_instructed(page: Any) -> tuple[int, str, int]:
    """Read the instruction and follow it as a non-carrier would."""
    line = page.locator(".instruction")
    expect(line).to_contain_text("Your device put you in group")
    group, said = SHOWN.search(line.inner_text()).groups()  # type: ignore[union-attr]
    answer = 1 if said == "Yes" else 0
    options = page.get_by_role("radiogroup", name=TEXT)
    radio(options, ["No", "Yes"][answer]).click()
    return int(group) - 1, said, answer


def test_the_sent_report_is_the_group_and_the_answer_never_the_instruction(
    visit,
    cheating_survey,
    axe_source,  # noqa: F811
):
    for index in range(VISITS):
        respondent = visit(**PHONE)
        page = respondent.page
        respondent.goto(page_path(cheating_survey))
        page.get_by_role("button", name="I agree").click()
        expect(page.get_by_text("a No is not protected").first).to_be_visible()
        if index == 0:
            assert violations(page, axe_source) == [], "respondent page"
        group, said, answer = answer_as_instructed(page)
        assert page.locator("#survey [name]").count() == 0
        send_button(page).click()
        expect(page.locator("#receipt")).to_be_visible()
        (post,) = respondent.posts
        (sent,) = post.json()["answers"]
        assert sent["report"] == 2 * group + answer
        assert "truthfully" not in post.post_data
        assert "instruct" not in post.post_data
        assert set(sent) == {"question", "report", "spec_version"}
        # Shown as sent as answered, and not kept: it is the respondent's answer.
        expect(page.locator("#receipt-plain-list li")).to_have_count(1)
        kept = json.loads(respondent.storage()["local"][storage_key(cheating_survey)])
        assert kept["answers"] == []
        assert said not in json.dumps(respondent.storage()["local"])
        if index == 0:
            assert violations(page, axe_source) == [], "receipt"
        respondent.assert_clean()
        respondent.close()
    reports = sorted(Answer.objects.values_list("report", flat=True))
    assert len(reports) == VISITS
    assert all(0 <= r < 4 for r in reports)


def test_a_reload_keeps_the_group_and_prefer_not_to_answer_sends_nothing(
    visit, cheating_survey
):
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(cheating_survey))
    page.get_by_role("button", name="I agree").click()
    first = SHOWN.search(page.locator(".instruction").inner_text())
    respondent.goto(page_path(cheating_survey))
    page.get_by_role("button", name="I agree").click()
    again = SHOWN.search(page.locator(".instruction").inner_text())
    assert first is not None
    assert again is not None
    assert first[1] == again[1]
    radio(page.get_by_role("radiogroup", name=TEXT), "Prefer not to answer").click()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (post,) = respondent.posts
    assert post.json()["answers"][0]["report"] is None
    assert Answer.objects.count() == 0
    respondent.assert_clean()


def test_the_builder_offers_the_two_designs_with_their_own_fields(visit, owner):
    from surveys.builder.services import survey_create
    from tests.browser.test_researcher import log_in, settled_preview

    survey = survey_create(owner=owner, title="Work")
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    page.get_by_role("link", name="Work").click()
    page.get_by_role("link", name="Add a question", exact=True).click()
    page.get_by_label("Question text").fill(TEXT)
    page.get_by_label("Yes / no with a device instruction").check()
    design = page.get_by_label("Design", exact=True)
    expect(design).to_have_value("cheating_detection")
    for label in ("Group 1 probability (p1)", "Group 2 probability (p2)"):
        expect(page.get_by_label(label)).to_be_visible()
    expect(page.get_by_label("Epsilon (ε)")).to_be_hidden()
    expect(page.get_by_label("Options (one per line)")).to_be_hidden()
    settled_preview(page, "A No, given as instructed")
    expect(page.locator("#design-preview")).to_contain_text("between pi and pi + gamma")
    design.select_option("lie_detector")
    settled_preview(page, "share of carriers who answer truthfully (t)")
    page.get_by_role("button", name="Add question").click()
    expect(page.get_by_role("heading", name="Work", exact=True)).to_be_visible()
    question = survey.questions.get()
    assert question.kind == "instructed"
    assert question.design == {
        "name": "lie_detector",
        "p1": 0.3,
        "p2": 0.7,
        "group_share": 0.5,
    }
    researcher.assert_clean()


def test_publishing_asks_to_confirm_that_respondents_will_be_told(
    visit,
    owner,
    settings,
    axe_source,  # noqa: F811
):
    """On a site that allows designs without a finite epsilon, the publish page
    asks for a ticked box, says why when it is not ticked, and has no
    accessibility violation in either state."""
    from surveys.builder.services import survey_create
    from tests.browser.test_researcher import log_in

    settings.ALLOW_UNBOUNDED_DESIGNS = True
    survey = survey_create(owner=owner, title="Work")
    question_create(survey=survey, text=TEXT, kind="instructed", design=CDM_DESIGN)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/publish/")
    box = page.get_by_label(re.compile("I confirm that respondents will be told"))
    expect(box).not_to_be_checked()
    assert violations(page, axe_source) == [], "publish confirmation"

    publish = page.get_by_role("button", name="Publish survey")
    publish.click()  # the box is required: the browser does not send the form
    expect(page.get_by_role("heading", name="Publish this survey?")).to_be_visible()
    survey.refresh_from_db()
    assert survey.is_draft

    # Sent without the box anyway (an old browser): the server says why.
    page.evaluate("document.getElementById('confirm-unbounded').required = false")
    publish.click()
    alert = page.locator("#confirm-unbounded-error")
    expect(alert).to_contain_text("Confirm that respondents will be told")
    expect(box).to_have_attribute("aria-describedby", "confirm-unbounded-error")
    assert violations(page, axe_source) == [], "publish confirmation, unticked"
    survey.refresh_from_db()
    assert survey.is_draft
    assert len(researcher.console_errors) == 1
    assert "status of 400" in researcher.console_errors.pop()

    box.check()
    publish.click()
    expect(page.get_by_text("Published. Respondents can answer")).to_be_visible()
    survey.refresh_from_db()
    assert survey.status == Survey.Status.OPEN
    researcher.assert_clean()


def test_by_default_the_publish_page_says_why_it_cannot_publish(
    visit,
    owner,
    axe_source,  # noqa: F811
):
    from surveys.builder.services import survey_create
    from tests.browser.test_researcher import log_in

    survey = survey_create(owner=owner, title="Work")
    question_create(survey=survey, text=TEXT, kind="instructed", design=CDM_DESIGN)
    researcher = visit()
    page = researcher.page
    log_in(researcher, owner)
    researcher.goto(f"/surveys/{survey.pk}/publish/")
    expect(page.get_by_role("alert")).to_contain_text(
        "this site does not allow designs without a finite epsilon"
    )
    expect(page.get_by_role("button", name="Publish survey")).to_have_count(0)
    assert violations(page, axe_source) == [], "publish page, refused"
    researcher.assert_clean()
