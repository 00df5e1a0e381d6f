"""The ledger's set of digests, completion links and imported identifiers."""

import itertools

import pytest
from django.core.exceptions import ValidationError

from surveys.access.ledger import digests_of, ledger_contains, ledger_insert
from surveys.access.services import (
    access_digest,
    completion_link,
    invitation_labels_from_csv,
)
from surveys.models import Survey


def test_the_set_is_the_same_bytes_whatever_the_order_of_use():
    digests = [access_digest(survey_id=1, value=f"person-{i}") for i in range(5)]
    results = set()
    for order in itertools.permutations(digests):
        used = b""
        for digest in order:
            used = ledger_insert(used, digest)
        results.add(used)
    assert results == {b"".join(sorted(digests))}


def test_membership_is_exact():
    used = b""
    inside = [access_digest(survey_id=1, value=str(i)) for i in range(50)]
    for digest in inside:
        used = ledger_insert(used, digest)
    assert all(ledger_contains(used, d) for d in inside)
    assert not ledger_contains(used, access_digest(survey_id=1, value="50"))
    assert len(digests_of(used)) == 50


def test_a_digest_depends_on_the_survey_and_the_secret_key(settings):
    one = access_digest(survey_id=1, value="p")
    assert len(one) == 16
    assert access_digest(survey_id=2, value="p") != one
    settings.SECRET_KEY = "another key, another set"
    assert access_digest(survey_id=1, value="p") != one


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://p.example/c?cc={code}", "https://p.example/c?cc=AB%2012"),
        ("https://p.example/c", "https://p.example/c?cc=AB+12"),
        ("https://p.example/c?x=1", "https://p.example/c?x=1&cc=AB+12"),
    ],
)
def test_the_completion_link_carries_the_code(url, expected):
    survey = Survey(completion_url=url, completion_code="AB 12")
    assert completion_link(survey) == expected


def test_identifiers_come_from_the_first_column_without_the_header():
    data = b"label,email\nalice,a@example.org\n\n bob ,b@example.org\n"
    assert invitation_labels_from_csv(data) == ["alice", "bob"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe\x00a", "not UTF-8"),
        (b"label\n", "no identifiers"),
        (b"alice\n,b\n", "empty first column"),
    ],
)
def test_a_bad_csv_is_explained(data, message):
    with pytest.raises(ValidationError, match=message):
        invitation_labels_from_csv(data)
