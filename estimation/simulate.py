"""Simulated respondents, for tests and benchmarks.

:func:`randomize` is the browser's procedure step for step (``static/js/rr.js``
does the same with ``crypto.getRandomValues``), so Python and JavaScript agree
on what a design does by construction and by test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from estimation.designs import DENOMINATOR, Design

IntArray = NDArray[np.int64]


def randomize(truth: int, spec: Mapping[str, Any], uniform: int) -> int:
    """The report for a true answer, given a uniform integer in ``[0, denominator)``.

    The first option whose cumulative threshold exceeds ``uniform``.
    """
    row: Sequence[int] = spec["thresholds"][truth]
    for report, threshold in enumerate(row):
        if uniform < threshold:
            return report
    raise ValueError(
        f"uniform must be below the denominator {spec['denominator']}, got {uniform}"
    )


def simulate_reports(
    design: Design, truths: ArrayLike, rng: np.random.Generator
) -> IntArray:
    """Randomize each true answer as the browser would, vectorized."""
    truths = np.asarray(truths, dtype=np.int64)
    if truths.size and (truths.min() < 0 or truths.max() >= design.k):
        raise ValueError(
            f"true answers must be option indices from 0 to {design.k - 1}"
        )
    thresholds = np.cumsum(design.matrix_counts, axis=1)
    uniform = rng.integers(0, DENOMINATOR, size=truths.shape, dtype=np.int64)
    reports: IntArray = (uniform[..., None] >= thresholds[truths]).sum(axis=-1)
    return reports.astype(np.int64)


def simulate_counts(
    design: Design, prevalence: ArrayLike, n: int, rng: np.random.Generator
) -> IntArray:
    """Report counts of ``n`` respondents whose true answers follow ``prevalence``.

    Draws true answers, then each true answer's reports, from multinomials, so
    the cost does not grow with ``n``.
    """
    prevalence = np.asarray(prevalence, dtype=float)
    if (
        prevalence.shape != (design.k,)
        or np.any(prevalence < 0)
        or not np.isclose(prevalence.sum(), 1)
    ):
        raise ValueError(
            f"prevalence must be {design.k} non-negative shares summing to 1"
        )
    truth_counts = rng.multinomial(n, prevalence / prevalence.sum())
    counts = np.zeros(design.k, dtype=np.int64)
    for truth, count in enumerate(truth_counts):
        counts += rng.multinomial(count, design.matrix[truth])
    return counts
