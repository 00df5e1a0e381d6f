"""Forms of the e-mail page: they parse input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from surveys.languages import chosen_languages
from surveys.mailing.wording import MAX_BODY, MAX_SUBJECT, wording_check
from surveys.models import MailKind, Survey

MAX_FILE_BYTES = 2 * 1024 * 1024
KIND_CHOICES = [
    (MailKind.INVITATION.value, _("Invitation")),
    (MailKind.REMINDER.value, _("Reminder")),
]


class AddressesForm(forms.Form):
    addresses = forms.CharField(
        label=_("Addresses"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            "One address per line; to choose the language of someone's messages, "
            "add a comma and its code (ana@example.org, es). Each address gets "
            "its own single-use link."
        ),
    )
    file = forms.FileField(
        label=_("Or a CSV file"),
        required=False,
        help_text=_("The same, one row each: the address, then the language if any."),
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data.get("file")
        if not upload:
            return ""
        if upload.size > MAX_FILE_BYTES:
            raise ValidationError(_("The file is larger than 2 MB."))
        try:
            return bytes(upload.read()).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(
                _("The file is not UTF-8 text: save it as CSV (UTF-8).")
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text = (data.get("addresses") or "").strip() + "\n" + (data.get("file") or "")
        if not text.strip() and not self.errors:
            raise ValidationError(_("Paste addresses or choose a file."))
        data["text"] = text
        return data


class MessageForm(forms.Form):
    kind = forms.ChoiceField(choices=KIND_CHOICES, widget=forms.HiddenInput)
    language = forms.ChoiceField(choices=[], widget=forms.HiddenInput)
    subject = forms.CharField(label=_("Subject"), max_length=MAX_SUBJECT)
    body = forms.CharField(
        label=_("Message"),
        max_length=MAX_BODY,
        widget=forms.Textarea(attrs={"rows": 10}),
        strip=False,
    )

    def __init__(self, *args: Any, survey: Survey, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        codes = chosen_languages(survey)
        self.fields["language"].choices = [(code, code) for code in codes]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "subject" in data and "body" in data:
            try:
                wording_check(subject=data["subject"], body=data["body"])
            except ValidationError as error:
                for field, messages in error.message_dict.items():
                    for message in messages:
                        self.add_error(field, message)
        return data


class SendForm(forms.Form):
    kind = forms.ChoiceField(choices=KIND_CHOICES)
