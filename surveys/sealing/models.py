"""The team key of a survey with sealed open answers. It belongs to the
``surveys`` app and is re-exported by :mod:`surveys.models`."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TeamKey(models.Model):
    """A survey's public key (ECDH P-256, as a JWK), made in a researcher's
    browser, and its SHA-256 fingerprint (of the key's SPKI bytes, checked by
    the server), shown in the builder and on the transparency page so anyone
    can compare it with the team's key file.

    ``wrapped_private`` is the optional copy of the private key exactly as
    the browser wrapped it (PBKDF2 + AES-GCM under the researcher's
    passphrase): the server checks its form only, and cannot open it. The key
    pair is set while the survey is a draft and frozen once it is published,
    since every answer is sealed for it; the wrapped copy may be stored,
    replaced (re-wrapped under a new passphrase) or removed at any time."""

    survey = models.OneToOneField(
        "surveys.Survey", on_delete=models.CASCADE, related_name="team_key"
    )
    public_jwk = models.JSONField()
    # Lowercase hex, 64 characters: SHA-256 of the SubjectPublicKeyInfo.
    fingerprint = models.CharField(max_length=64)
    wrapped_private = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    def __str__(self) -> str:
        return f"team key {self.fingerprint[:16]} of survey {self.survey_id}"
