"""Simulated check-all-that-apply respondents, for tests and benchmarks.

:func:`randomize_items` is the browser's procedure (``randomizeItems`` in
``surveys/kinds/multiselect/static/page.js``)
step for step: one uniform draw per item, in item order, through the yes/no
rule of :func:`estimation.simulate.randomize`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from estimation.designs import DENOMINATOR
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.simulate import randomize

IntArray = NDArray[np.int64]


def randomize_items(
    ticked: Sequence[bool], design: UnaryEncoding, uniforms: Sequence[int]
) -> int:
    """The reported bit mask for one answer, given one uniform per item."""
    if len(ticked) != design.m or len(uniforms) != design.m:
        raise ValueError(f"give one tick and one uniform per item ({design.m})")
    spec = design.bit_design.client_spec()
    mask = 0
    for i, (tick, uniform) in enumerate(zip(ticked, uniforms, strict=True)):
        mask |= randomize(int(bool(tick)), spec, uniform) << i
    return mask


def simulate_masks(
    design: UnaryEncoding, truths: ArrayLike, rng: np.random.Generator
) -> IntArray:
    """Reported bit masks for an ``(n, m)`` array of true ticks, vectorized."""
    truths = np.asarray(truths, dtype=bool)
    if truths.ndim != 2 or truths.shape[1] != design.m:
        raise ValueError(f"truths must be an (n, {design.m}) array of ticks")
    keep_below = np.where(
        truths,
        design.bit_design.matrix_counts[1, 0],
        design.bit_design.matrix_counts[0, 0],
    )
    uniform = rng.integers(0, DENOMINATOR, size=truths.shape, dtype=np.int64)
    bits = (uniform >= keep_below).astype(np.int64)
    masks: IntArray = (bits << np.arange(design.m, dtype=np.int64)).sum(axis=1)
    return masks


def simulate_ticked(
    design: UnaryEncoding, truths: ArrayLike, rng: np.random.Generator
) -> IntArray:
    """How often each item is sent ticked, for an ``(n, m)`` array of true ticks.

    Bits are independent given the answers, so each item's count is a sum of
    two binomials; the cost does not grow with ``n``.
    """
    truths = np.asarray(truths, dtype=bool)
    carriers = truths.sum(axis=0)
    others = truths.shape[0] - carriers
    counts: IntArray = rng.binomial(carriers, design.p) + rng.binomial(others, design.q)
    return counts.astype(np.int64)
