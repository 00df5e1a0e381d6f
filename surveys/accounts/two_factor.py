"""Two-factor sign-in: an authenticator app (TOTP) and one-time recovery codes.

django-otp keeps the devices: a researcher's ``TOTPDevice`` counts once it is
confirmed with a code, and a ``StaticDevice`` holds their recovery codes, each
deleted when used. The site setting ``REQUIRE_TWO_FACTOR`` says who must have
one ("none", "owners" of published surveys, or "everyone"). The audit log
records enrolment, removal and new recovery codes, never a secret or a code.
"""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from typing import Any

import segno
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django_otp import user_has_device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from surveys.models import Survey
from surveys.ratelimit import Decision, rate_check, rate_hit, rate_reset
from surveys.team.audit import Action, audit_record

REQUIRE_CHOICES = ("none", "owners", "everyone")
RECOVERY_CODE_COUNT = 10
APP_DEVICE_NAME = "Authenticator app"
RECOVERY_DEVICE_NAME = "Recovery codes"
# Spaces and hyphens people type when copying a code from a phone or a sheet.
CODE_SEPARATORS = re.compile(r"[\s-]+")
TOTP_CODE = re.compile(r"^\d{6}$")


class CodeTooSoon(Exception):
    """django-otp slows a device down after each wrong code (a second, then
    two, four...): this one came before the wait was over."""

    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def two_factor_enabled(user: Any) -> bool:
    """Whether ``user`` has a confirmed authenticator, so sign-in asks a code."""
    return bool(user_has_device(user, confirmed=True))


def two_factor_required(user: Any) -> bool:
    """Whether the site's setting obliges ``user`` to use two-factor sign-in."""
    policy = settings.REQUIRE_TWO_FACTOR
    if policy == "everyone":
        return True
    if policy == "owners":
        published = Survey.objects.filter(owner=user).exclude(
            status=Survey.Status.DRAFT
        )
        return published.exists()
    return False


# -- enrolment ---------------------------------------------------------------


@dataclass(frozen=True)
class Enrolment:
    """What the enrolment page shows: the QR code and the same secret as text."""

    device: TOTPDevice
    secret: str  # base32, as authenticator apps take it when typed in
    qr_svg: SafeString


def _secret_text(device: TOTPDevice) -> str:
    return base64.b32encode(device.bin_key).decode().rstrip("=")


def _qr_svg(url: str) -> SafeString:
    """The otpauth:// link as inline SVG, drawn here: no image service sees the
    secret, and the page needs no script or style the CSP would refuse."""
    code = segno.make(url, error="m")
    # segno escapes nothing it did not build; the input is our own URL.
    svg = code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=False)
    return mark_safe(svg)  # nosec B308, B703  # segno's markup of our own URL


def two_factor_enrolment_start(*, user: Any) -> Enrolment:
    """The researcher's unconfirmed authenticator, created on first visit and
    kept until confirmed, so reloading the page shows the same secret."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(
            user=user, name=APP_DEVICE_NAME, confirmed=False
        )
    return Enrolment(device, _secret_text(device), _qr_svg(device.config_url))


@transaction.atomic
def two_factor_enrolment_confirm(
    *, user: Any, code: str
) -> tuple[TOTPDevice, list[str]] | None:
    """Confirm the pending authenticator with a code it shows; then it counts
    and the researcher gets fresh recovery codes (returned to be shown once).
    None when the code is wrong or there is nothing pending."""
    device = (
        TOTPDevice.objects.select_for_update()
        .filter(user=user, confirmed=False)
        .first()
    )
    if device is None:
        return None
    wait = _device_wait(device)
    if wait:
        raise CodeTooSoon(wait)
    if not device.verify_token(_clean(code)):
        return None
    TOTPDevice.objects.filter(user=user, confirmed=True).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = _recovery_codes_replace(user)
    audit_record(actor=user, action=Action.TWO_FACTOR_ENABLE, survey=None)
    return device, codes


def _recovery_codes_replace(user: Any) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create(
        StaticToken(device=device, token=code) for code in codes
    )
    return codes


@transaction.atomic
def recovery_codes_regenerate(*, user: Any) -> list[str]:
    """New recovery codes; every earlier one stops working."""
    codes = _recovery_codes_replace(user)
    audit_record(actor=user, action=Action.RECOVERY_CODES_REGENERATE, survey=None)
    return codes


@transaction.atomic
def two_factor_disable(*, user: Any) -> None:
    """Remove the authenticator and the recovery codes: sign-in asks only the
    password again (unless the site requires two-factor for this researcher)."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    audit_record(actor=user, action=Action.TWO_FACTOR_DISABLE, survey=None)


def recovery_codes_left(user: Any) -> int:
    return StaticToken.objects.filter(device__user=user).count()


# -- checking a code ---------------------------------------------------------


def _clean(code: str) -> str:
    return CODE_SEPARATORS.sub("", code).lower()


def _device_wait(device: TOTPDevice | StaticDevice) -> int:
    allowed, data = device.verify_is_allowed()
    if allowed or not isinstance(data, dict) or "locked_until" not in data:
        return 0
    left = (data["locked_until"] - timezone.now()).total_seconds()
    return max(1, math.ceil(left))


def two_factor_verify(*, user: Any, code: str) -> TOTPDevice | StaticDevice | None:
    """The confirmed device that accepts ``code``, or None.

    Six digits go to the authenticator, anything else to the recovery codes, so
    a recovery code never counts as a failed app code (django-otp slows a
    device down after each failure). A used recovery code is deleted, and the
    authenticator refuses a code it has already accepted.
    """
    code = _clean(code)
    model: type[TOTPDevice] | type[StaticDevice] = (
        TOTPDevice if TOTP_CODE.match(code) else StaticDevice
    )
    with transaction.atomic():
        devices = model.objects.select_for_update().filter(user=user, confirmed=True)
        for device in devices:
            wait = _device_wait(device)
            if wait:
                raise CodeTooSoon(wait)
            if device.verify_token(code):
                return device
    return None


def _attempts(user: Any) -> tuple[str, str, str]:
    return ("two-factor-code", str(user.pk), settings.THROTTLE_TWO_FACTOR_CODE)


def code_attempts_blocked(user: Any) -> Decision:
    """Whether this researcher has used up the code attempts of this window."""
    scope, identity, rate = _attempts(user)
    return rate_check(scope=scope, identity=identity, rate=rate)


def code_attempt_failed(user: Any) -> None:
    scope, identity, rate = _attempts(user)
    rate_hit(scope=scope, identity=identity, rate=rate)


def code_attempts_reset(user: Any) -> None:
    scope, identity, rate = _attempts(user)
    rate_reset(scope=scope, identity=identity, rate=rate)
