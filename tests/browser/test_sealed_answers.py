"""Sealed open answers end to end in a real browser: the researcher makes the
team key (the passphrase and private key never sent), a respondent types a
distinctive text that appears in no request, no localStorage entry, no column
of the database and no server log, and the researcher's page opens it to the
exact text with the key file and passphrase; a wrong passphrase is said
plainly, and an envelope altered on the server is shown as altered, not
dropped. The crypto itself is tested in tests/js/sealed.test.mjs."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.sections import section_create, section_set_questions
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, AuditEvent, Question, Survey, TeamKey
from surveys.sealing.services import team_key_set
from tests.browser.helpers import choose, page_path, send_button
from tests.browser.test_accessibility import axe_source, violations
from tests.browser.test_team import log_in
from tests.surveys.sealed.data import PUBLIC_JWK, answers_for, key_file, sealed_survey
from tests.surveys.sealed.test_team_key import FINGERPRINT
from tests.surveys.typed.data import post

__all__ = ["axe_source"]  # the fixture, shared with test_accessibility

SECRET = "Zebra-quartz 7731: the night shift lead — ñandú"
PASSPHRASE = "violet harbour seventeen lanterns"
ALTERED = "This answer was altered after it was sent and cannot be read."


@pytest.fixture
def survey(owner: Any) -> Survey:
    owner.set_password("team-pass-1234")
    owner.save()
    return sealed_survey(owner, publish=False, limit=120)


def columns_holding(text: str) -> list[str]:
    """Every column of every table of the database whose value holds ``text``
    (as text, JSON or bytes)."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN "
            "('text', 'character varying', 'json', 'jsonb', 'bytea')"
        )
        for table, column, kind in cursor.fetchall():
            if kind == "bytea":
                where = f"position(convert_to(%s, 'UTF8') in \"{column}\") > 0"
            else:
                where = f'strpos("{column}"::text, %s) > 0'
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE {where}', [text])  # nosec B608
            if cursor.fetchone()[0]:
                found.append(f"{table}.{column}")
    return found


def test_a_sealed_answer_is_read_only_in_the_teams_browser(
    visit, survey, owner, tmp_path: Path, caplog, capfd, axe_source
):
    caplog.set_level(logging.DEBUG)
    # The researcher makes the team key in the browser.
    researcher = log_in(visit, "owner")
    page = researcher.page
    researcher.goto(f"/surveys/{survey.pk}/team-key/")
    expect(page.locator("#key-loss-warning")).to_contain_text(
        "If the passphrase is lost, every sealed answer is lost."
    )
    page.get_by_label("Passphrase (at least 12 characters)").fill(PASSPHRASE)
    page.get_by_label("The passphrase again").fill(PASSPHRASE)
    page.locator("#keep-wrapped").check()
    assert violations(page, axe_source) == [], "the team key page"
    with page.expect_download() as download:
        page.get_by_role(
            "button", name="Make the key and download the key file"
        ).click()
    key_path = tmp_path / "team-key.json"
    download.value.save_as(key_path)
    key_file = json.loads(key_path.read_text())
    assert key_file["kdf"] == {
        "name": "PBKDF2",
        "hash": "SHA-256",
        "iterations": 600000,
    }
    assert "d" not in key_file["public_key"]
    page.get_by_role("button", name="Save the public key").click()
    expect(page.locator("#key-fingerprint")).to_be_visible()
    key = TeamKey.objects.get(survey=survey)
    assert key.fingerprint == key_file["fingerprint"]
    assert key.wrapped_private == key_file
    survey_publish(survey=survey)

    # A respondent answers in their own words.
    yes_no, sealed = survey.questions.all()
    respondent = visit()
    respondent.goto(page_path(survey))
    rpage = respondent.page
    expect(rpage.locator(f"#q{sealed.pk}-how")).to_contain_text(
        "The people who run this website cannot read it"
    )
    assert violations(rpage, axe_source) == [], "a sealed question"
    choose(rpage, yes_no, "Yes")
    rpage.get_by_label("Your answer, in your own words").fill(SECRET)
    send_button(rpage).click()
    expect(rpage.locator("#receipt")).to_be_visible()
    expect(rpage.locator("#receipt")).to_contain_text(
        "Sealed (encrypted for the research team)"
    )
    (posted,) = respondent.posts
    sent = {a["question"]: a for a in posted.json()["answers"]}
    assert sent[sealed.pk]["value"].startswith("v1.")
    stored = Answer.objects.get(question=sealed).text
    assert stored == sent[sealed.pk]["value"]

    # The text is in no request, no storage, no column and no log.
    for visitor in (respondent, researcher):
        for request in visitor.requests:
            assert SECRET not in (request.post_data or ""), request.url
            assert SECRET not in request.url
            assert PASSPHRASE not in (request.post_data or ""), request.url
    assert SECRET not in json.dumps(respondent.storage())
    assert columns_holding(SECRET) == []
    assert columns_holding(PASSPHRASE) == []
    assert columns_holding("Zebra-quartz") == []
    logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records)
    out, err = capfd.readouterr()
    for text in (logged, out, err):
        assert "Zebra-quartz" not in text
        assert PASSPHRASE not in text

    # An envelope altered on the server: another response holds a copy of
    # the first with one character of its ciphertext changed.
    parts = stored.split(".")
    middle = len(parts[4]) // 2
    parts[4] = (
        parts[4][:middle]
        + ("A" if parts[4][middle] != "A" else "B")
        + parts[4][middle + 1 :]
    )
    reply = post(Client(), survey, answers_for(survey, ".".join(parts)))
    assert reply.status_code == 201, reply.content

    # The researcher opens them: a wrong passphrase first, then the right one.
    researcher.goto(f"/surveys/{survey.pk}/questions/{sealed.pk}/sealed/")
    page.get_by_label("Passphrase").fill("not the passphrase at all")
    page.get_by_role("button", name="Open the answers").click()
    expect(page.locator("#open-status")).to_have_text(
        "The passphrase does not open this key."
    )
    expect(page.locator("#sealed-table")).to_be_hidden()
    page.get_by_label("A key file on this computer").check()
    page.get_by_label("The team's key file").set_input_files(str(key_path))
    page.get_by_label("Passphrase").fill(PASSPHRASE)
    page.get_by_role("button", name="Open the answers").click()
    expect(page.locator("#open-status")).to_have_text(
        "1 of 2 answers opened; 1 could not be read."
    )
    cells = page.locator("#sealed-table tbody tr td:nth-child(2)")
    # Listed by response number, and response numbers follow no arrival order.
    assert sorted(cells.all_inner_texts()) == sorted([SECRET, ALTERED])
    assert violations(page, axe_source) == [], "the sealed answers, opened"
    with page.expect_download() as csv_download:
        page.get_by_role(
            "button", name="Download as CSV (made in your browser)"
        ).click()
    csv_path = tmp_path / "answers.csv"
    csv_download.value.save_as(csv_path)
    assert SECRET in csv_path.read_text(encoding="utf-8")
    # The server-kept key file opens them too, with the passphrase.
    page.get_by_label("The key file kept on this server").check()
    page.get_by_label("Passphrase").fill(PASSPHRASE)
    page.locator("#open-status").evaluate("node => { node.textContent = ''; }")
    page.get_by_role("button", name="Open the answers").click()
    expect(page.locator("#open-status")).to_have_text(
        "1 of 2 answers opened; 1 could not be read."
    )
    assert sorted(cells.all_inner_texts()) == sorted([SECRET, ALTERED])
    for request in researcher.requests:
        assert SECRET not in (request.post_data or "")
        assert PASSPHRASE not in (request.post_data or "")


def test_a_page_left_keeps_only_the_envelope_on_the_device(visit, owner):
    """On a survey of several pages the answer is sealed when its page is
    left: the progress kept across a reload, and then the submission, hold
    the envelope and never the text."""
    draft = sealed_survey(owner, publish=False)
    yes_no, sealed = draft.questions.all()
    section_create(survey=draft, title="First")
    second = section_create(survey=draft, title="Second")
    section_set_questions(section=second, questions=[sealed.pk])
    team_key_set(survey=draft, public_jwk=PUBLIC_JWK)
    survey = survey_publish(survey=draft)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    choose(page, yes_no, "Yes")
    page.get_by_role("button", name="Next", exact=True).click()
    page.get_by_label("Your answer, in your own words").fill(SECRET)
    page.get_by_role("button", name="Back", exact=True).click()
    expect(page.locator("#progress-text")).to_have_text("Page 1 of 2")
    kept = json.loads(respondent.storage()["local"][f"rr-progress:{survey.slug}"])
    assert kept["answers"][str(sealed.pk)]["value"].startswith("v1.")
    assert SECRET not in json.dumps(respondent.storage())
    page.reload()
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.locator(f"#q{sealed.pk}-answered")).to_be_visible()
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (posted,) = respondent.posts
    sent = {a["question"]: a for a in posted.json()["answers"]}
    assert sent[sealed.pk]["value"] == kept["answers"][str(sealed.pk)]["value"]
    assert all(SECRET not in (r.post_data or "") for r in respondent.requests)
    assert SECRET not in json.dumps(respondent.storage())
    assert Answer.objects.get(question=sealed).text == sent[sealed.pk]["value"]


@pytest.mark.parametrize("free_text_first", [True, False])
def test_free_text_beside_a_sealed_answer_never_reads_its_box(
    visit, owner, free_text_first
):
    """Free text's boxes and a sealed answer's share a class: each kind reads
    only its own questions' boxes, so the sealed words are sent sealed (and
    the free text as typed) whichever kind the page loads first."""
    draft = survey_create(owner=owner, title="Conduct at work")

    def free_text() -> Question:
        return question_create(
            survey=draft,
            text="Anything else you would like to add?",
            kind="free_text",
            design={"name": "direct"},
            answer_format={"max_length": 200},
            optional=True,
        )

    free = free_text() if free_text_first else None
    sealed = question_create(
        survey=draft,
        text="What happened, in your own words?",
        kind="sealed_text",
        design={"name": "direct"},
        answer_format={"max_length": 200},
        optional=True,
    )
    free = free or free_text()
    team_key_set(survey=draft, public_jwk=PUBLIC_JWK)
    survey = survey_publish(survey=draft)
    respondent = visit()
    page = respondent.page
    respondent.goto(page_path(survey))
    page.locator(f'.sealed-answer[data-question="{sealed.pk}"] textarea').fill(SECRET)
    page.locator(f'[data-question="{free.pk}"] textarea').fill("plain words")
    send_button(page).click()
    expect(page.locator("#receipt")).to_be_visible()
    (posted,) = respondent.posts
    sent = {a["question"]: a for a in posted.json()["answers"]}
    assert sent[sealed.pk]["value"].startswith("v1.")
    assert sent[free.pk]["value"] == "plain words"
    assert all(SECRET not in (r.post_data or "") for r in respondent.requests)


def test_the_passphrase_changes_in_the_browser_and_every_answer_still_opens(
    visit, survey, owner, tmp_path: Path, axe_source
):
    """After publishing, the researcher's browser re-wraps the same key under
    a new passphrase (neither passphrase sent) and replaces the server's
    copy: the fingerprint is unchanged, the answer already given opens with
    the new passphrase and no longer with the old one, and the change is one
    audit event."""
    researcher = log_in(visit, "owner")
    page = researcher.page
    researcher.goto(f"/surveys/{survey.pk}/team-key/")
    page.get_by_label("Passphrase (at least 12 characters)").fill(PASSPHRASE)
    page.get_by_label("The passphrase again").fill(PASSPHRASE)
    page.locator("#keep-wrapped").check()
    with page.expect_download():
        page.get_by_role(
            "button", name="Make the key and download the key file"
        ).click()
    page.get_by_role("button", name="Save the public key").click()
    expect(page.locator("#key-fingerprint")).to_be_visible()
    survey_publish(survey=survey)
    before = TeamKey.objects.get(survey=survey)
    yes_no, sealed = survey.questions.all()
    respondent = visit()
    respondent.goto(page_path(survey))
    choose(respondent.page, yes_no, "No")
    respondent.page.get_by_label("Your answer, in your own words").fill(SECRET)
    send_button(respondent.page).click()
    expect(respondent.page.locator("#receipt")).to_be_visible()

    new = "indigo meadow forty quiet bells"
    researcher.goto(f"/surveys/{survey.pk}/team-key/")
    expect(page.locator("#team-key-form")).to_have_count(0)
    assert violations(page, axe_source) == [], "the passphrase form"
    page.get_by_label("The current passphrase").fill(PASSPHRASE)
    page.get_by_label("The new passphrase (at least 12 characters)").fill(new)
    page.get_by_label("The new passphrase again").fill(new)
    with page.expect_download() as download:
        page.get_by_role("button", name="Make the new key file and download it").click()
    rewrapped_path = tmp_path / "team-key-new.json"
    download.value.save_as(rewrapped_path)
    rewrapped = json.loads(rewrapped_path.read_text())
    page.get_by_role("button", name="Save the new key file on this server").click()
    expect(page.locator("#key-fingerprint")).to_be_visible()
    after = TeamKey.objects.get(survey=survey)
    assert after.fingerprint == before.fingerprint == rewrapped["fingerprint"]
    assert after.public_jwk == before.public_jwk
    assert after.wrapped_private == rewrapped
    assert rewrapped["salt"] != before.wrapped_private["salt"]
    assert (
        AuditEvent.objects.filter(survey=survey, action="team_key.file_replace").count()
        == 1
    )

    researcher.goto(f"/surveys/{survey.pk}/questions/{sealed.pk}/sealed/")
    page.get_by_label("Passphrase").fill(PASSPHRASE)
    page.get_by_role("button", name="Open the answers").click()
    expect(page.locator("#open-status")).to_have_text(
        "The passphrase does not open this key."
    )
    page.get_by_label("Passphrase").fill(new)
    page.get_by_role("button", name="Open the answers").click()
    expect(page.locator("#open-status")).to_have_text(
        "1 of 1 answers opened; 0 could not be read."
    )
    cells = page.locator("#sealed-table tbody tr td:nth-child(2)")
    assert cells.all_inner_texts() == [SECRET]
    for request in researcher.requests:
        for secret in (PASSPHRASE, new, SECRET):
            assert secret not in (request.post_data or ""), request.url


def test_removing_the_key_file_copy_or_the_key_asks_for_a_tick_first(
    visit, survey, owner, axe_source
):
    """Nothing brings back what these two buttons delete, so each asks the
    editor to tick that they mean it: without the tick the browser does not
    send the form and the copy and the key stay; with it, each is removed."""
    team_key_set(
        survey=survey,
        public_jwk=PUBLIC_JWK,
        wrapped_private=key_file(FINGERPRINT),
        actor=owner,
    )
    researcher = log_in(visit, "owner")
    page = researcher.page
    researcher.goto(f"/surveys/{survey.pk}/team-key/")
    assert violations(page, axe_source) == [], "the key page with its removals"
    forget = page.get_by_role("button", name="Remove the server's copy of the key file")
    forget.click()
    assert (
        page.locator("#confirm-forget-file").evaluate("box => box.validity.valid")
        is False
    )
    assert TeamKey.objects.get(survey=survey).wrapped_private is not None
    page.get_by_label(
        "Our team keeps the key file and its passphrase elsewhere"
    ).check()
    forget.click()
    expect(
        page.get_by_text("The server's copy of the key file is removed.")
    ).to_be_visible()
    assert TeamKey.objects.get(survey=survey).wrapped_private is None

    remove = page.get_by_role("button", name="Remove the team key")
    remove.click()
    assert TeamKey.objects.filter(survey=survey).exists()
    page.get_by_label(
        "Remove this key: a survey with sealed questions then needs"
    ).check()
    remove.click()
    expect(page.get_by_text("The team key is removed.")).to_be_visible()
    assert not TeamKey.objects.filter(survey=survey).exists()
