"""A researcher's own settings, kept on the account so they follow the
researcher to every browser. The model belongs to the ``surveys`` app and is
re-exported by :mod:`surveys.models`."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccountPreference(models.Model):
    """The language a researcher chose for their pages (docs/languages.md);
    empty until they choose, when the browser's preference decides."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="preference",
    )
    # One of LANGUAGES, checked when chosen; no choices here, so adding a
    # language needs no migration.
    language = models.CharField(max_length=8, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or 'browser'}"
