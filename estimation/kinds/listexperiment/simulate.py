"""Simulated list-experiment respondents, for tests, coverage studies and the
benchmark (``benchmarks/list_experiment.py``).

Each respondent is treated with the design's ``treatment_share``, holds the
sensitive trait with ``prevalence``, and control item ``j`` with ``shares[j]``.
Items are independent unless ``correlation`` (in [0, 1]) is given: then, with
that probability, a respondent's items all follow one common uniform draw
(item ``j`` holds when it is below ``shares[j]``), so the marginal shares stay
the same while all-or-nothing lists (and so floor and ceiling answers) become
common. ``design_effect`` (in [0, 1]) is the chance that a *treatment*
respondent leaves out each control item that holds: the sensitive item then
lowers the control-item count, which the design assumes never happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from estimation.kinds.listexperiment.designs import ListExperiment

# Respondents drawn at once when many replications are asked for.
CHUNK = 1_000_000


@dataclass(frozen=True)
class Respondents:
    """One row per respondent: treated, the sensitive trait, the count reported."""

    treat: NDArray[np.bool_]
    trait: NDArray[np.bool_]
    y: NDArray[np.int64]


def _share(name: str, value: float) -> float:
    value = float(value)
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return value


def _shares(
    design: ListExperiment, shares: float | Sequence[float]
) -> NDArray[np.float64]:
    array = np.broadcast_to(np.asarray(shares, dtype=float), (design.items,)).copy()
    if np.any(array < 0) or np.any(array > 1):
        raise ValueError("control item shares must be in [0, 1]")
    return array


def simulate_respondents(
    design: ListExperiment,
    n: int,
    prevalence: float,
    shares: float | Sequence[float],
    rng: np.random.Generator,
    *,
    correlation: float = 0.0,
    design_effect: float = 0.0,
) -> Respondents:
    """``n`` respondents (see the module's docstring)."""
    prevalence = _share("prevalence", prevalence)
    correlation = _share("correlation", correlation)
    design_effect = _share("design_effect", design_effect)
    q = _shares(design, shares)
    treat = rng.random(n) < design.treatment_share
    trait = rng.random(n) < prevalence
    own = rng.random((n, design.items))
    common = rng.random((n, 1))
    together = rng.random((n, 1)) < correlation
    holds = np.where(together, common, own) < q
    if design_effect > 0:
        dropped = rng.random((n, design.items)) < design_effect
        holds &= ~(dropped & treat[:, None])
    y = holds.sum(axis=1) + (treat & trait)
    return Respondents(treat, trait, y.astype(np.int64))


def respondent_codes(
    design: ListExperiment, respondents: Respondents
) -> NDArray[np.int64]:
    """The code each respondent sends (:meth:`ListExperiment.code`)."""
    return np.where(respondents.treat, design.items + 1 + respondents.y, respondents.y)


def simulate_counts(
    design: ListExperiment,
    n: int,
    prevalence: float,
    shares: float | Sequence[float],
    rng: np.random.Generator,
    *,
    replications: int = 1,
    correlation: float = 0.0,
    design_effect: float = 0.0,
) -> NDArray[np.int64]:
    """Saved counts (length ``2J + 3``) of ``replications`` surveys of ``n``
    respondents each, one row per survey."""
    size = design.code_count()
    rows = []
    per_chunk = max(1, CHUNK // max(n, 1))
    done = 0
    while done < replications:
        batch = min(per_chunk, replications - done)
        drawn = simulate_respondents(
            design,
            n * batch,
            prevalence,
            shares,
            rng,
            correlation=correlation,
            design_effect=design_effect,
        )
        codes = respondent_codes(design, drawn).reshape(batch, n)
        offsets = (np.arange(batch) * size)[:, None]
        rows.append(
            np.bincount((codes + offsets).ravel(), minlength=batch * size).reshape(
                batch, size
            )
        )
        done += batch
    return np.concatenate(rows).astype(np.int64)
