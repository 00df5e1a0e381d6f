"""Forms of the team page: they parse input; services.py decides."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from surveys.models import Membership, Role, Survey

MEMBER_ROLE_CHOICES = [(r.value, r.label) for r in Role if r != Role.OWNER]


class PlainLabels(forms.Form):
    """Labels without Django's trailing colon, as on the builder's forms."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class MemberAddForm(PlainLabels):
    who = forms.CharField(
        max_length=254,
        label=_("Username or email"),
        help_text=_("They need a researcher account on this site already."),
    )
    # The least privileged role unless the owner chooses more: aggregates
    # only, never an answer row (docs/teams.md).
    role = forms.ChoiceField(
        choices=MEMBER_ROLE_CHOICES,
        initial=Role.VIEWER.value,
        required=False,
        label=_("Role"),
        help_text=_(
            "Aggregates-only viewer unless you choose more; the table above "
            "says what each role may do."
        ),
    )

    def clean_role(self) -> str:
        return str(self.cleaned_data.get("role") or Role.VIEWER.value)


class MemberRoleForm(PlainLabels):
    role = forms.ChoiceField(choices=MEMBER_ROLE_CHOICES, label=_("Role"))


class TransferForm(PlainLabels):
    to = forms.ModelChoiceField(
        queryset=Membership.objects.none(),
        label=_("New owner"),
        help_text=_("Only a member can become the owner: add them first."),
        empty_label=None,
    )
    previous_owner_role = forms.ChoiceField(
        choices=MEMBER_ROLE_CHOICES,
        initial=Role.EDITOR.value,
        label=_("Your role afterwards"),
    )

    def __init__(self, *args: Any, survey: Survey, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["to"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = survey.memberships.select_related("user")
        field.label_from_instance = _member_label  # type: ignore[method-assign]


def _member_label(membership: Membership) -> str:
    return f"{membership.user.get_username()} ({membership.get_role_display()})"
