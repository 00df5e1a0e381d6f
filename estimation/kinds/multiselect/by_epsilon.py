"""Unary encodings set by the whole answer's epsilon.

A researcher states how private a check-all-that-apply question is by the
epsilon respondents are told, the one the site's limits and the survey's total
apply to: ``epsilon``, for any two answers (:mod:`.designs`). The encodings
are parametrised by their published one-hot epsilon instead, so these
functions translate between the two, from the unrounded formulas of one
bit's worst log ratio:

- symmetric unary encoding: one bit has ``epsilon_one_hot / 2``, so the whole
  answer has ``m * epsilon_one_hot / 2`` and ``epsilon_one_hot = 2 epsilon / m``;
- optimized unary encoding: one bit has ``ln((e^epsilon_one_hot + 1) / 2)``
  (its ``ln(p / q)``, which is above ``ln((1 - q) / (1 - p))``), so
  ``epsilon_one_hot = ln(2 e^(epsilon / m) - 1)``.

The stored design keeps its parameter ``epsilon_one_hot``, so a design means
what it always meant. On the browser's grid ``q`` is rounded up, which moves
each bit's log ratio down by at most ``2^-32 (1/p + 1/q)``, so the whole answer's stated
epsilon is at or just below the one asked for, and a question typed at a site's
limit publishes under it: below by at most ``2e-6`` for every ``m`` and epsilon
the platform allows (the most at epsilon 15 over two items, where ``q`` is
smallest), by about ``1e-8`` at the usual ones (tests check a grid of both).
"""

from __future__ import annotations

import math

from estimation.designs import MIN_EPSILON, _option_count, _positive_epsilon
from estimation.kinds.multiselect.designs import (
    UNARY_DESIGNS,
    UnaryEncoding,
    unary_from_dict,
)

__all__ = ["one_hot_epsilon", "unary_from_epsilon", "whole_epsilon"]


def _encoding(name: str) -> str:
    if name not in UNARY_DESIGNS:
        raise ValueError(
            f"unknown unary encoding {name!r}; choose one of {', '.join(UNARY_DESIGNS)}"
        )
    return name


def one_hot_epsilon(name: str, m: int, epsilon: float) -> float:
    """The ``epsilon_one_hot`` of encoding ``name`` over ``m`` items whose
    whole answer has ``epsilon`` (before the grid's rounding)."""
    name, m, epsilon = (
        _encoding(name),
        _option_count(m, "m"),
        _positive_epsilon(epsilon),
    )
    if name == "sue":
        one_hot = 2 * epsilon / m
    else:
        one_hot = math.log1p(2 * math.expm1(epsilon / m))
    if one_hot < MIN_EPSILON:
        lowest = whole_epsilon(name, m, MIN_EPSILON)
        raise ValueError(
            f"epsilon must be at least {lowest:.3g} for {m} items: each item's "
            f"share of {epsilon:g} is too small for the browser's grid"
        )
    return one_hot


def whole_epsilon(name: str, m: int, epsilon_one_hot: float) -> float:
    """The whole answer's epsilon of encoding ``name`` over ``m`` items with
    this ``epsilon_one_hot`` (before the grid's rounding): the inverse of
    :func:`one_hot_epsilon`."""
    name, m = _encoding(name), _option_count(m, "m")
    one_hot = _positive_epsilon(epsilon_one_hot)
    if name == "sue":
        return m * one_hot / 2
    return m * math.log1p(math.expm1(one_hot) / 2)


def unary_from_epsilon(name: str, m: int, epsilon: float) -> UnaryEncoding:
    """Encoding ``name`` over ``m`` items whose whole answer has ``epsilon``."""
    return unary_from_dict(
        {"name": name, "m": m, "epsilon_one_hot": one_hot_epsilon(name, m, epsilon)}
    )
