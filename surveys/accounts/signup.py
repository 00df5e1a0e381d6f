"""Self sign-up, when ``SIGNUP_ENABLED``: an inactive account and an emailed
link that activates it once. Until then the account cannot log in, and the
address is known to reach its owner before any password-reset email goes there.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from surveys.accounts.services import researcher_create


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    """A reset-style token whose hash covers ``is_active``: activating the
    account changes the hash, so the link works once."""

    key_salt = "surveys.accounts.signup.ActivationTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{user.pk}{user.password}{user.is_active}{timestamp}{user.email}"


activation_tokens = ActivationTokenGenerator()


def signup_create(*, username: str, email: str, password: str) -> Any:
    """An inactive researcher; ``ValidationError`` by field as researcher_create."""
    return researcher_create(
        username=username, email=email, password=password, active=False
    )


def signup_link_path(user: Any) -> tuple[str, str]:
    """The (uidb64, token) pair of the user's activation link."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return uid, activation_tokens.make_token(user)


def signup_send(*, user: Any, link: str, site_name: str) -> None:
    context = {"user": user, "link": link, "site_name": site_name}
    send_mail(
        subject=render_to_string("registration/signup_subject.txt", context).strip(),
        message=render_to_string("registration/signup_email.txt", context),
        from_email=None,
        recipient_list=[user.email],
    )


def signup_pending(uidb64: str, token: str) -> Any | None:
    """The inactive account the link is for, if the link is still good."""
    users = get_user_model()
    try:
        user = users.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (ValueError, TypeError, OverflowError, ValidationError, users.DoesNotExist):
        return None
    if user.is_active or not activation_tokens.check_token(user, token):
        return None
    return user


@transaction.atomic
def signup_activate(*, uidb64: str, token: str) -> Any | None:
    """Activate the account; None if the link is invalid or used."""
    user = signup_pending(uidb64, token)
    if user is None:
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user
