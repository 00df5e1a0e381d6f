"""Two-factor sign-in: the code after the password, enrolment, recovery codes,
the site setting that requires it, and the API's tokens left as they were."""

from __future__ import annotations

import base64
import json
import time

import pytest
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from surveys.accounts import login, two_factor_views
from surveys.accounts.two_factor import (
    recovery_codes_left,
    two_factor_enrolment_confirm,
    two_factor_enrolment_start,
)
from surveys.builder.services import survey_publish
from surveys.models import AuditEvent
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")
CODE = reverse("login-code")
ENROL = reverse("two-factor-enrol")
MANAGE = reverse("two-factor")
LIST = reverse("surveys:list")


def app_code(device: TOTPDevice, steps_ahead: int = 0) -> str:
    """What the researcher's app shows now (or ``steps_ahead`` steps later)."""
    return f"{totp(device.bin_key, drift=steps_ahead):06d}"


def enrolled(user) -> tuple[TOTPDevice, list[str]]:
    device = two_factor_enrolment_start(user=user).device
    confirmed = two_factor_enrolment_confirm(user=user, code=app_code(device))
    assert confirmed is not None
    return confirmed


def password_step(client, username="owner", password="owner-pass-1", **extra):
    return client.post(LOGIN, {"username": username, "password": password, **extra})


# -- signing in ----------------------------------------------------------------


def test_it_signs_in_with_the_password_alone_without_an_authenticator(client, owner):
    assert password_step(client)["Location"] == LIST
    assert client.get(LIST).status_code == 200


def test_it_asks_a_code_after_the_password_and_the_session_is_not_logged_in(
    client, owner
):
    enrolled(owner)
    response = password_step(client, next="/surveys/new/")
    assert response["Location"] == CODE
    assert "_auth_user_id" not in client.session
    # Every other page still takes the visitor to the login form.
    assert client.get(LIST)["Location"].startswith(LOGIN)
    assert client.get(MANAGE)["Location"].startswith(LOGIN)
    assert token_client(owner).get("/api/v1/surveys/").status_code == 200


def test_a_right_code_signs_in_to_the_page_asked_for(client, owner):
    device, _ = enrolled(owner)
    password_step(client, next="/surveys/new/")
    response = client.post(CODE, {"code": app_code(device, steps_ahead=1)})
    assert response["Location"] == "/surveys/new/"
    assert client.get(LIST).status_code == 200
    assert client.session["otp_device_id"] == device.persistent_id


def test_a_wrong_code_is_refused_and_the_session_stays_logged_out(client, owner):
    enrolled(owner)
    password_step(client)
    response = client.post(CODE, {"code": "000000"})
    assert response.status_code == 200
    assert "not right" in response.context["form"].errors["code"][0]
    assert client.get(LIST).status_code == 302


def test_code_attempts_are_limited_per_researcher(client, owner, settings):
    settings.THROTTLE_TWO_FACTOR_CODE = "2/15minutes"
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # django-otp's own delay: next test
    device, _ = enrolled(owner)
    password_step(client)
    for _attempt in range(2):
        assert client.post(CODE, {"code": "000000"}).status_code == 200
    response = client.post(CODE, {"code": app_code(device, steps_ahead=1)})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many wrong codes" in response.content.decode()
    assert client.get(LIST).status_code == 302


def test_a_code_right_after_a_wrong_one_waits_for_django_otps_delay(client, owner):
    device, _ = enrolled(owner)
    password_step(client)
    client.post(CODE, {"code": "000000"})
    held = client.post(CODE, {"code": app_code(device, steps_ahead=1)})
    assert "Wait 1 second" in held.context["form"].errors["code"][0]
    assert client.get(LIST).status_code == 302
    device.refresh_from_db()
    device.throttle_reset()
    response = client.post(CODE, {"code": app_code(device, steps_ahead=1)})
    assert response["Location"] == LIST


def test_a_recovery_code_signs_in_once(client, owner):
    _, codes = enrolled(owner)
    password_step(client)
    # Typed as people copy it: upper case, with a space.
    typed = f"{codes[0][:4].upper()} {codes[0][4:]}"
    assert client.post(CODE, {"code": typed})["Location"] == LIST
    assert recovery_codes_left(owner) == 9
    client.post(reverse("logout"))
    password_step(client)
    assert client.post(CODE, {"code": codes[0]}).status_code == 200
    assert client.get(LIST).status_code == 302


def test_the_code_step_expires(client, owner, monkeypatch):
    device, _ = enrolled(owner)
    password_step(client)
    later = time.time() + login.PENDING_SECONDS + 1
    monkeypatch.setattr(two_factor_views.time, "time", lambda: later)
    response = client.post(CODE, {"code": app_code(device, steps_ahead=1)})
    assert response["Location"] == LOGIN
    assert client.get(LIST).status_code == 302


def test_the_code_step_without_a_password_first_sends_to_the_login(client):
    assert client.get(CODE)["Location"] == LOGIN


# -- enrolment -----------------------------------------------------------------


def test_the_enrolment_page_shows_the_qr_code_and_the_secret(client, owner):
    client.force_login(owner)
    page = client.get(ENROL).content.decode()
    device = TOTPDevice.objects.get(user=owner)
    secret = base64.b32encode(device.bin_key).decode().rstrip("=")
    assert secret in page
    assert "<svg" in page
    assert "<path" in page
    assert "style=" not in page.split("<svg", 1)[1].split("</svg>", 1)[0]
    # The same secret on a reload, until it is confirmed.
    assert secret in client.get(ENROL).content.decode()


def test_an_unconfirmed_authenticator_does_not_count(client, owner):
    two_factor_enrolment_start(user=owner)
    assert password_step(client)["Location"] == LIST


def test_enrolment_needs_a_right_code_then_shows_ten_recovery_codes(client, owner):
    client.force_login(owner)
    client.get(ENROL)
    device = TOTPDevice.objects.get(user=owner)
    wrong = client.post(ENROL, {"code": "123456"})
    assert "does not match" in wrong.context["form"].errors["code"][0]
    assert not TOTPDevice.objects.get(pk=device.pk).confirmed
    TOTPDevice.objects.get(pk=device.pk).throttle_reset()
    response = client.post(ENROL, {"code": app_code(device)})
    assert len(response.context["codes"]) == 10
    assert TOTPDevice.objects.get(pk=device.pk).confirmed
    assert client.get(ENROL)["Location"] == MANAGE  # enrolled already
    [event] = AuditEvent.objects.filter(action="two_factor.enable")
    assert event.actor == owner
    assert event.survey is None
    stored = json.dumps(event.detail)
    assert device.key not in stored
    assert not any(code in stored for code in response.context["codes"])


# -- managing it -----------------------------------------------------------------


def test_new_recovery_codes_need_the_password_and_replace_the_old(client, owner):
    _, old = enrolled(owner)
    client.force_login(owner)
    refused = client.post(MANAGE, {"action": "regenerate", "proof": "nope"})
    assert "Neither a valid code" in refused.context["form"].errors["proof"][0]
    response = client.post(MANAGE, {"action": "regenerate", "proof": "owner-pass-1"})
    new = response.context["codes"]
    assert len(new) == 10
    assert not set(new) & set(old)
    assert not StaticToken.objects.filter(token__in=old).exists()
    assert AuditEvent.objects.filter(action="recovery_codes.regenerate").count() == 1


def test_turning_it_off_needs_a_code_and_the_password_alone_then_signs_in(
    client, owner
):
    device, _ = enrolled(owner)
    client.force_login(owner)
    response = client.post(
        MANAGE, {"action": "disable", "proof": app_code(device, steps_ahead=1)}
    )
    assert response["Location"] == MANAGE
    assert not TOTPDevice.objects.filter(user=owner).exists()
    assert recovery_codes_left(owner) == 0
    assert AuditEvent.objects.filter(action="two_factor.disable").count() == 1
    client.post(reverse("logout"))
    assert password_step(client)["Location"] == LIST


# -- the site's requirement --------------------------------------------------------


def test_required_for_everyone_sends_a_researcher_without_one_to_enrol(
    client, owner, settings
):
    settings.REQUIRE_TWO_FACTOR = "everyone"
    client.force_login(owner)
    for path in (LIST, MANAGE, reverse("api-token"), "/surveys/new/"):
        assert client.get(path)["Location"] == ENROL, path
    assert client.get(ENROL).status_code == 200
    api = client.get("/api/v1/surveys/")
    assert api.status_code == 403
    assert "two-factor" in api.json()["error"]
    assert client.post(reverse("logout")).status_code == 302


def test_the_api_token_is_unaffected_by_the_requirement(owner, settings):
    settings.REQUIRE_TWO_FACTOR = "everyone"
    api = token_client(owner)
    assert api.get("/api/v1/surveys/").status_code == 200
    created = api.post("/api/v1/surveys/", {"title": "By script"}, format="json")
    assert created.status_code == 201


def test_required_for_owners_covers_only_owners_of_published_surveys(
    client, owner, stranger, draft_survey, settings
):
    settings.REQUIRE_TWO_FACTOR = "owners"
    client.force_login(owner)
    assert client.get(LIST).status_code == 200  # a draft only
    survey_publish(survey=draft_survey)
    assert client.get(LIST)["Location"] == ENROL
    client.force_login(stranger)
    assert client.get(LIST).status_code == 200


def test_after_enrolling_the_requirement_lets_the_researcher_through(
    client, owner, settings
):
    settings.REQUIRE_TWO_FACTOR = "everyone"
    client.force_login(owner)
    client.get(ENROL)
    device = TOTPDevice.objects.get(user=owner)
    client.post(ENROL, {"code": app_code(device)})
    assert client.get(LIST).status_code == 200


def test_a_session_that_never_gave_a_code_must_sign_in_again_when_required(
    client, owner, settings
):
    settings.REQUIRE_TWO_FACTOR = "everyone"
    enrolled(owner)
    client.force_login(owner)  # as a session opened before enrolling
    assert client.get(LIST)["Location"] == f"{LOGIN}?next={LIST}"
    assert "_auth_user_id" not in client.session


def test_staff_can_remove_a_lost_device_in_the_admin_but_never_read_it(
    client, owner, django_user_model
):
    device, codes = enrolled(owner)
    staff = django_user_model.objects.create_superuser("boss", password="boss-pass-1")
    client.force_login(staff)
    page = client.get(
        reverse("admin:otp_totp_totpdevice_change", args=[device.pk])
    ).content.decode()
    assert owner.username in page
    assert device.key not in page
    static = owner.staticdevice_set.get()
    page = client.get(
        reverse("admin:otp_static_staticdevice_change", args=[static.pk])
    ).content.decode()
    assert not any(code in page for code in codes)
    delete = reverse("admin:otp_totp_totpdevice_delete", args=[device.pk])
    client.post(delete, {"post": "yes"})
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()
