"""How much an epsilon protects, in words: the bands every sentence about a
design is chosen by.

One answer with epsilon-local differential privacy lets an observer who was 50%
sure of it become at most ``e^eps / (1 + e^eps)`` sure. The bounds below are
where that ceiling crosses 75%, 88% and 98%:

- **strong**, up to ln 3 (1.0986): at most 75%. Warner's classic p = 3/4 is
  exactly ln 3, and Dwork & Roth (2014) name ln 2 and ln 3 as the largest of
  the "small constants" epsilon is usually meant to be. Here "nobody can tell
  which happened" is close to true.
- **moderate**, up to 2: at most 88%. The observer can lean towards the truth
  but cannot be sure of it.
- **weak**, up to 4: at most 98.2%. The answer is sent as given most of the
  time; the respondent keeps deniability, not secrecy. Deployed local DP sits
  here and above (Apple's documentation lists epsilon 2 to 8 per datum), and
  has been criticised for it (Tang et al. 2017).
- **minimal** ("barely protected"), above 4: the answer is very likely sent as
  given; the page must say so plainly.
- **none**: infinite epsilon (a direct question, or a design that sends some
  answer only when it is true).

The bounds are inclusive: epsilon exactly ln 3 is strong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from estimation.words import ENGLISH, Translator, gettext_noop

STRONG_MAX = math.log(3)
# The most epsilon the browser's randomizer accepts for one question
# (static/js/rr.js holds the same number): a server that sent a spec above it,
# by mistake or by tampering, gets a refusal on the respondent's screen and no
# answer. Site limits (settings) may be lower, never higher.
RANDOMIZER_MAX_EPSILON = 10.0
MODERATE_MAX = 2.0
WEAK_MAX = 4.0


@dataclass(frozen=True)
class Band:
    """One band: its key (stable, for code and CSS), its name for people (in
    English; ``translator.gettext(band.name)`` gives it in another language),
    its inclusive upper bound, and what it means for researchers (translated
    the same way)."""

    key: str
    name: str
    upper: float
    meaning: str

    @property
    def protects(self) -> bool:
        """Whether the respondent keeps any deniability at all."""
        return self.key != "none"


BANDS: tuple[Band, ...] = (
    Band(
        "strong",
        gettext_noop("strong protection"),
        STRONG_MAX,
        gettext_noop(
            "An observer who sees one answer stays far from sure of the truth."
        ),
    ),
    Band(
        "moderate",
        gettext_noop("moderate protection"),
        MODERATE_MAX,
        gettext_noop(
            "An observer can lean towards the truth but cannot be sure of it."
        ),
    ),
    Band(
        "weak",
        gettext_noop("weak protection"),
        WEAK_MAX,
        gettext_noop(
            "Most answers are sent as given; respondents keep deniability, not secrecy."
        ),
    ),
    Band(
        "minimal",
        gettext_noop("barely protected"),
        math.inf,
        gettext_noop(
            "Answers are very likely sent as given; the protection is mostly nominal."
        ),
    ),
)
NONE = Band(
    "none",
    gettext_noop("not protected"),
    math.inf,
    gettext_noop("Answers are sent as given: anyone who sees them learns them."),
)


def privacy_band(epsilon: float) -> Band:
    """The band of ``epsilon``; infinite epsilon is :data:`NONE`."""
    if math.isnan(epsilon) or epsilon < 0:
        raise ValueError(f"epsilon must be a non-negative number, got {epsilon!r}")
    if math.isinf(epsilon):
        return NONE
    return next(band for band in BANDS if epsilon <= band.upper)


def promise(
    epsilon: float, kept: float, k: int, translator: Translator = ENGLISH
) -> str:
    """What a respondent is told after the mechanism has been described.

    ``kept`` is the smallest probability that the report is the true answer,
    ``k`` the number of options. Strong and moderate bands speak of doubt; above
    them the sentence says what the report most likely is, so a design that
    usually sends the truth, one that usually reverses it (Warner with p < 1/2)
    and one that spreads reports over many options are each described as they
    are.
    """
    tr = translator
    band = privacy_band(epsilon)
    if band.key == "strong":
        return tr.gettext("Nobody, including us, can tell which happened.")
    if band.key == "moderate":
        return tr.gettext(
            "Nobody, including us, can be sure which happened, though what was "
            "sent leans towards your answer."
        )
    if band.key == "none":
        return tr.gettext("Anyone who sees what was sent can learn your answer.")
    if band.key == "weak":
        if kept >= 0.5:
            told = tr.gettext("Your answer is usually sent as given")
        elif k == 2:
            told = tr.gettext(
                "Your answer is usually sent reversed, which reveals it just as well"
            )
        else:
            told = tr.gettext("What was sent points towards your answer")
        return tr.gettext(
            "%(told)s: nobody can be certain of it, but the protection is weak."
        ) % {"told": told}
    if kept >= 0.9:
        told = tr.gettext("Your answer is very likely sent as given")
    elif k == 2 and kept <= 0.1:
        told = tr.gettext(
            "Your answer is very likely sent reversed, which reveals it just as well"
        )
    else:
        told = tr.gettext("What was sent points strongly towards your answer")
    return tr.gettext(
        "%(told)s: nobody can be certain of it, but the protection is barely there."
    ) % {"told": told}
