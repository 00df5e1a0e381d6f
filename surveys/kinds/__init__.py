"""The question kinds of the platform side, and the one place that registers them.

Each kind is a package under ``surveys/kinds/`` named as its pure-core twin
(``estimation/kinds/``), playing the same roles (``builder``: the designs and
options the builder allows; ``text``: its sentences, preview summary and
epsilon for researchers; ``run``: the rows an estimate run saves for it, and
how the dashboard shows and compares them), as
each database backend of Django plays ``base`` and ``operations``. Code outside a kind's package asks this registry instead
of naming the kind. Kind packages are services: interfaces and services may
import them, models may not. This module itself is a table and a lookup by
name that imports nothing of ours, so models read it: ``Question.Kind`` and
the question's flags come from :data:`KIND_TABLE`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["KINDS", "KIND_TABLE", "KindEntry", "KindRole", "kind_module"]


@dataclass(frozen=True)
class KindEntry:
    """One question kind: what ``Question.Kind`` stores and shows, its package
    under surveys/kinds/, and what models need to know of it."""

    value: str
    label: str | Promise
    package: str
    # Randomized: asked with a design that protects the answer. A kind asked
    # plainly is what subgroups are made of.
    sensitive: bool = True
    # Its options are the counts 0 .. M, in order: numbers, the same in every
    # language.
    counts: bool = False
    # The device draws a group and an instruction and the respondent answers:
    # the report is ``2 * group + answer`` (estimation/kinds/instructed/).
    device_instructs: bool = False
    # Answered with a number typed as it is (its options are ranges of it):
    # a model takes the number, not the range.
    typed_number: bool = False
    # Its answers are levels a response can be grouped by: a kind asked
    # plainly whose answers are its respondents' own words is no category,
    # so it never makes a stratum, a subgroup, a covariate, a breakdown, a
    # display condition's source or a comprehension check.
    stratifies: bool = True
    # Its answers are sealed in the browser for the survey's team key
    # (surveys/sealing/): the survey needs one before it is published.
    needs_team_key: bool = False


# Every question kind, in the order the builder has always listed them (the
# order of ``Question.Kind.choices`` and of its migrations).
KIND_TABLE: tuple[KindEntry, ...] = (
    KindEntry("yes_no", _("Yes / no (randomized)"), "binary"),
    KindEntry("multiple_choice", _("Multiple choice (randomized)"), "choice"),
    KindEntry(
        "direct", _("Direct, not sensitive (asked plainly)"), "direct", sensitive=False
    ),
    KindEntry(
        "multi_select", _("Check all that apply (randomized per item)"), "multiselect"
    ),
    KindEntry(
        "count", _("Count: how many times (0 to a maximum)"), "count", counts=True
    ),
    KindEntry(
        "instructed",
        _("Yes / no with a device instruction (cheating detection or lie detector)"),
        "instructed",
        device_instructs=True,
    ),
    KindEntry(
        "rating_scale",
        _("Rating scale: ordered points (asked plainly)"),
        "scale",
        sensitive=False,
    ),
    KindEntry(
        "numeric",
        _("Number, such as an age in years (asked plainly)"),
        "numeric",
        sensitive=False,
        typed_number=True,
    ),
    KindEntry(
        "free_text",
        _(
            "Free text, typed in the respondent's own words (asked plainly, "
            "not protected)"
        ),
        "freetext",
        sensitive=False,
        stratifies=False,
    ),
    KindEntry(
        "list_experiment",
        _("List experiment: how many of these apply (item count)"),
        "listexperiment",
    ),
    # Not randomized (so not ``sensitive``: no design protects it), and no
    # category: encrypted in the browser for the research team's key, its
    # stored answer is a ciphertext no one on the server can read
    # (surveys/kinds/sealed/).
    KindEntry(
        "sealed_text",
        _("Open answer, sealed (only the research team can read it)"),
        "sealed",
        sensitive=False,
        stratifies=False,
        needs_team_key=True,
    ),
)

# A question's kind (``Question.Kind``'s value) -> its package under
# surveys/kinds/.
KINDS: dict[str, str] = {entry.value: entry.package for entry in KIND_TABLE}


# Roles whose names a kind may leave out: what its module does not define is
# taken from the role's defaults, as each Django database backend's
# operations inherit BaseDatabaseOperations; a kind with nothing of its own
# needs no module for the role.
ROLE_DEFAULTS: dict[str, str] = {
    "exports": "surveys.kinds.base_exports",
    "page": "surveys.kinds.base_page",
    "answer": "surveys.kinds.base_answer",
}


class KindRole:
    """A kind's module for a role with defaults: a name is looked up in the
    kind's own module, then in the role's defaults module."""

    def __init__(self, own: ModuleType | None, defaults: ModuleType) -> None:
        self._own = own
        self._defaults = defaults

    def __getattr__(self, name: str) -> Any:
        if self._own is not None and hasattr(self._own, name):
            return getattr(self._own, name)
        return getattr(self._defaults, name)

    def __repr__(self) -> str:
        own = self._own.__name__ if self._own is not None else None
        return f"<KindRole {own} over {self._defaults.__name__}>"


def kind_module(kind: str, role: str) -> ModuleType | KindRole:
    """The module playing ``role`` (``builder``, ``text`` ...) for the question
    kind ``kind``, imported by name as Django loads a database backend; a
    ValueError names a kind or role that does not exist. For a role with
    defaults (:data:`ROLE_DEFAULTS`) a :class:`KindRole` over the kind's
    module, if it has one, and the defaults."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    name = f"surveys.kinds.{KINDS[kind]}.{role}"
    own = _own_module(name)
    if own is None and role not in ROLE_DEFAULTS:
        raise ValueError(f"kind {kind!r} has no {role!r} module")
    if role not in ROLE_DEFAULTS:
        assert own is not None
        return own
    return KindRole(own, importlib.import_module(ROLE_DEFAULTS[role]))


@cache
def _own_module(name: str) -> ModuleType | None:
    """The module ``name``, or None if there is none. Remembered: Python
    keeps the modules it imported but not those it failed to find, and a kind
    without a role of its own was looked for on disk again at every call
    (eight times a submission of the demo's four questions)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None
