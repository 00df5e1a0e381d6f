"""What each question kind allows: its designs, its options, its answers.

The builder's pages, the API and the demo ask this module which designs a kind
offers and whether a design fits a question's options; question writes
(questions.py) validate through it. Each kind answers for itself in its
``builder`` role (``surveys/kinds/<kind>/builder.py``), found by the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from surveys.kinds import KINDS, kind_module
from surveys.models import Question

DESIGNS_FOR_KIND: dict[str, tuple[str, ...]] = {
    kind: kind_module(kind, "builder").DESIGNS for kind in KINDS
}
# Kinds answered No or Yes, in the survey's language.
YES_NO_KINDS = tuple(
    kind for kind in KINDS if kind_module(kind, "builder").ANSWERED_YES_NO
)


def question_design(
    *, kind: str, options: Sequence[str], design: Mapping[str, Any]
) -> Any:
    """Validate a question's design against its kind and options: a core
    ``Design``, or the kind's own family (encodings, instructed designs)."""
    if kind not in DESIGNS_FOR_KIND:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    allowed = DESIGNS_FOR_KIND[kind]
    name = design.get("name") if isinstance(design, Mapping) else None
    if name not in allowed:
        raise ValidationError(
            {
                "design": gettext("A “%(kind)s” question uses %(designs)s.")
                % {
                    "kind": Question.Kind(kind).label,
                    "designs": gettext(" or ").join(allowed),
                }
            }
        )
    return kind_module(kind, "builder").build_design(options, design)


def check_optional(kind: str, optional: bool) -> None:
    """Refuse "Prefer not to answer" where the kind says it has no place."""
    reason = kind_module(kind, "builder").NOT_OPTIONAL if kind in KINDS else None
    if optional and reason:
        # The kind marks its reason for translation (gettext_noop).
        raise ValidationError({"optional": gettext(reason)})


def clean_options(kind: str, options: Sequence[str] | None, language: str) -> list[str]:
    if kind not in KINDS:
        raise ValidationError({"kind": f"Unknown question kind {kind!r}."})
    return kind_module(kind, "builder").clean_options(options, language=language)
