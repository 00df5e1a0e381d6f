"""The ledger's layout: a pool of recent digests and a fixed number of buckets
chosen by the keyed digest, each a sorted set; a submission rewrites the pool,
and one in ``POOL`` moves ``POOL`` random digests to their buckets
(docs/methodology.md, "Invitations, panels and quotas")."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from surveys.access.ledger import (
    BUCKETS,
    POOL,
    bucket_of,
    buckets_merge,
    buckets_split,
    digests_of,
    ledger_add,
    ledger_has,
    ledger_used,
)
from surveys.access.services import access_digest
from surveys.models import AccessBucket, AccessLedger
from tests.surveys.access.conftest import body, post

pytestmark = pytest.mark.django_db


def digests(n: int, seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(16) for _ in range(n)]


def test_a_digest_falls_in_the_bucket_of_its_first_bits():
    assert BUCKETS == AccessBucket.BUCKETS == 2**AccessBucket.BITS
    assert bucket_of(b"\x00" * 16) == 0
    assert bucket_of(b"\xff" * 16) == BUCKETS - 1
    assert {bucket_of(d) for d in digests(150_000)} == set(range(BUCKETS))


def test_the_buckets_in_their_order_are_the_whole_set_sorted():
    some = digests(3_000)
    split = buckets_split(some + some[:10])  # a digest twice is there once
    assert len(split) <= BUCKETS
    joined = b"".join(split[bucket] for bucket in sorted(split))
    assert digests_of(joined) == sorted(some)
    for bucket, used in split.items():
        chunks = digests_of(used)
        assert chunks == sorted(chunks)
        assert {bucket_of(d) for d in chunks} == {bucket}


def test_the_number_of_buckets_stays_fixed_as_the_set_grows(panel_survey):
    for chunk in range(3):
        some = digests(BUCKETS, seed=chunk)
        buckets_merge(survey_id=panel_survey.pk, digests=some)
    rows = AccessBucket.objects.filter(survey=panel_survey)
    assert rows.count() <= BUCKETS
    assert max(rows.values_list("bucket", flat=True)) < BUCKETS
    assert len(ledger_used(panel_survey.pk)) == 3 * BUCKETS


def test_each_bucket_at_rest_is_a_sorted_set_whatever_the_order_of_use(owner):
    """Two surveys given the same digests in different orders store the same
    bytes in every bucket."""
    from surveys.builder.services import survey_create

    one, other = (survey_create(owner=owner, title=t) for t in ("One", "Other"))
    some = digests(2_000)
    shuffled = some[:]
    random.Random(3).shuffle(shuffled)
    for survey, order in ((one, some), (other, shuffled)):
        for start in range(0, len(order), 100):
            buckets_merge(survey_id=survey.pk, digests=order[start : start + 100])
    first, second = (
        list(
            AccessBucket.objects.filter(survey=survey)
            .order_by("bucket")
            .values_list("bucket", "used")
        )
        for survey in (one, other)
    )
    assert [(b, bytes(u)) for b, u in first] == [(b, bytes(u)) for b, u in second]
    assert [(b, bytes(u)) for b, u in first] == sorted(buckets_split(some).items())


def test_membership_reads_the_pool_and_one_bucket(
    panel_survey, django_assert_num_queries
):
    inside = digests(500)
    buckets_merge(survey_id=panel_survey.pk, digests=inside[:400])
    AccessLedger.objects.create(
        survey=panel_survey, pending=b"".join(sorted(inside[400:]))
    )
    with django_assert_num_queries(2):
        assert ledger_has(survey_id=panel_survey.pk, digest=inside[123])
    with django_assert_num_queries(0):
        assert ledger_has(
            survey_id=panel_survey.pk,
            digest=inside[450],
            pending=b"".join(sorted(inside[400:])),
        )
    assert all(ledger_has(survey_id=panel_survey.pk, digest=d) for d in inside)
    outside = digests(50, seed=8)
    assert not any(ledger_has(survey_id=panel_survey.pk, digest=d) for d in outside)
    assert ledger_used(panel_survey.pk) == set(inside)


def test_the_pool_moves_half_of_itself_to_the_buckets_when_full(panel_survey):
    """Below ``2 * POOL`` digests every one stays in the pool, a sorted set;
    then ``POOL`` of them move at once, so the pool never holds fewer than
    ``POOL`` again."""
    ledger = AccessLedger.objects.create(survey=panel_survey)
    some = digests(5 * POOL)
    for index, digest in enumerate(some, start=1):
        ledger_add(ledger=ledger, digest=digest)
        pending = digests_of(bytes(ledger.pending))
        assert pending == sorted(pending)
        assert len(pending) == index if index < 2 * POOL else POOL <= len(pending)
        assert len(pending) < 2 * POOL
        ledger.save(update_fields=["pending"])
        assert len(ledger_used(panel_survey.pk)) == index
        if index == 2 * POOL - 1:
            assert not AccessBucket.objects.filter(survey=panel_survey).exists()
        if index == 2 * POOL:
            moved = {
                d
                for used in AccessBucket.objects.values_list("used", flat=True)
                for d in digests_of(bytes(used))
            }
            assert len(moved) == POOL
            assert moved.isdisjoint(pending)
    assert ledger_used(panel_survey.pk) == set(some)


def test_a_submission_before_the_pool_fills_writes_no_bucket(client, panel_survey):
    for participant in ("p-1", "p-2", "p-3"):
        reply = post(client, panel_survey, body(panel_survey, participant=participant))
        assert reply.status_code == 201
    assert not AccessBucket.objects.filter(survey=panel_survey).exists()
    pending = digests_of(bytes(AccessLedger.objects.get(survey=panel_survey).pending))
    assert pending == sorted(
        access_digest(survey_id=panel_survey.pk, value=p) for p in ("p-1", "p-2", "p-3")
    )
    reply = post(client, panel_survey, body(panel_survey, participant="p-2"))
    assert reply.status_code == 409


@pytest.mark.django_db(transaction=True)
def test_the_migration_carries_every_used_id_into_its_bucket(panel_survey):
    """The sorted set of one row, as 0026 kept it, becomes the buckets with
    the same digests; and back."""
    previous = [("surveys", "0026_account_preference")]
    executor = MigrationExecutor(connection)
    # Back to the newest migrations, not to 0027: a later migration's tables
    # must exist again for every test that runs after this one.
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(previous)
    try:
        old = executor.loader.project_state(previous).apps
        used = sorted(digests(2_500))
        old.get_model("surveys", "AccessLedger").objects.create(
            survey_id=panel_survey.pk, used=b"".join(used), count=2_500
        )
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert sorted(ledger_used(panel_survey.pk)) == used
    stored = dict(
        AccessBucket.objects.filter(survey=panel_survey).values_list("bucket", "used")
    )
    assert {b: bytes(u) for b, u in stored.items()} == buckets_split(used)
    assert all(ledger_has(survey_id=panel_survey.pk, digest=d) for d in used[::97])
