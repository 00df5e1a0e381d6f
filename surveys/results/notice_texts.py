"""The estimation's cautions, notices and fixed labels in the reader's language.

:mod:`estimation` stays free of Django, so it writes its cautions and notices
in English, with a code saying which one each is. English pages and every
export show those words as written; a page in another language says each
code's sentence here instead, translated, naming the options or quantities
the English message quotes (“Yes”). The numbers the English message carries
(how many responses, how wide an interval) are on the card beside it."""

from __future__ import annotations

import re
import string
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext

from estimation import contract
from estimation.inference import regression_cautions as fit
from surveys.kinds import KINDS, kind_module
from surveys.words import number_text

# contract.CAUTION_WORDS, marked for translation; a test keeps them equal.
CAUTION_WORDS = {
    contract.NOT_ESTIMABLE: (
        gettext_noop("Not estimable"),
        gettext_noop(
            "The data cannot estimate these: there is no number, or an interval "
            "of zero width where the quantity is not known exactly."
        ),
    ),
    contract.BEYOND_DESIGN: (
        gettext_noop("Beyond the design"),
        gettext_noop(
            "The reports imply a value outside the possible range, more extreme "
            "than the design allows (by chance with few responses, or because "
            "some respondents did not follow the randomization); the estimates "
            "shown are kept inside it."
        ),
    ),
    contract.HARDLY_INFORMED_FLAG: (
        gettext_noop("Hardly informed"),
        gettext_noop(
            "Their intervals cover more than half of the possible range: the "
            "data say little about these."
        ),
    ),
}

# A notice's sentence by its code, for pages not in English; {names} is
# the options it quotes, when it quotes any.
NOTICE_WORDS = {
    "beyond_design": gettext_noop(
        "The reported answers imply a share outside 0–100% for {names}: more "
        "extreme than this design allows. With few responses this can happen by "
        "chance; it can also mean that some respondents did not follow the "
        "randomization. The estimate is kept within 0–100%."
    ),
    "at_boundary": gettext_noop(
        "The estimate for {names} is at the edge of the possible range, so its "
        "interval is one-sided."
    ),
    "interval_replaced": gettext_noop(
        "The interval of the chosen method for {names} lies entirely outside "
        "0–100%, so the likelihood-ratio interval is shown."
    ),
    "few_responses": gettext_noop(
        "With so few responses the interval spans more than half of the possible "
        "range, too wide to be useful. Collect more responses; the planning "
        "section shows how many."
    ),
    "not_converged": gettext_noop(
        "The maximum-likelihood solver did not meet its tolerance; treat the "
        "estimate with care and report this as a bug."
    ),
    "distribution_not_identified": gettext_noop(
        "With this many responses at this privacy level the reports cannot tell "
        "the counts apart. Read the mean; the share at each single count is not "
        "estimated to any useful precision."
    ),
    "distribution_coarsened": gettext_noop(
        "With this many responses at this privacy level the distribution is "
        "shown in ranges of neighbouring counts: a single count's share is not "
        "told apart from its neighbours'."
    ),
}

_QUOTED = re.compile(r"“[^”]*”")


def _in_english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def _listed(names: Any) -> str:
    return ", ".join(f"“{name}”" for name in names)


def caution_in_language(caution: contract.Caution) -> str:
    """A caution (estimation/contract.py) as the page's language says it."""
    words = CAUTION_WORDS.get(caution.code)
    if words is None or _in_english():
        return caution.message
    title, explanation = words
    return f"{gettext(title)}: {_listed(caution.concerns)}. {gettext(explanation)}"


def notice_in_language(notice: Any) -> str:
    """A notice (a saved estimate's, with a ``code``) or a plain English
    caution as the page's language says it; English, and what has no code
    here, as written."""
    message = str(getattr(notice, "message", notice))
    if _in_english():
        return message
    own = kind_text_in_language(message)
    if own is not None:
        return own
    sentence = NOTICE_WORDS.get(str(getattr(notice, "code", "")))
    if sentence is None:
        return message
    quoted = ", ".join(dict.fromkeys(_QUOTED.findall(message)))
    return gettext(sentence).replace("{names}", quoted or f"“{gettext('Yes')}”")


# Labels the estimation writes among the researcher's own (a comparison's
# row, a model's term): translated only when they are one of these.
FIXED_LABELS = frozenset(
    {
        gettext_noop("Mean count"),
        gettext_noop("Option"),
        gettext_noop("Share of reports received"),
        gettext_noop("Intercept (odds at every reference level)"),
        gettext_noop("The whole model (against no covariates)"),
    }
)


def label_in_language(label: str) -> str:
    """``label`` translated when it is one of FIXED_LABELS, else as it is."""
    return gettext(label) if label in FIXED_LABELS else label


# A model fit's cautions (estimation/inference/regression_cautions.py), by
# the English template each is written from; a test keeps them matching.
FIT_CAUTIONS = (
    (
        fit.SEPARATION,
        gettext_noop(
            "Not estimable: %(terms)s. The likelihood keeps increasing as these "
            "coefficients grow without bound (separation: the fitted prevalence "
            "of some groups goes to 0 or 1), so they have no finite odds ratio, "
            "standard error or interval; the table shows them without a number."
        ),
    ),
    (
        fit.EMPTY_LEVEL,
        gettext_noop("No coefficient for %(terms)s: no respondents have these levels."),
    ),
    (
        fit.ZERO_WIDTH,
        gettext_noop(
            "The predicted prevalence of %(count)s has no interval (not "
            "estimable): the fit gives it no uncertainty, which the data cannot "
            "support when other coefficients are not estimable."
        ),
    ),
    (
        fit.HARDLY,
        gettext_noop(
            "The predicted prevalence of %(count)s is hardly informed by the data: "
            "its interval covers more than half of 0–100%% (marked in the table)."
        ),
    ),
)
_PATTERNS = re.compile(r"^(\d+) covariate patterns?$")


def _pattern(template: str) -> re.Pattern[str]:
    """``template``'s English with each ``{name}`` matching any value."""
    escaped = re.escape(template)
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    for name in names:
        escaped = escaped.replace(re.escape("{" + name + "}"), f"(?P<{name}>.+?)")
    return re.compile(f"^{escaped}$", re.S)


@cache
def _kind_texts() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Every kind's own notices and fit warnings (its ``text`` role's
    ``NOTICE_TEXTS``: the English template each is written from, and the
    words to translate), as patterns to match a saved English text."""
    found = []
    for kind in KINDS:
        try:
            role = kind_module(kind, "text")
        except ValueError:
            continue
        for english, said in getattr(role, "NOTICE_TEXTS", ()):
            found.append((_pattern(english), said))
    return tuple(found)


def _with_count_said(values: dict[str, str]) -> dict[str, str]:
    """A caution's values with its "N covariate patterns", if it has one, said
    in the active language with its plural."""
    counted = _PATTERNS.match(values.get("count") or "")
    if counted is not None:
        n = int(counted.group(1))
        values["count"] = ngettext(
            "%(n)s covariate pattern", "%(n)s covariate patterns", n
        ) % {"n": n}
    return values


def kind_text_in_language(text: str) -> str | None:
    """A kind's notice or fit warning (written in English from one of its
    templates) in the active language, with the values it carries written as
    the language writes numbers; None when no kind wrote it."""
    for pattern, said in _kind_texts():
        found = pattern.match(text)
        if found is None:
            continue
        values = _with_count_said(found.groupdict())
        return gettext(said) % {
            name: value if name == "count" else number_text(value)
            for name, value in values.items()
        }
    return None


_FIT_PATTERNS = tuple((_pattern(english), said) for english, said in FIT_CAUTIONS)


def fit_caution_in_language(caution: str) -> str:
    """A model fit's caution as the page's language says it; one this module
    does not know (the core's own warnings), as written."""
    if _in_english():
        return caution
    own = kind_text_in_language(caution)
    if own is not None:
        return own
    for pattern, said in _FIT_PATTERNS:
        found = pattern.match(caution)
        if found is None:
            continue
        values = _with_count_said(found.groupdict())
        return gettext(said) % values
    return caution
