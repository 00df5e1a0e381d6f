"""The access ledger's buckets. They belong to the ``surveys`` app and are
re-exported by :mod:`surveys.models`.

The credentials a survey has counted, once out of the ledger's pool, are
split into at most ``BUCKETS`` sorted sets, the bucket of each chosen by its
keyed digest, so that a submission rewrites small rows, not the whole set; docs/methodology.md
("Invitations, panels and quotas") says what a bucket's rewrite reveals.
"""

from __future__ import annotations

from django.db import models


class AccessBucket(models.Model):
    """One bucket of a survey's used credentials: the sorted concatenation of
    the 16-byte keyed digests whose first bits are ``bucket``.

    Keyed by (survey, bucket), with no sequence: a row's key says which
    digests it may hold, never when it was first written. Rows are made on
    first use and written only under the lock of the survey's ledger, when
    digests move from its pool. 8,192 buckets keep a row near 2 kB at a
    million used, so that its rewrite fits beside it on its page (the table's
    fill factor leaves the room) and is logged as the bytes that changed.
    """

    BITS = 13
    BUCKETS = 1 << BITS  # fixed: a digest's bucket never changes

    pk = models.CompositePrimaryKey("survey", "bucket")
    # The primary key's index leads with the survey: no second index to write.
    survey = models.ForeignKey(
        "surveys.Survey",
        on_delete=models.CASCADE,
        related_name="access_buckets",
        db_index=False,
    )
    bucket = models.PositiveSmallIntegerField()
    used = models.BinaryField(default=b"")

    def __str__(self) -> str:
        return f"bucket {self.bucket} of {self.survey_id}"
