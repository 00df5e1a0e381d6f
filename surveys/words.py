"""The pure core's sentences in the active language: Django's ``gettext`` and the
language's number format, handed to :mod:`estimation` as a ``Translator``."""

from __future__ import annotations

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext, ngettext, pgettext

from estimation import Band
from estimation.words import Translator


def active_translator() -> Translator:
    """A translator for the language active now (a survey's, inside
    ``translation.override``), so design sentences match the page around them."""
    return Translator(
        gettext=gettext,
        ngettext=ngettext,
        decimal=str(get_format("DECIMAL_SEPARATOR")),
        # Spanish writes "75 %" (a no-break space before the sign), English "75%".
        percent_sign=pgettext("after a percentage", "%"),
    )


def band_name(band: Band) -> str:
    """A privacy band's name for people, in the active language."""
    return gettext(band.name)


def decimal_text(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, in the active language's decimal
    separator ("4.2" in English, "4,2" in Spanish)."""
    return f"{value:.{digits}f}".replace(".", str(get_format("DECIMAL_SEPARATOR")))


def count_text(count: int) -> str:
    """A whole number grouped as the active language groups thousands
    ("1,500" in English, "1.500" in Spanish)."""
    return str(number_format(count, force_grouping=True))


def number_text(text: str) -> str:
    """A number written by :mod:`estimation.contract` in English ("18.4%",
    "2.1", "< 0.001", "10.8% – 14.2%", "0.31 to 19.9") written as the active language writes
    numbers ("18,4 %" in Spanish); English text is returned as it is, so the
    exports that read the contract directly stay the same."""
    if text == "not estimable":
        return gettext("not estimable")
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    sign = pgettext("after a percentage", "%")
    to = pgettext("between two numbers", "to")
    if decimal == "." and sign == "%" and to == "to":
        return text
    return text.replace(".", decimal).replace("%", sign).replace(" to ", f" {to} ")
