"""A response's answers to the direct questions, as one small integer.

Each answer row carries the stratum of its response, so the estimate run gets
every breakdown from the same single GROUP BY as the overall counts, instead of
joining the answers table to itself. An optional direct question has a level
more than it has options, its last one (code k) for "no answer"; a required one
has exactly k, as before optional questions existed.
"""

from __future__ import annotations

from collections.abc import Sequence


def stratum_size(options: int, optional: bool) -> int:
    """The number of levels of a direct question in the stratum code."""
    return options + 1 if optional else options


def stratum_encode(levels: Sequence[int], sizes: Sequence[int]) -> int:
    """Mixed-radix code of one answer (level) per direct question."""
    code, scale = 0, 1
    for level, size in zip(levels, sizes, strict=True):
        code += level * scale
        scale *= size
    return code


def stratum_decode(code: int, sizes: Sequence[int]) -> list[int]:
    """The answer to each direct question, from a stratum code."""
    levels = []
    for size in sizes:
        code, level = divmod(code, size)
        levels.append(level)
    return levels
