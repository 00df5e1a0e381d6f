"""Sealed open answers on the server: an envelope of the browser's form is
stored as sent and nothing else is; anything else (plain text, a wrong
version, bad base64url, a point off the curve, a ciphertext too long for the
limit) is a 400 naming the question and what is wrong. The team key is
checked by form (its fingerprint computed here), set only while a draft and
needed to publish; the envelopes are read by analysts and above only; the
exports carry them as an opaque string, said to be encrypted."""

from __future__ import annotations

import hashlib
import json

import pyreadstat
import pytest

from surveys.builder.services import SurveyStateError, survey_publish
from surveys.models import Answer, Membership, Role, TeamKey
from surveys.results import stat_files
from surveys.results.bundle_scripts import r_script
from surveys.results.codebook import codebook, layout
from surveys.sealing.envelope import (
    FormRefused,
    check_envelope,
    most_ciphertext,
    public_key,
    wrapped_key,
)
from surveys.sealing.services import TeamKeyRefused, team_key_set
from tests.surveys.sealed.data import (
    GX,
    GY,
    PUBLIC_JWK,
    answers_for,
    b64,
    envelope,
    key_file,
    sealed_survey,
)
from tests.surveys.typed.data import post

pytestmark = pytest.mark.django_db

SPKI = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200")
FINGERPRINT = hashlib.sha256(SPKI + b"\x04" + GX + GY).hexdigest()


@pytest.fixture
def survey(owner):
    return sealed_survey(owner)


def sealed_of(survey):
    return survey.questions.get(kind="sealed_text")


def test_an_envelope_is_stored_exactly_as_sent(client, survey):
    sent = envelope()
    reply = post(client, survey, answers_for(survey, sent))
    assert reply.status_code == 201, reply.content
    answer = Answer.objects.get(question=sealed_of(survey))
    assert answer.text == sent
    assert answer.report == 0


def test_a_sealed_answer_left_out_stores_nothing(client, survey):
    reply = post(client, survey, answers_for(survey, None))
    assert reply.status_code == 201, reply.content
    assert not Answer.objects.filter(question=sealed_of(survey), text__isnull=False)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("I was harassed by my manager", "v1 and four base64url parts"),
        (42, "must be a sealed envelope"),
        (envelope().replace("v1.", "v2.", 1), "v1 and four base64url parts"),
        (envelope() + ".extra", "v1 and four base64url parts"),
        (envelope().replace(".", ".+", 1), "must be base64url text"),
        (envelope(point=b"\x04" + GX + GX), "not a P-256 point"),
        (envelope(point=b"\x04" + GX), "must be 65 bytes"),
        (envelope(body=63), "multiple of 64 bytes"),
        (envelope(body=0), "multiple of 64 bytes"),
        (envelope(body=512), "at most"),
    ],
)
def test_anything_but_an_envelope_that_fits_is_refused(client, survey, value, problem):
    question = sealed_of(survey)
    reply = post(client, survey, answers_for(survey, value))
    assert reply.status_code == 400, reply.content
    error = reply.json()["error"]
    assert f"question {question.pk}" in error
    assert "takes only a sealed answer" in error
    assert problem in error
    assert not Answer.objects.filter(question=question).exists()


def test_the_size_allowed_follows_the_limit():
    # 100 characters of at most 4 bytes: 400 bytes, padded to 448, plus the tag.
    assert most_ciphertext(100) == 448 + 16
    check_envelope(envelope(body=448), max_length=100)
    with pytest.raises(FormRefused):
        check_envelope(envelope(body=512), max_length=100)
    with pytest.raises(FormRefused, match="characters"):
        check_envelope("v1." + "A" * 5000, max_length=100)


def test_the_fingerprint_is_sha256_of_the_spki():
    kept, fingerprint = public_key({**PUBLIC_JWK, "ext": True, "key_ops": []})
    assert kept == PUBLIC_JWK
    assert fingerprint == FINGERPRINT


@pytest.mark.parametrize(
    ("jwk", "problem"),
    [
        ("not a key", "JWK object"),
        ({**PUBLIC_JWK, "crv": "P-384"}, "P-256"),
        ({**PUBLIC_JWK, "d": b64(b"1" * 32)}, "private key"),
        ({**PUBLIC_JWK, "y": b64(GX)}, "not a P-256 point"),
        ({**PUBLIC_JWK, "x": b64(GX[:16])}, "32 bytes"),
    ],
)
def test_a_public_key_of_the_wrong_form_is_refused(jwk, problem):
    with pytest.raises(FormRefused, match=problem):
        public_key(jwk)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"kdf": {"name": "PBKDF2", "hash": "SHA-256", "iterations": 1000}}, "600000"),
        (
            {"kdf": {"name": "scrypt", "hash": "SHA-256", "iterations": 600_000}},
            "PBKDF2",
        ),
        ({"salt": b64(b"1" * 8)}, "16 bytes"),
        ({"iv": "!!"}, "base64url"),
        ({"ciphertext": b64(b"1" * 4000)}, "bytes, got"),
        ({"fingerprint": "0" * 64}, "another key"),
        ({"passphrase": "hunter2"}, "unknown: passphrase"),
        ({"version": 2}, "version 1"),
    ],
)
def test_a_key_file_of_the_wrong_form_is_refused(changes, problem):
    with pytest.raises(FormRefused, match=problem):
        wrapped_key(key_file(FINGERPRINT, **changes), fingerprint=FINGERPRINT)


def test_the_team_key_is_set_while_a_draft_and_frozen_once_published(owner):
    survey = sealed_survey(owner, publish=False)
    with pytest.raises(SurveyStateError, match="team key"):
        survey_publish(survey=survey)
    blob = key_file(FINGERPRINT)
    key = team_key_set(survey=survey, public_jwk=PUBLIC_JWK, wrapped_private=blob)
    assert key.fingerprint == FINGERPRINT
    assert key.wrapped_private == blob
    survey_publish(survey=survey)
    with pytest.raises(TeamKeyRefused, match="cannot be replaced"):
        team_key_set(survey=survey, public_jwk=PUBLIC_JWK)


def test_the_team_key_page_saves_a_key_and_refuses_a_bad_one(client, owner):
    survey = sealed_survey(owner, publish=False)
    client.force_login(owner)
    url = f"/surveys/{survey.pk}/team-key/"
    page = client.get(url).content.decode()
    assert "If the passphrase is lost, every sealed answer is lost." in page
    bad = client.post(url, {"public_key": json.dumps({**PUBLIC_JWK, "y": b64(GX)})})
    assert bad.status_code == 400
    assert "not a P-256 point" in bad.content.decode()
    assert not TeamKey.objects.filter(survey=survey).exists()
    assert client.post(url, {"public_key": "{"}).status_code == 400
    saved = client.post(
        url,
        {
            "public_key": json.dumps(PUBLIC_JWK),
            "wrapped_private": json.dumps(key_file(FINGERPRINT)),
        },
    )
    assert saved.status_code == 302
    shown = client.get(url).content.decode()
    assert FINGERPRINT[:4] + " " + FINGERPRINT[4:8] in shown
    assert "also kept on this server" in shown


def test_the_fingerprint_is_on_the_transparency_page(client, survey):
    page = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert FINGERPRINT[:4] + " " + FINGERPRINT[4:8] in page
    respondent = client.get(f"/s/{survey.slug}/").content.decode()
    assert "js/kinds/sealed/page.js" in respondent
    assert "The people who run this website cannot read it" in respondent


@pytest.mark.parametrize(
    ("role", "status"),
    [(Role.VIEWER, 403), (Role.ANALYST, 200), (Role.EDITOR, 200), (None, 404)],
)
def test_only_analysts_and_above_read_the_envelopes(
    client, survey, django_user_model, role, status
):
    sent = envelope()
    post(client, survey, answers_for(survey, sent))
    reader = django_user_model.objects.create_user("reader", password="x")
    if role is not None:
        Membership.objects.create(survey=survey, user=reader, role=role)
    client.force_login(reader)
    reply = client.get(f"/surveys/{survey.pk}/questions/{sealed_of(survey).pk}/sealed/")
    assert reply.status_code == status
    assert (sent in reply.content.decode()) == (status == 200)


def test_a_question_not_sealed_has_no_sealed_page(client, owner, survey):
    client.force_login(owner)
    yes_no = survey.questions.get(kind="yes_no")
    reply = client.get(f"/surveys/{survey.pk}/questions/{yes_no.pk}/sealed/")
    assert reply.status_code == 400


def test_the_exports_carry_the_envelope_as_an_opaque_column(client, owner, survey):
    sent = envelope()
    post(client, survey, answers_for(survey, sent))
    client.force_login(owner)
    reply = client.get(f"/surveys/{survey.pk}/export/answers.csv")
    csv = b"".join(reply.streaming_content).decode()
    assert sent in csv
    book = codebook(survey)
    entry = book["questions"][1]
    assert entry["text_answer"]["encrypted"] is True
    assert "ENCRYPTED" in entry["text_answer"]["note"]
    assert entry["estimated"] is False
    column = next(c for c in layout(survey)["columns"] if c["name"] == "q2")
    assert "sealed envelope" in column["meaning"]
    assert "q2: sealed open answer" in r_script(book, {"run": None, "questions": []})


def test_it_is_never_a_stratum(survey):
    assert not sealed_of(survey).in_strata


def test_the_builder_shows_the_fingerprint_and_what_a_lost_passphrase_loses(
    client, owner
):
    survey = sealed_survey(owner, publish=False)
    client.force_login(owner)
    detail = client.get(f"/surveys/{survey.pk}/").content.decode()
    assert "none yet: needed before publishing" in detail
    sealed = sealed_of(survey)
    edit = client.get(f"/surveys/{survey.pk}/questions/{sealed.pk}/edit/")
    assert "If the passphrase is lost, every answer to this question is lost" in (
        edit.content.decode()
    )
    team_key_set(survey=survey, public_jwk=PUBLIC_JWK)
    detail = client.get(f"/surveys/{survey.pk}/").content.decode()
    assert FINGERPRINT[:4] + " " + FINGERPRINT[4:8] in detail


def test_spss_holds_the_envelope_and_says_it_is_sealed(client, survey, tmp_path):
    sent = envelope()
    post(client, survey, answers_for(survey, sent))
    path = tmp_path / "answers.sav"
    path.write_bytes(b"".join(stat_files.answers_file(survey, "sav")))
    frame, meta = pyreadstat.read_sav(str(path))
    assert frame["q2"].tolist() == [sent]
    assert any("q2 = question 2: sealed open answer" in note for note in meta.notes)
    assert not any("free text as typed" in note for note in meta.notes)
