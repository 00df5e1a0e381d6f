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

Rebuilding them from the text (some four thousand values for ten questions)
was a fresh web process's largest cost on its first view of a run's page, so
what one process decoded is shared decoded too (:class:`Decoded`, kept in the
site's cache by estimation/runs/selectors.py), with the fields each of its
classes had: a process whose classes differ decodes the text instead.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
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


def decode(data: Any, classes: set[str] | None = None) -> Any:
    """The value :func:`encode` wrote; the dataclasses rebuilt are named in
    ``classes`` when given."""
    if isinstance(data, list):
        return [decode(item, classes) for item in data]
    if not isinstance(data, dict):
        return data
    if "$tuple" in data:
        return tuple(decode(item, classes) for item in data["$tuple"])
    if "$dict" in data:
        return {k: decode(v, classes) for k, v in data["$dict"].items()}
    module, _, name = data["$dataclass"].partition(":")
    if not module.startswith(MODULES):
        raise ValueError(f"a saved comparison names {module}")
    kind = getattr(importlib.import_module(module), name)
    if not dataclasses.is_dataclass(kind):
        raise ValueError(f"{module}:{name} is not a dataclass")
    if classes is not None:
        classes.add(data["$dataclass"])
    return kind(**{k: decode(v, classes) for k, v in data["fields"].items()})


@lru_cache(maxsize=256)
def class_fields(named: str) -> tuple[str, ...] | None:
    """The field names of the dataclass ``module:name`` in this process;
    None when there is no such dataclass (here)."""
    module, _, name = named.partition(":")
    if not module.startswith(MODULES):
        return None
    try:
        kind = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


@dataclass(frozen=True)
class Decoded:
    """A run's comparisons as one process decoded them, and the fields each
    class they are made of had there (``layout``). Shared decoded, they are
    used only where :meth:`current` (every class still has those fields), as
    decoding the text would have checked."""

    comparisons: dict[str, SavedComparison]
    layout: tuple[tuple[str, tuple[str, ...]], ...]

    def current(self) -> bool:
        return all(class_fields(named) == fields for named, fields in self.layout)


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
    return comparisons_decoded(text).comparisons


def comparisons_decoded(text: str) -> Decoded:
    """:func:`comparisons_read`, with the layout of the classes rebuilt."""
    if not text:
        return Decoded(comparisons={}, layout=())
    classes: set[str] = set()
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            return Decoded(comparisons={}, layout=())
        found = {
            key: decode(entry, classes) for key, entry in data["comparisons"].items()
        }
    except (ValueError, TypeError, KeyError, AttributeError, ImportError):
        logger.warning("a run's saved comparisons are unreadable", exc_info=True)
        return Decoded(comparisons={}, layout=())
    layout = tuple((named, class_fields(named) or ()) for named in sorted(classes))
    for entry in found.values():
        if isinstance(entry, SavedComparison):
            entry.comparison.digest  # noqa: B018 (named once, shared with it)
    return Decoded(
        comparisons={k: v for k, v in found.items() if isinstance(v, SavedComparison)},
        layout=layout,
    )


__all__ = [
    "Decoded",
    "SavedComparison",
    "comparisons_decoded",
    "comparisons_read",
    "comparisons_text",
]
