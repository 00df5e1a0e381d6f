"""The team key's life: making, replacing and removing the key pair (a draft
only, since a draft has no answers) and storing, re-wrapping or removing the
server's copy of the key file (any state: the key pair, and so every answer,
stays the same). Each change leaves one audit event with the fingerprints,
never the key file; a refused change leaves none."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.test import Client

from surveys.models import AuditEvent, FrozenDesignError, Survey, TeamKey
from surveys.sealing.services import (
    TeamKeyRefused,
    team_key_file_set,
    team_key_remove,
    team_key_set,
)
from surveys.team.audit_selectors import event_words
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
# 2G on P-256: another valid public key.
G2X = bytes.fromhex("7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978")
G2Y = bytes.fromhex("07775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1")


OTHER_JWK = {"kty": "EC", "crv": "P-256", "x": b64(G2X), "y": b64(G2Y)}
OTHER = hashlib.sha256(SPKI + b"\x04" + G2X + G2Y).hexdigest()


def key_events(survey):
    return [
        (e.actor_name, e.action, e.detail)
        for e in AuditEvent.objects.filter(
            survey=survey, action__startswith="team_key."
        ).order_by("at", "id")
    ]


def test_making_replacing_and_removing_the_key_are_each_recorded_once(owner):
    survey = sealed_survey(owner, publish=False)
    team_key_set(survey=survey, public_jwk=PUBLIC_JWK, actor=owner)
    team_key_set(
        survey=survey,
        public_jwk=OTHER_JWK,
        wrapped_private=key_file(OTHER, public_key=OTHER_JWK),
        actor=owner,
    )
    team_key_remove(survey=survey, actor=owner)
    assert not TeamKey.objects.filter(survey=survey).exists()
    assert key_events(survey) == [
        ("owner", "team_key.create", {"fingerprint": FINGERPRINT, "kept": False}),
        (
            "owner",
            "team_key.replace",
            {"fingerprint": OTHER, "kept": True, "replaced": FINGERPRINT},
        ),
        ("owner", "team_key.delete", {"fingerprint": OTHER}),
    ]


def test_the_key_file_copy_is_stored_rewrapped_and_removed_after_publishing(owner):
    survey = sealed_survey(owner)  # published, its key made without a copy
    first, second = key_file(FINGERPRINT), key_file(FINGERPRINT)
    team_key_file_set(survey=survey, wrapped_private=first, actor=owner)
    team_key_file_set(survey=survey, wrapped_private=second, actor=owner)
    assert TeamKey.objects.get(survey=survey).wrapped_private == second
    team_key_file_set(survey=survey, wrapped_private=None, actor=owner)
    key = TeamKey.objects.get(survey=survey)
    assert key.wrapped_private is None
    assert key.fingerprint == FINGERPRINT
    got = [(action, detail) for _actor, action, detail in key_events(survey)]
    assert got[-3:] == [
        ("team_key.file_store", {"fingerprint": FINGERPRINT}),
        ("team_key.file_replace", {"fingerprint": FINGERPRINT}),
        ("team_key.file_remove", {"fingerprint": FINGERPRINT}),
    ]
    words = [event_words(e) for e in AuditEvent.objects.filter(survey=survey)]
    assert any("new passphrase" in w and FINGERPRINT[:4] in w for w in words)


def test_a_refused_change_of_the_key_leaves_no_event(owner):
    survey = sealed_survey(owner)
    before = key_events(survey)
    with pytest.raises(TeamKeyRefused, match="cannot be replaced or removed"):
        team_key_set(survey=survey, public_jwk=OTHER_JWK, actor=owner)
    with pytest.raises(TeamKeyRefused, match="cannot be replaced or removed"):
        team_key_remove(survey=survey, actor=owner)
    with pytest.raises(TeamKeyRefused, match="another key"):
        team_key_file_set(
            survey=survey, wrapped_private=key_file(OTHER, public_key=OTHER_JWK)
        )
    with pytest.raises(TeamKeyRefused, match="no copy"):
        team_key_file_set(survey=survey, wrapped_private=None)
    assert key_events(survey) == before
    assert TeamKey.objects.get(survey=survey).fingerprint == FINGERPRINT


def test_the_key_page_stores_and_removes_the_copy_and_refuses_a_new_pair(client, owner):
    survey = sealed_survey(owner)
    client.force_login(owner)
    url = f"/surveys/{survey.pk}/team-key/"
    page = client.get(url).content.decode()
    assert 'id="rewrap-form"' in page
    assert 'id="team-key-form"' not in page
    blob = json.dumps(key_file(FINGERPRINT))
    saved = client.post(url, {"action": "key_file", "wrapped_private": blob})
    assert saved.status_code == 302
    assert TeamKey.objects.get(survey=survey).wrapped_private is not None
    unconfirmed = client.post(url, {"action": "key_file", "wrapped_private": ""})
    assert unconfirmed.status_code == 400
    assert (
        "keeps the key file and its passphrase elsewhere"
        in unconfirmed.content.decode()
    )
    assert TeamKey.objects.get(survey=survey).wrapped_private is not None
    removed = client.post(
        url, {"action": "key_file", "wrapped_private": "", "confirm": "yes"}
    )
    assert removed.status_code == 302
    assert TeamKey.objects.get(survey=survey).wrapped_private is None
    refused = client.post(url, {"action": "make", "public_key": json.dumps(OTHER_JWK)})
    assert refused.status_code == 400
    assert "copy the survey" in refused.content.decode()
    assert [a for _n, a, _d in key_events(survey)][-2:] == [
        "team_key.file_store",
        "team_key.file_remove",
    ]


def test_a_draft_never_has_answers_sealed_for_a_replaced_key(owner):
    """Why replacing the pair on a draft loses nothing: a survey with
    responses cannot become a draft again."""
    survey = sealed_survey(owner)
    assert post(Client(), survey, answers_for(survey, envelope())).status_code == 201
    survey.status = Survey.Status.DRAFT
    with pytest.raises(FrozenDesignError):
        survey.save()


def test_the_key_page_removes_a_drafts_key_and_refuses_an_unknown_action(client, owner):
    survey = sealed_survey(owner, publish=False)
    team_key_set(survey=survey, public_jwk=PUBLIC_JWK, actor=owner)
    client.force_login(owner)
    url = f"/surveys/{survey.pk}/team-key/"
    assert 'id="remove-key-form"' in client.get(url).content.decode()
    assert client.post(url, {"action": "rotate"}).status_code == 400
    unconfirmed = client.post(url, {"action": "remove"})
    assert unconfirmed.status_code == 400
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    assert TeamKey.objects.filter(survey=survey).exists()
    confirmed = {"action": "remove", "confirm": "yes"}
    assert client.post(url, confirmed).status_code == 302
    assert not TeamKey.objects.filter(survey=survey).exists()
    assert client.post(url, confirmed).status_code == 400
    assert [a for _n, a, _d in key_events(survey)] == [
        "team_key.create",
        "team_key.delete",
    ]
