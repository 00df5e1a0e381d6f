"""Numbers in sentences for people: percentages that never round to certainty,
upper bounds that never round down, and plurals.

Every sentence the platform shows about a design or an estimate formats its
numbers here, so the rules hold everywhere at once.

Sentences for respondents are written in English and translated through a
:class:`Translator` the caller passes in: this package stays free of Django, and
the web side hands it Django's ``gettext`` and the active language's number
format. Messages use ``%(name)s`` placeholders so that translators can reorder
them and ``msgfmt --check`` can verify them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark a message for extraction (``makemessages``) without translating it
    here: it is translated where it is shown."""
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


@dataclass(frozen=True)
class Translator:
    """How sentences for people are translated and their numbers written.

    ``gettext`` and ``ngettext`` have the signatures of Python's and Django's;
    ``decimal`` is the decimal separator and ``percent_sign`` what follows a
    percentage (``"%"`` in English, a no-break space and ``"%"`` in Spanish).
    The default is English, untranslated.
    """

    gettext: Callable[[str], str] = gettext_noop
    ngettext: Callable[[str, str, int], str] = _english_plural
    decimal: str = "."
    percent_sign: str = "%"

    def number(self, text: str) -> str:
        """A number already rounded and written with ``.``, in this language."""
        return text.replace(".", self.decimal)

    def percentage(self, text: str) -> str:
        return self.number(text) + self.percent_sign


ENGLISH = Translator()

# An upper bound shown with more decimals than this is no longer read by anyone.
_MAX_BOUND_DECIMALS = 8


def percent(probability: float, translator: Translator = ENGLISH) -> str:
    """Format a probability for people: ``0.75 -> '75%'``, ``0.1839 -> '18.4%'``.

    Rounding never claims certainty that is not there: a probability strictly
    between 0 and 1 is never written "0%" or "100%" (``1e-5 -> 'less than
    0.1%'``, ``0.99995 -> 'more than 99.9%'``).
    """
    tr = translator
    text = f"{100 * probability:.1f}".rstrip("0").rstrip(".")
    if text == "0" and probability > 0:
        return tr.gettext("less than %(percent)s") % {"percent": tr.percentage("0.1")}
    if text == "100" and probability < 1:
        return tr.gettext("more than %(percent)s") % {"percent": tr.percentage("99.9")}
    return tr.percentage(text)


def percent_at_most(probability: float, translator: Translator = ENGLISH) -> str:
    """An upper bound as a percentage, rounded up and never to "100%" below 1.

    ``0.75 -> '75%'``, ``0.88080 -> '88.1%'``, ``0.9999938 -> '99.9994%'``: the
    figure is never below the bound, so "at most" stays true, and a bound that
    is not certainty shows as many decimals as it takes to say so.
    """
    if probability >= 1:
        return translator.percentage("100")
    value = 100 * probability
    for decimals in range(1, _MAX_BOUND_DECIMALS + 1):
        scale = 10**decimals
        # The small allowance keeps exact values (75.0) from rounding up.
        shown = math.ceil(value * scale - 1e-9) / scale
        if shown < 100:
            text = f"{shown:.{decimals}f}".rstrip("0").rstrip(".")
            return translator.percentage(text)
    return translator.percentage(f"{value:.{_MAX_BOUND_DECIMALS}f}")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 response``, ``2 responses``, ``1,000 responses``."""
    word = noun if count == 1 else (many or f"{noun}s")
    return f"{count:,} {word}"


def format_epsilon(epsilon: float, translator: Translator = ENGLISH) -> str:
    """Epsilon for people: ``1.0986 -> '1.1'``; ``'not private'`` when infinite."""
    if not math.isfinite(epsilon):
        return translator.gettext("not private")
    text = f"{epsilon:.2f}".rstrip("0").rstrip(".")
    return translator.number(text if text != "0" or epsilon == 0 else f"{epsilon:.2g}")
