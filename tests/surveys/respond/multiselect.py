"""A check-all-that-apply question added to a published survey directly, with
the spec the browser would receive (the builder does not offer the kind yet)."""

from __future__ import annotations

from estimation.kinds.multiselect.designs import SymmetricUnary, UnaryEncoding
from surveys.builder.services import spec_digest
from surveys.models import Question, Survey


def add_multiselect(
    survey: Survey, items: list[str], design: UnaryEncoding | None = None
) -> Question:
    design = design or SymmetricUnary(m=len(items), epsilon_one_hot=1.0)
    spec = design.client_spec()
    return Question.objects.create(
        survey=survey,
        position=99,
        text="Which of these have you done?",
        kind=Question.Kind.MULTI_SELECT,
        options=items,
        design=design.to_dict(),
        spec=spec,
        spec_version=spec_digest(spec),
    )
