"""Covariates of a regression and the model matrix they make.

Treatment (dummy) coding: an intercept first, then for each categorical
covariate one column per level other than its reference level, and for each
numeric covariate (a count asked directly) one column holding the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from estimation.inference.logistic import FloatArray

INTERCEPT = "(Intercept)"


@dataclass(frozen=True)
class Factor:
    """A categorical covariate: a direct question, coded against a reference level.

    ``levels`` are the option labels in code order; ``reference`` is the code of
    the reference level, whose coefficient is absorbed in the intercept.

    The model matrix asks a covariate only for its ``column_names``, its
    ``encode``-d columns for a column of ``patterns``, a ``label`` for a value
    and to ``validate`` the values, so a numeric covariate (once numeric
    questions exist) is another class with those four methods, one column and
    the value itself as its label.
    """

    name: str
    levels: tuple[str, ...]
    reference: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a covariate needs a name, got {self.name!r}")
        object.__setattr__(self, "levels", tuple(str(v) for v in self.levels))
        if len(self.levels) < 2:
            raise ValueError(f"covariate {self.name} needs at least 2 levels")
        if len(set(self.levels)) != len(self.levels):
            raise ValueError(f"covariate {self.name} names a level twice")
        if isinstance(self.reference, bool) or not isinstance(
            self.reference, int | np.integer
        ):
            raise ValueError(
                f"the reference of {self.name} must be a level code, "
                f"got {self.reference!r}"
            )
        if not 0 <= self.reference < len(self.levels):
            raise ValueError(
                f"the reference of {self.name} must be a code from 0 to "
                f"{len(self.levels) - 1}, got {self.reference}"
            )

    @property
    def column_names(self) -> tuple[str, ...]:
        """``name=level`` for every level but the reference."""
        return tuple(
            f"{self.name}={level}"
            for code, level in enumerate(self.levels)
            if code != self.reference
        )

    def encode(self, values: NDArray[Any]) -> FloatArray:
        """Dummy columns (one per non-reference level) for a column of codes."""
        codes = np.asarray(values)
        kept = [c for c in range(len(self.levels)) if c != self.reference]
        dummies = codes[:, None] == np.array(kept)[None, :]
        return np.asarray(dummies, dtype=np.float64)

    def label(self, value: float) -> str:
        return self.levels[int(value)]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "levels": list(self.levels),
            "reference": self.reference,
        }

    def validate(self, values: NDArray[Any]) -> None:
        """Raise a ValueError naming the first code that is not a level."""
        bad = (values != np.round(values)) | (values < 0) | (values >= len(self.levels))
        if bad.any():
            raise ValueError(
                f"covariate {self.name}: {float(values[bad][0]):g} is not a level code "
                f"(a whole number from 0 to {len(self.levels) - 1})"
            )


@dataclass(frozen=True)
class Numeric:
    """A numeric covariate: a count from ``minimum`` to ``maximum`` asked
    directly, entering the model as one column, its value (the coefficient is
    the change in log-odds per unit). It has no reference level. ``whole``
    False: any number in the range (a number typed with decimals)."""

    name: str
    minimum: float
    maximum: float
    reference: None = None
    whole: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a covariate needs a name, got {self.name!r}")
        if not self.minimum < self.maximum:
            raise ValueError(
                f"covariate {self.name} needs a range of values, got "
                f"{self.minimum} to {self.maximum}"
            )

    @property
    def column_names(self) -> tuple[str, ...]:
        return (self.name,)

    def encode(self, values: NDArray[Any]) -> FloatArray:
        return np.asarray(values, dtype=np.float64).reshape(-1, 1)

    def label(self, value: float) -> str:
        return f"{value:g}"

    def validate(self, values: NDArray[Any]) -> None:
        """Raise a ValueError naming the first value outside the whole numbers
        of the range (any number of it, if not ``whole``)."""
        bad = (values < self.minimum) | (values > self.maximum) | ~np.isfinite(values)
        if self.whole:
            bad |= values != np.round(values)
        if bad.any():
            kind = "whole number" if self.whole else "number"
            raise ValueError(
                f"covariate {self.name}: {float(values[bad][0]):g} is not a {kind} "
                f"from {self.minimum:g} to {self.maximum:g}"
            )

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "numeric": True,
            "range": [self.minimum, self.maximum],
            **({} if self.whole else {"whole": False}),
        }


Covariate = Factor | Numeric


def model_matrix(
    factors: Sequence[Covariate], patterns: NDArray[Any]
) -> tuple[FloatArray, list[str], list[str | None]]:
    """Intercept, then each factor's dummy columns: the matrix, its column
    names and the term (factor name) of each column."""
    blocks = [np.ones((patterns.shape[0], 1))]
    names: list[str] = [INTERCEPT]
    terms: list[str | None] = [None]
    for index, factor in enumerate(factors):
        blocks.append(factor.encode(patterns[:, index]))
        names.extend(factor.column_names)
        terms.extend([factor.name] * len(factor.column_names))
    return np.hstack(blocks), names, terms
