"""A run's default subgroup comparisons, saved with it by the worker.

The results page compares each breakdown's shown groups (about two hundred
maximum-likelihood fits for ten questions and two direct ones). A finished
run's counts never change, so the worker computes the comparisons the page
shows by default (no ``ref-`` or ``vs-`` chosen) once, right after the run,
and saves them on the run; a fresh web process then reads them with the run
instead of fitting them on its first view. A saved comparison is used only
when the inputs it was computed from (the shown groups, their labels and
counts, the design, the level) are the ones the page has, so a change of the
small-cell rule or of a label falls back to computing, as do runs saved
before comparisons were.

They are kept as JSON text rather than ``jsonb``: text keeps every float as
Python wrote it (``jsonb`` would turn ``-0.0`` into ``0`` and refuses an
unbounded ratio's ``Infinity``), so what is read equals what was computed.
Tuples and the frozen dataclasses a comparison is made of are tagged, and a
dataclass is rebuilt only from this project's modules.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from estimation.runs.group_comparisons import GroupComparison

logger = logging.getLogger(__name__)

# The version of the saved text; another is ignored (the page computes).
FORMAT = 1
# Where a saved dataclass may come from: the comparisons' own classes and the
# values a kind compares its groups by.
MODULES = ("estimation.", "surveys.kinds.")


@dataclass(frozen=True)
class SavedComparison:
    """A comparison and the inputs it was computed from."""

    inputs: tuple[Any, ...]
    comparison: GroupComparison


def encode(value: Any) -> Any:
    """``value`` as JSON data that :func:`decode` turns back into an equal value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        return {
            "$dataclass": f"{kind.__module__}:{kind.__qualname__}",
            "fields": {
                f.name: encode(getattr(value, f.name))
                for f in dataclasses.fields(value)
            },
        }
    if isinstance(value, tuple):
        return {"$tuple": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"$dict": {k: encode(v) for k, v in value.items()}}
    if value is None or isinstance(value, (bool, str)):
        return value
    # NumPy's scalars as Python's, which they equal.
    if isinstance(value, float):
        return float(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    raise TypeError(f"cannot save a {type(value).__name__} with a comparison")


def decode(data: Any) -> Any:
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "$tuple" in data:
        return tuple(decode(item) for item in data["$tuple"])
    if "$dict" in data:
        return {k: decode(v) for k, v in data["$dict"].items()}
    module, _, name = data["$dataclass"].partition(":")
    if not module.startswith(MODULES):
        raise ValueError(f"a saved comparison names {module}")
    kind = getattr(importlib.import_module(module), name)
    if not dataclasses.is_dataclass(kind):
        raise ValueError(f"{module}:{name} is not a dataclass")
    return kind(**{k: decode(v) for k, v in data["fields"].items()})


def comparisons_text(saved: Mapping[str, SavedComparison]) -> str:
    """The text saved on the run: ``{"format": 1, "comparisons": {key: ...}}``.
    A comparison that cannot be written is left out (the page computes it)."""
    entries = {}
    for key, entry in saved.items():
        try:
            entries[key] = encode(entry)
        except TypeError:
            logger.warning("comparison %s not saved with its run", key, exc_info=True)
    return json.dumps({"format": FORMAT, "comparisons": entries}, sort_keys=True)


def comparisons_read(text: str) -> dict[str, SavedComparison]:
    """The comparisons saved with a run; none when there are none or they
    cannot be read (the page then computes them, as before)."""
    if not text:
        return {}
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            return {}
        found = {key: decode(entry) for key, entry in data["comparisons"].items()}
    except (ValueError, TypeError, KeyError, AttributeError, ImportError):
        logger.warning("a run's saved comparisons are unreadable", exc_info=True)
        return {}
    return {k: v for k, v in found.items() if isinstance(v, SavedComparison)}


__all__ = ["SavedComparison", "comparisons_read", "comparisons_text"]
