"""The statistics of randomized response: designs, estimates, intervals, planning.

Pure NumPy and SciPy: no Django, no settings, no I/O, so that the estimator the
platform runs is the one anybody can run on exported data.
"""

from estimation import kinds
from estimation.bands import BANDS, Band, privacy_band
from estimation.designs import (
    DESIGNS,
    Design,
    Direct,
    design_from_dict,
    design_from_epsilon,
    survey_epsilon,
)
from estimation.inference.intervals import DEFAULT_METHOD, SHARE_METHODS
from estimation.inference.regression import Factor, LogisticFit, fit_logistic
from estimation.kinds import *  # noqa: F403
from estimation.planning import (
    detectable_prevalence,
    expected_half_width,
    observer_posterior,
    sample_size,
    variance_inflation,
    what_an_observer_learns,
)
from estimation.results import (
    Notice,
    QuestionEstimate,
    estimate_question,
    estimate_subgroups,
)
from estimation.simulate import randomize, simulate_counts, simulate_reports

CI_METHODS = tuple(SHARE_METHODS)

__all__ = [
    "BANDS",
    "Band",
    "CI_METHODS",
    "DEFAULT_METHOD",
    "DESIGNS",
    "Design",
    "Direct",
    "Factor",
    "LogisticFit",
    "Notice",
    "QuestionEstimate",
    "design_from_dict",
    "design_from_epsilon",
    "detectable_prevalence",
    "estimate_question",
    "estimate_subgroups",
    "expected_half_width",
    "fit_logistic",
    "observer_posterior",
    "privacy_band",
    "randomize",
    "sample_size",
    "simulate_counts",
    "simulate_reports",
    "survey_epsilon",
    "variance_inflation",
    "what_an_observer_learns",
]
# The kinds' design classes (``from estimation import Warner``), as the registry
# of kinds lists them: only it and the kinds' own packages name a kind.
__all__ += kinds.__all__
