"""The list experiment in plain words for researchers: what the device and
the respondent do, the two assumptions the estimate rests on, floor and
ceiling effects, and why it has no epsilon.

A treatment respondent who reports 0 has said No to the sensitive item and one
who reports J + 1 has said Yes, so the design gives no local differential
privacy guarantee at all: every place that would show an epsilon shows
``NO_EPSILON`` instead of a number, and the survey's total is unbounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from estimation.contract import BEYOND_DESIGN
from estimation.kinds.listexperiment import model
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import (
    DESIGN_EFFECT,
    FEW_IN_ARM,
    FLOOR_CEILING,
    ML_NOT_CONVERGED,
    NOTICE_TEMPLATES,
)
from estimation.planner import DEFAULT_PREVALENCE, expected_precision
from estimation.words import percent
from surveys.builder.design_text import LEVEL
from surveys.words import active_translator, count_text, decimal_text

# What stands where other kinds print their epsilon.
NO_EPSILON = gettext_lazy("no epsilon: a list experiment gives no local DP guarantee")

# The Model panel's words for this kind's fit (estimation/runs/fit_selectors.py).
MODEL_DESCRIPTION = gettext_lazy(
    "Imai's (2011) maximum-likelihood regression of the list experiment, the "
    "model of ictreg in R's list package: the odds ratios are those of the "
    "sensitive item being true, with Wald intervals; the control items' own "
    "regression is beside them."
)

# A run's warning where one list has answers and the other none.
ONE_LIST_EMPTY = (
    "Only one of the two lists has answers: both are needed to compare their "
    "mean counts."
)

# The core's notices and the model's warnings by the English template each is
# written from (estimation/kinds/listexperiment/estimate.py and model.py),
# with the words a page in another language says instead; the values in
# braces are carried over (surveys/results/notice_texts.py reads these through
# the registry). A test keeps them matching.
NOTICE_TEXTS: tuple[tuple[str, str], ...] = (
    (
        NOTICE_TEMPLATES[FEW_IN_ARM],
        gettext_noop(
            "Only %(control)s respondents saw the short list and %(treatment)s "
            "the long one. With fewer than %(least)s in either group the interval "
            "and the design-effect test are not to be trusted; collect more "
            "responses."
        ),
    ),
    (
        NOTICE_TEMPLATES[DESIGN_EFFECT],
        gettext_noop(
            "The answers suggest a design effect (p-value %(p)s): adding the "
            "sensitive statement seems to have changed how respondents counted "
            "the other statements, so the estimates may be biased."
        ),
    ),
    (
        NOTICE_TEMPLATES[FLOOR_CEILING],
        gettext_noop(
            "%(share)s of those who saw the long list said that none or all of "
            "the statements apply, which gives their answer to the sensitive "
            "statement away. Respondents who notice this may not answer "
            "truthfully; a list with fewer rare or fewer common statements "
            "avoids it."
        ),
    ),
    (
        NOTICE_TEMPLATES[BEYOND_DESIGN],
        gettext_noop(
            "The difference between the two lists' mean counts is %(points)s "
            "percentage points, outside 0–100%%: the estimate is kept within "
            "0–100%%. With few responses this can happen by chance; it can also "
            "mean a design effect or untruthful answers."
        ),
    ),
    (
        NOTICE_TEMPLATES[ML_NOT_CONVERGED],
        gettext_noop(
            "The maximum-likelihood estimate did not converge; use the "
            "difference in means."
        ),
    ),
    (
        ONE_LIST_EMPTY,
        gettext_noop(
            "Only one of the two lists has answers: both are needed to compare "
            "their mean counts."
        ),
    ),
    (
        model.ASSUMPTIONS,
        gettext_noop(
            "The model rests on the list experiment's two assumptions, no design "
            "effect and no liars; the question's card tests the first."
        ),
    ),
    (
        model.NOT_CONVERGED,
        gettext_noop(
            "The maximum-likelihood fit did not converge; its numbers are not reliable."
        ),
    ),
    (
        model.AT_BOUNDARY,
        gettext_noop(
            "The fitted prevalence of the sensitive item goes to 0 or 1 for "
            "%(count)s (ML at the boundary): their predicted prevalence is that "
            "limit, without an interval."
        ),
    ),
)


def list_sentence(design: ListExperiment) -> str:
    """What the device and the respondent do, and what is estimated."""
    tr = active_translator()
    return gettext(
        "Each respondent's device puts them at random in the control group, shown "
        "the %(items)s control items, or (%(share)s of respondents) in the "
        "treatment group, shown the same items plus the sensitive one, all in a "
        "random order. The respondent says only how many items apply to them. The "
        "share with the sensitive item true is estimated by the difference between "
        "the two groups' mean counts, and by maximum likelihood (Imai 2011). Both "
        "rest on two assumptions: no design effect (adding the sensitive item does "
        "not change how respondents answer the other items) and no liars "
        "(respondents shown the sensitive item count it truthfully). The results "
        "test for a design effect (Blair and Imai 2012)."
    ) % {"items": design.items, "share": percent(design.treatment_share, tr)}


def list_observer(design: ListExperiment) -> str:
    """What a count reveals, for researchers: honestly, no epsilon."""
    return gettext(
        "No epsilon: a list experiment gives no local differential privacy "
        "guarantee. A count between the lowest and the highest does not say "
        "which items apply, but a respondent shown the longer list who reports 0 "
        "(none apply) has said No to the sensitive item, and one who reports "
        "%(top)s (all apply) has said Yes. Choose control items so that few "
        "respondents have all or none true, for example items that rarely go "
        "together. Respondents are told exactly this."
    ) % {"top": design.items + 1}


def list_precision(
    design: ListExperiment, n: int, prevalence: float = DEFAULT_PREVALENCE
) -> str:
    """The difference in means' expected half-width with ``n`` responses, by
    the core's planner (control items taken as independent, each true for
    half of the respondents: the largest variance such items can have)."""
    tr = active_translator()
    points = 100 * expected_precision(design, n, prevalence, level=LEVEL)
    return gettext(
        "With %(people)s and a prevalence of %(prevalence)s, the %(level)s interval "
        "of the difference in means is expected to be about ±%(points)s percentage "
        "points, if the control items are independent and each true for half of "
        "the respondents; lists whose items go together less often do better."
    ) % {
        "people": ngettext("%(n)s respondent", "%(n)s respondents", n)
        % {"n": count_text(n)},
        "prevalence": percent(prevalence, tr),
        "level": percent(LEVEL, tr),
        "points": decimal_text(points, 1),
    }


def list_warning(design: ListExperiment) -> str | None:
    """Why such a question cannot be published here, if it cannot."""
    if settings.ALLOW_UNBOUNDED_DESIGNS:
        return None
    return gettext(
        "A list experiment has no finite epsilon, and this site does not allow "
        "such designs: a survey with this question cannot be published here."
    )


def summary(
    design: ListExperiment,
    labels: Sequence[str],
    n: int | None,
    *,
    language: str | None = None,
    prevalence: float = DEFAULT_PREVALENCE,
) -> dict[str, Any]:
    """The builder's preview: no epsilon, no band, the design in words."""
    respondent = None
    if language and language != "en":
        with translation.override(language):
            respondent = design.describe(labels, active_translator())
    return {
        "band": "none",
        "band_name": gettext("no local DP guarantee"),
        "band_meaning": gettext(
            "A count hides which items apply, except at the floor (0) and the "
            "ceiling (all items) of the longer list, where it reveals the "
            "sensitive answer."
        ),
        "warning": list_warning(design),
        "design": design.to_dict(),
        "epsilon": None,
        "epsilon_text": str(NO_EPSILON),
        "epsilon_statement": str(NO_EPSILON),
        "randomized": True,
        "sentence": list_sentence(design),
        "observer": list_observer(design),
        "n": n if n is not None and n >= 1 else None,
        "prevalence": prevalence,
        "precision": (
            list_precision(design, n, prevalence) if n is not None and n >= 1 else None
        ),
        "respondent_language": language,
        "respondent_sentence": respondent,
    }


# This kind's design is described by its own summary above.
DESIGN_SENTENCES: dict[str, Callable[[Any, Sequence[str]], str]] = {}


def epsilon_text(design: ListExperiment) -> str:
    """The publish page's epsilon: none, never a number."""
    return str(NO_EPSILON)
