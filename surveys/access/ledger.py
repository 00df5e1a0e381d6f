"""The set of credentials a survey has counted, as the ledger stores it: a
pool of recent digests on the ledger's row, and a fixed number of buckets
chosen by the digest's first bits; the pool and each bucket a sorted set of
16-byte keyed digests.

A digest is keyed with the secret key (``services.access_digest``), so which
bucket an invitation or participant id falls in cannot be told without the
key. A submission rewrites the pool (at most ``2 * POOL`` digests, on the row
it rewrites anyway for the count), and one in ``POOL`` also moves ``POOL``
random digests from the pool to their buckets: the cost depends on the pool's
size and a bucket's, about the number used over ``BUCKETS``, not on the whole
set's. Sorted, the bytes depend only on which digests are held, never on the
order they came in; docs/methodology.md ("Invitations, panels and quotas")
says what the rewrites reveal, and to whom.
"""

from __future__ import annotations

import bisect
import secrets

from surveys.access.models import AccessBucket
from surveys.models import AccessLedger

DIGEST = AccessLedger.DIGEST_BYTES
BUCKETS = AccessBucket.BUCKETS
POOL = 50  # the pool holds 50 to 99 digests once 100 are used: under 2 kB
_draw = secrets.SystemRandom()


def digests_of(used: bytes) -> list[bytes]:
    return [used[i : i + DIGEST] for i in range(0, len(used), DIGEST)]


def ledger_contains(used: bytes, digest: bytes) -> bool:
    chunks = digests_of(used)
    index = bisect.bisect_left(chunks, digest)
    return index < len(chunks) and chunks[index] == digest


def ledger_insert(used: bytes, digest: bytes) -> bytes:
    """``used`` with ``digest`` in its sorted place: the set's bytes depend
    only on which digests it holds, never on the order they came in."""
    chunks = digests_of(used)
    bisect.insort(chunks, digest)
    return b"".join(chunks)


def bucket_of(digest: bytes) -> int:
    """The digest's first ``BITS`` bits: buckets in their order, concatenated,
    are the whole set sorted."""
    return int.from_bytes(digest[:2], "big") >> (16 - AccessBucket.BITS)


def buckets_split(digests: list[bytes]) -> dict[int, bytes]:
    """Each bucket's bytes for a set of digests (only the non-empty ones)."""
    grouped: dict[int, list[bytes]] = {}
    for digest in sorted(set(digests)):
        grouped.setdefault(bucket_of(digest), []).append(digest)
    return {bucket: b"".join(chunks) for bucket, chunks in grouped.items()}


def _bucket_bytes(survey_id: int, bucket: int) -> bytes | None:
    used = (
        AccessBucket.objects.filter(survey_id=survey_id, bucket=bucket)
        .values_list("used", flat=True)
        .first()
    )
    return None if used is None else bytes(used)


def _pending_bytes(survey_id: int) -> bytes:
    pending = (
        AccessLedger.objects.filter(survey_id=survey_id)
        .values_list("pending", flat=True)
        .first()
    )
    return b"" if pending is None else bytes(pending)


def ledger_has(*, survey_id: int, digest: bytes, pending: bytes | None = None) -> bool:
    """Whether ``digest`` was counted: in the ledger's pool (``pending``, read
    here when not given) or in its one bucket, whatever the set's size."""
    if pending is None:
        pending = _pending_bytes(survey_id)
    if ledger_contains(pending, digest):
        return True
    used = _bucket_bytes(survey_id, bucket_of(digest))
    return used is not None and ledger_contains(used, digest)


def ledger_add(*, ledger: AccessLedger, digest: bytes) -> None:
    """Count ``digest`` in ``ledger``'s pool; the caller holds the ledger's
    lock, has checked that it is not counted, and saves ``pending``.

    When the pool reaches ``2 * POOL`` digests, ``POOL`` of them, drawn at
    random, go to their buckets. So the pool, rewritten by every submission,
    holds at least ``POOL`` digests once ``2 * POOL`` are used; and a bucket is
    last written by a submission that moved ``POOL`` digests at once, not by
    the one whose credential it gained.
    """
    pending = ledger_insert(bytes(ledger.pending), digest)
    if len(pending) >= 2 * POOL * DIGEST:
        chunks = digests_of(pending)
        moved = set(_draw.sample(chunks, POOL))
        buckets_merge(survey_id=ledger.survey_id, digests=sorted(moved))
        pending = b"".join(chunk for chunk in chunks if chunk not in moved)
    ledger.pending = pending


def buckets_merge(*, survey_id: int, digests: list[bytes]) -> None:
    """Put ``digests`` (none counted yet) into their buckets, each made on
    first use and kept sorted."""
    split = buckets_split(digests)
    rows = AccessBucket.objects.filter(survey_id=survey_id, bucket__in=list(split))
    found = {bucket: bytes(used) for bucket, used in rows.values_list("bucket", "used")}
    AccessBucket.objects.bulk_create(
        AccessBucket(survey_id=survey_id, bucket=bucket, used=data)
        for bucket, data in split.items()
        if bucket not in found
    )
    for bucket, used in found.items():
        merged = b"".join(sorted(digests_of(used) + digests_of(split[bucket])))
        AccessBucket.objects.filter(survey_id=survey_id, bucket=bucket).update(
            used=merged
        )


def ledger_used(survey_id: int) -> set[bytes]:
    """Every digest counted in the survey (for the unused invitations)."""
    rows = AccessBucket.objects.filter(survey_id=survey_id).values_list(
        "used", flat=True
    )
    used = {digest for data in rows for digest in digests_of(bytes(data))}
    return used | set(digests_of(_pending_bytes(survey_id)))
