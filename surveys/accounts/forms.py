"""The sign-up form: the same checks as create_researcher, shown by field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.password_validation import password_validators_help_text_html
from django.utils.translation import gettext_lazy as _

from surveys.accounts.services import email_taken, researcher_errors


class SignupForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        help_text=_("Letters, digits and @ . + - _ only; shown to your collaborators."),
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    email = forms.EmailField(
        label=_("Email"),
        help_text=_(
            "We send a link here to activate the account, and later any "
            "password-reset link."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        username, email = data.get("username", ""), data.get("email", "")
        password = data.get("password1", "")
        if password and password != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        if email and email_taken(email):
            self.add_error(
                "email",
                _(
                    "An account with this email address exists already. If it "
                    "is yours, log in or reset its password."
                ),
            )
        if username and password:
            found = researcher_errors(username=username, email=email, password=password)
            for field, messages in found.items():
                name = "password1" if field == "password" else field
                if name in self.fields and name not in self.errors:
                    for message in messages:
                        self.add_error(name, message)
        return data
