"""The truncated geometric (discrete Laplace) mechanism for counts 0..m.

For a true count ``t`` the browser adds noise ``z`` with ``P(z) proportional to
alpha**|z|`` and clamps the result to ``[0, m]`` (Ghosh, Roughgarden and
Sundararajan 2009). With ``c = (1 - alpha) / (1 + alpha)``::

    P(report r | truth t) = c * alpha**|r - t|          for 0 < r < m
    P(report 0 | truth t) = alpha**t / (1 + alpha)
    P(report m | truth t) = alpha**(m - t) / (1 + alpha)

**Epsilon for the range.** Any two counts are treated as neighbours: the
respondent is protected whichever two counts an observer wants to tell apart.
The worst column is a report at either end, where the likelihood ratio of true
counts 0 and ``m`` is ``alpha**-m``, so ``epsilon = m * ln(1 / alpha)``. Two
counts ``d`` apart are distinguished only with ``d * ln(1 / alpha)``. The design
is parametrised by the range's epsilon, and ``alpha = exp(-epsilon / m)``.

The matrix is not uniform-plus-diagonal, so it overrides ``matrix_counts`` and
is estimated by :mod:`estimation.inference.general`. Its integer rows are built for the
first half of the true counts and mirrored (``counts[t, r] = counts[m - t,
m - r]``), so the rounding keeps the mechanism's symmetry exactly.

References
----------
Ghosh, A., Roughgarden, T., Sundararajan, M. (2009). Universally
utility-maximizing privacy mechanisms. STOC, 351-360.
Inusah, S., Kozubowski, T. J. (2006). A discrete analogue of the Laplace
distribution. J. Statistical Planning and Inference 136(3), 1090-1102.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from estimation.designs import (
    DENOMINATOR,
    DENOMINATOR_BITS,
    Design,
    _positive_epsilon,
    _sentence,
)
from estimation.words import ENGLISH, Translator, percent_at_most

# The largest count range offered: (m + 1)**2 thresholds reach the browser.
MAX_COUNT = 100
# Rounding to the browser's grid can raise the epsilon by a hair; the noise is
# widened by at most this many steps until the integer epsilon is at or below
# the one asked for.
_MAX_WIDENINGS = 50
# Then the shrink doubles: from 1e-12, 60 doublings pass any step there is.
_MAX_DOUBLINGS = 60


def _maximum_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        if not (isinstance(value, float) and value.is_integer()):
            raise ValueError(f"m must be a whole number, got {value!r}")
    count = int(value)
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"m must be between 1 and {MAX_COUNT}, got {count}")
    return count


def geometric_probabilities(m: int, step_epsilon: float) -> NDArray[np.float64]:
    """The exact matrix ``[truth, report]`` for ``alpha = exp(-step_epsilon)``."""
    alpha = math.exp(-step_epsilon)
    distance = np.abs(np.subtract.outer(np.arange(m + 1), np.arange(m + 1)))
    matrix = (1 - alpha) / (1 + alpha) * np.exp(-step_epsilon * distance)
    matrix[:, 0] = np.exp(-step_epsilon * distance[:, 0]) / (1 + alpha)
    matrix[:, m] = np.exp(-step_epsilon * distance[:, m]) / (1 + alpha)
    return matrix


def _integer_rows(exact: NDArray[np.float64]) -> NDArray[np.int64]:
    """Rows rounded to the grid, summing to DENOMINATOR exactly, centro-symmetric.

    The rounding remainder of each row goes to its diagonal, the report that
    the row's own truth already makes most likely.
    """
    m = exact.shape[0] - 1
    counts = np.zeros_like(exact, dtype=np.int64)
    for t in range(m // 2 + 1):
        row = np.rint(exact[t] * DENOMINATOR).astype(np.int64)
        if 2 * t == m:
            # The middle row is its own mirror image.
            row[m - t + 1 :] = row[:t][::-1]
        if row.min() < 1:
            raise ValueError(
                "epsilon is too large for this range: some report's probability "
                f"is below 2**-{DENOMINATOR_BITS + 1} and cannot be represented"
            )
        row[t] += DENOMINATOR - int(row.sum())
        counts[t] = row
        counts[m - t] = row[::-1]
    return counts


def _epsilon_of(counts: NDArray[np.int64]) -> float:
    columns = counts.T
    return max(math.log(int(c.max()) / int(c.min())) for c in columns)


@dataclass(frozen=True, repr=False)
class Geometric(Design):
    """Truncated geometric noise on a count from 0 to ``m``, with ``epsilon``
    for the whole range (any two counts are neighbours)."""

    name: ClassVar[str] = "geometric"
    uniform_plus_diagonal: ClassVar[bool] = False
    maximum: int = field(metadata={"param": "m"})
    epsilon_target: float = field(metadata={"param": "epsilon"})

    def __init__(self, m: int, epsilon: float) -> None:
        object.__setattr__(self, "maximum", _maximum_count(m))
        object.__setattr__(self, "epsilon_target", _positive_epsilon(epsilon))
        Design.__post_init__(self)

    @property
    def k(self) -> int:
        return self.maximum + 1

    def exact_base(self) -> tuple[float, ...]:
        raise ValueError("the geometric design is not uniform plus diagonal")

    @cached_property
    def _rounded(self) -> tuple[float, NDArray[np.int64]]:
        step = self.epsilon_target / self.maximum
        previous = 0.0
        for widening in range(_MAX_WIDENINGS + _MAX_DOUBLINGS):
            counts = _integer_rows(geometric_probabilities(self.maximum, step))
            excess = _epsilon_of(counts) - self.epsilon_target
            if excess <= 0:
                counts.setflags(write=False)
                return step, counts
            # Shrink the step by the excess (plus a hair, so each try moves).
            # Where the excess is the grid's own rounding, a shrink that small
            # leaves every integer as it was: after the first widenings (which
            # published designs were built by, so they stay as they are) the
            # shrink doubles until the integers move.
            shrink = excess / self.maximum + 1e-12
            if widening >= _MAX_WIDENINGS:
                shrink = max(shrink, 2 * previous)
            previous = shrink
            step -= shrink
        raise AssertionError("unreachable: the shrink doubles past any rounding")

    @property
    def step_epsilon(self) -> float:
        """``ln(1 / alpha)``: the epsilon between two neighbouring counts, as
        rounded; at most ``epsilon / m``."""
        return self._rounded[0]

    @cached_property
    def matrix_counts(self) -> NDArray[np.int64]:
        """The mechanism on the grid; its epsilon never exceeds the one asked for."""
        return self._rounded[1]

    def mechanism(
        self, labels: Sequence[str] | None = None, translator: Translator = ENGLISH
    ) -> str:
        tr = translator
        changed = 1.0 - float(self.matrix.diagonal().min())
        return (
            tr.gettext(
                "Your device secretly adds a random amount to your number before "
                "sending it; a result below 0 is sent as 0, and one above "
                "%(maximum)s as %(maximum)s."
            )
            % {"maximum": self.maximum}
            + " "
            + _sentence(
                tr.gettext(
                    "it sends a number other than yours at most %(changed)s of the "
                    "time, and every number from 0 to %(maximum)s can be sent "
                    "whatever your answer."
                )
                % {"changed": percent_at_most(changed, tr), "maximum": self.maximum}
            )
        )
