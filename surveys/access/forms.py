"""Forms of the invitations page: they parse input; services.py decides."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from surveys.access.services import MAX_INVITATIONS

MAX_CSV_BYTES = 2 * 1024 * 1024


class InvitationCountForm(forms.Form):
    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_INVITATIONS,
        label=_("Number of links"),
        help_text=format_lazy(_("From 1 to {n} at a time."), n=MAX_INVITATIONS),
    )


class InvitationImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV of identifiers"),
        help_text=_(
            "One identifier per row, in the first column (a header “label” is "
            "skipped). Only you ever see them: they are never shown to "
            "respondents nor stored with answers."
        ),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(
                gettext("The file is larger than %(n)d MB.")
                % {"n": MAX_CSV_BYTES // (1024 * 1024)}
            )
        return bytes(upload.read())
