"""A sensitive question within each answer to a direct question: the groups
shown, and those hidden below the smallest size a page may show."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from estimation.contract import NOTICE_FLAGS, Caution
from estimation.runs.estimate_views import EstimateView, Notice, estimate_view
from estimation.runs.group_comparisons import GroupComparison
from estimation.runs.models import QuestionEstimate
from estimation.runs.readings import group_cautions
from surveys.models import Question

# The label of the stratum level an optional direct question has for "no answer".
NO_ANSWER = "No answer"


@dataclass(frozen=True)
class Subgroup:
    label: str
    estimate: EstimateView
    # The direct question's option that defines the group (its stratum level).
    code: int = 0
    # A kind estimated by parameters rather than options (a question with a
    # device instruction): its own view of the group's estimate, with its
    # ``flags``; None while the group has none.
    compliance: Any = None

    @property
    def flags(self) -> tuple[str, ...]:
        """The results contract's flags of the group's estimate, its own
        view's included: the row's caution and the table's cautions read them."""
        own = getattr(self.compliance, "flags", ())
        return tuple(sorted({*self.estimate.flags, *own}))


@dataclass(frozen=True)
class Breakdown:
    """A sensitive question within each answer to one direct question."""

    by: Question
    shown: tuple[Subgroup, ...]
    hidden: int
    min_size: int
    # Between the shown groups only; None with fewer than two.
    comparison: GroupComparison | None = None

    @property
    def cautions(self) -> tuple[Caution, ...]:
        """One caution per cause for the shown groups, naming them."""
        return group_cautions([(g.label, g.flags) for g in self.shown])

    @property
    def notices(self) -> tuple[tuple[str, Notice], ...]:
        """The shown groups' own notices, as estimates.csv gives them."""
        return subgroup_notices((g.label, g.estimate) for g in self.shown)


# Notices about the distribution of single counts: a group's row on the card
# gives its mean, which they do not concern; the card says them once for the
# whole question, and the export's rows, which give each group's distribution,
# carry them.
DISTRIBUTION_NOTICES = frozenset(
    {"distribution_not_identified", "distribution_coarsened"}
)


def subgroup_notices(
    groups: Iterable[tuple[str, EstimateView]],
) -> tuple[tuple[str, Notice], ...]:
    """Each group's notices from its estimate (the ``warnings`` that
    estimates.csv and the JSON export give every subgroup row), with its
    label; those a flag's caution already says (:data:`NOTICE_FLAGS`: beyond
    the design, too few responses) are left to that caution, and those about
    single counts (:data:`DISTRIBUTION_NOTICES`) to the export."""
    return tuple(
        (label, notice)
        for label, estimate in groups
        for notice in estimate.warnings
        if notice.code not in NOTICE_FLAGS and notice.code not in DISTRIBUTION_NOTICES
    )


def breakdown(
    by: Question,
    rows: dict[int, QuestionEstimate],
    labels: Sequence[str],
    min_size: int,
) -> Breakdown:
    """Subgroups of one direct question, hiding those below ``min_size``; an
    optional one has a last group of those who did not answer it."""
    shown, hidden = [], 0
    for option, group_label in enumerate(group_labels(by)):
        row = rows.get(option)
        view = (
            estimate_view(
                row.n,
                labels,
                row.options.all(),
                row.warnings,
                row.mean,
                row.distribution,
            )
            if row is not None
            else None
        )
        if view is None or view.n < min_size:
            hidden += 1
            continue
        shown.append(Subgroup(label=group_label, estimate=view, code=option))
    return Breakdown(by=by, shown=tuple(shown), hidden=hidden, min_size=min_size)


def group_labels(by: Question) -> list[str]:
    """The subgroups of a direct question: its options, then "No answer" if
    it is optional (the stratum's level k, surveys/respond/strata.py)."""
    return [*by.options, NO_ANSWER] if by.optional else list(by.options)
