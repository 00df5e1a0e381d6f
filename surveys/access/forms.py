"""Forms of the invitations page: they parse input; services.py decides."""

from __future__ import annotations

from django import forms

from surveys.access.services import MAX_INVITATIONS

MAX_CSV_BYTES = 2 * 1024 * 1024


class InvitationCountForm(forms.Form):
    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_INVITATIONS,
        label="Number of links",
        help_text=f"From 1 to {MAX_INVITATIONS} at a time.",
    )


class InvitationImportForm(forms.Form):
    file = forms.FileField(
        label="CSV of identifiers",
        help_text="One identifier per row, in the first column (a header "
        "“label” is skipped). Only you ever see them: they are never shown to "
        "respondents nor stored with answers.",
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_CSV_BYTES // (1024 * 1024)} MB."
            )
        return bytes(upload.read())
