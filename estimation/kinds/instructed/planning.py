"""Planning a question with a device instruction at an expected prevalence.

The prevalence is pi, what the results report: honest Yes under cheating
detection, carriers under the stochastic lie detector. The design needs the
other shares too, so the planner assumes, as a documented default, that under
cheating detection 5% of those who are not honest Yes answer No whatever they
are told (``gamma = 0.05 (1 - pi)``, ``beta = 0.95 (1 - pi)``) and that under
the lie detector 80% of carriers answer truthfully (``t = 0.8``). pi's variance
per response is the inverse of one respondent's expected information
(:func:`~estimation.kinds.instructed.comparisons.pi_variance_per_response`),
the variance of its moment estimate, which is linear in the two groups' Yes
shares.
"""

from __future__ import annotations

from estimation.kinds.instructed.comparisons import pi_variance_per_response
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.planning import Planned

# Of those who are not honest Yes, the share who answer No whatever they are
# told (cheating detection).
CHEATERS = 0.05
# Of the carriers, the share who answer truthfully (lie detector).
TRUTHFUL = 0.80


def assumed_shares(design: InstructedDesign, prevalence: float) -> tuple[float, float]:
    """``(a, b)``, the design's two shares, at pi ``prevalence``: each group's
    Yes share is ``a + forced_yes[g] * b``."""
    if design.model == "cdm":
        return prevalence, (1 - CHEATERS) * (1 - prevalence)
    return TRUTHFUL * prevalence, 1 - prevalence


def planned(design: InstructedDesign, prevalence: float) -> Planned:
    """The planner's role (:mod:`estimation.planner`): pi and the variance of
    its estimate per response."""
    a, b = assumed_shares(design, prevalence)
    return Planned(prevalence, pi_variance_per_response(design, a, b))
