"""Creating researcher accounts: one set of checks for the command line, the
Docker entrypoint and the optional sign-up form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext


def researcher_exists(username: str) -> bool:
    """Usernames are unique ignoring case: "Ana" and "ana" would be two people
    nobody can tell apart on a members list."""
    users = get_user_model()
    return users.objects.filter(username__iexact=username.strip()).exists()


def email_taken(email: str) -> bool:
    users = get_user_model()
    return users.objects.filter(email__iexact=email.strip()).exists()


def researcher_errors(
    *, username: str, email: str, password: str
) -> dict[str, list[str]]:
    """Every reason the account cannot be made, by field; empty when it can."""
    users = get_user_model()
    errors: dict[str, list[str]] = {}
    username = users.normalize_username(username.strip())
    if not username:
        errors["username"] = [gettext("Enter a username.")]
    else:
        field = users._meta.get_field(users.USERNAME_FIELD)
        try:
            field.run_validators(username)
        except ValidationError as error:
            errors["username"] = list(error.messages)
        if "username" not in errors and researcher_exists(username):
            errors["username"] = [
                gettext("The username %(name)r is already taken.") % {"name": username}
            ]
    if email:
        try:
            validate_email(email)
        except ValidationError:
            errors["email"] = [f"{email!r} is not a valid email address."]
    try:
        validate_password(password, user=users(username=username, email=email))
    except ValidationError as error:
        errors["password"] = list(error.messages)
    return errors


@transaction.atomic
def researcher_create(
    *,
    username: str,
    email: str = "",
    password: str,
    staff: bool = False,
    superuser: bool = False,
    active: bool = True,
) -> Any:
    """A new researcher, after the password validators and a case-insensitive
    check for the username; raises ``ValidationError`` by field otherwise.
    A superuser is staff too (the admin lets in staff only)."""
    users = get_user_model()
    email = users.objects.normalize_email(email.strip())
    errors = researcher_errors(username=username, email=email, password=password)
    if errors:
        raise ValidationError(errors)
    user = users(
        username=users.normalize_username(username.strip()),
        email=email,
        is_staff=staff or superuser,
        is_superuser=superuser,
        is_active=active,
    )
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # the same username, created a moment ago
        raise ValidationError(
            {
                "username": [
                    gettext("The username %(name)r is already taken.")
                    % {"name": user.username}
                ]
            }
        ) from None
    return user
