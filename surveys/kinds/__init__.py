"""The question kinds of the platform side, and the one place that registers them.

Each kind is a package under ``surveys/kinds/`` named as its pure-core twin
(``estimation/kinds/``), playing the same roles (``builder``: the designs and
options the builder allows; ``text``: its sentences, preview summary and
epsilon for researchers; ``run``: the rows an estimate run saves for it, and
how the dashboard shows and compares them), as
each database backend of Django plays ``base`` and ``operations``. Code outside a kind's package asks this registry instead
of naming the kind. Kind packages are services: interfaces and services may
import them, models may not.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["KINDS", "kind_module"]

# A question's kind (``Question.Kind``'s value) -> its package under
# surveys/kinds/, in the order the builder has always listed them.
KINDS: dict[str, str] = {
    "yes_no": "binary",
    "multiple_choice": "choice",
    "direct": "direct",
    "multi_select": "multiselect",
    "count": "count",
    "instructed": "instructed",
}


def kind_module(kind: str, role: str) -> ModuleType:
    """The module playing ``role`` (``builder``, ``text`` ...) for the question
    kind ``kind``, imported by name as Django loads a database backend; a
    ValueError names a kind or role that does not exist."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    name = f"surveys.kinds.{KINDS[kind]}.{role}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        raise ValueError(f"kind {kind!r} has no {role!r} module") from error
