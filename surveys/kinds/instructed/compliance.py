"""A saved compliance estimate as the dashboard reads it: each parameter in
words, cheating detection's bounds on the prevalence, and the estimate within
each answer to a direct question. The rows themselves are the instructed
kind's run role (surveys/kinds/instructed/run.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from estimation.contract import HARDLY_INFORMED_FLAG, SHARE, read
from estimation.runs.breakdowns import Breakdown, Subgroup, group_labels
from estimation.runs.estimate_views import EstimateView
from estimation.runs.models import QuestionEstimate
from surveys.models import Question

# What each parameter is, in words for the dashboard, by model.
PARAMETER_WORDS = {
    "cdm": {
        "pi": ("π", gettext_noop("honest Yes: carriers who follow the instruction")),
        "gamma": ("γ", gettext_noop("cheaters: answer No whatever the device says")),
        "beta": (
            "β",
            gettext_noop("honest No: non-carriers who follow the instruction"),
        ),
    },
    "sld": {
        "pi": ("π", gettext_noop("carriers: the prevalence, honest or not")),
        "t": ("t", gettext_noop("the share of carriers who answer truthfully")),
    },
}


@dataclass(frozen=True)
class ParameterView:
    name: str
    symbol: str
    meaning: str
    estimate: float | None
    std_error: float | None
    ci_lower: float | None
    ci_upper: float | None

    @property
    def flags(self) -> tuple[str, ...]:
        """The results contract's flags of this share (estimation/contract.py)."""
        return read(
            estimate=self.estimate,
            ci_lower=self.ci_lower,
            ci_upper=self.ci_upper,
            std_error=self.std_error,
            bounds=SHARE,
        ).flags

    @property
    def hardly_informed(self) -> bool:
        return HARDLY_INFORMED_FLAG in self.flags


@dataclass(frozen=True)
class ComplianceView:
    """A saved compliance estimate as the dashboard shows it."""

    model: str
    reported: tuple[int, ...]
    parameters: tuple[ParameterView, ...]
    statistic: float
    p_value: float
    level: float
    # Cheating detection: the prevalence is only bounded, between pi and
    # pi + gamma = 1 - beta; each bound with its interval.
    bounds: tuple[ParameterView, ParameterView] | None

    @property
    def hardly_informed(self) -> bool:
        """Some parameter's interval covers more than half of 0-100%."""
        return any(p.hardly_informed for p in self.parameters)

    @property
    def flags(self) -> tuple[str, ...]:
        """Every flag of its parameters: a subgroup's row carries a caution
        for them as other kinds' rows do for their options."""
        return tuple(sorted({f for p in self.parameters for f in p.flags}))

    @property
    def yes_shares(self) -> tuple[float | None, float | None]:
        """The share of Yes answers in each group."""
        r = self.reported
        return tuple(  # type: ignore[return-value]
            r[2 * g + 1] / (r[2 * g] + r[2 * g + 1])
            if r[2 * g] + r[2 * g + 1]
            else None
            for g in (0, 1)
        )


def compliance_view(saved: dict[str, Any] | None) -> ComplianceView | None:
    """The dashboard's view of a row's ``compliance``; None without an estimate."""
    if not saved or "parameters" not in saved:
        return None
    words = PARAMETER_WORDS[saved["model"]]
    parameters = tuple(
        ParameterView(
            name=p["name"],
            symbol=words[p["name"]][0],
            # Read when the page is drawn, so in its language.
            meaning=gettext(words[p["name"]][1]),
            estimate=p["estimate"],
            std_error=p["std_error"],
            ci_lower=p["ci_lower"],
            ci_upper=p["ci_upper"],
        )
        for p in saved["parameters"]
    )
    bounds = None
    if saved["model"] == "cdm":
        by_name = {p.name: p for p in parameters}
        pi, beta = by_name["pi"], by_name["beta"]
        upper = ParameterView(
            name="pi_plus_gamma",
            symbol="π + γ",
            meaning=gettext("the prevalence if every cheater is a carrier (1 − β)"),
            estimate=1 - beta.estimate if beta.estimate is not None else None,
            std_error=beta.std_error,
            ci_lower=1 - beta.ci_upper if beta.ci_upper is not None else None,
            ci_upper=1 - beta.ci_lower if beta.ci_lower is not None else None,
        )
        bounds = (pi, upper)
    test = saved["compliance_test"]
    return ComplianceView(
        model=saved["model"],
        reported=tuple(saved["reported"]),
        parameters=parameters,
        statistic=test["statistic"],
        p_value=test["p_value"],
        level=saved["level"],
        bounds=bounds,
    )


def compliance_breakdown(
    by: Question, rows: dict[int, QuestionEstimate], min_size: int
) -> Breakdown:
    """A question with a device instruction within each answer to ``by``, with
    :func:`~estimation.runs.breakdowns.breakdown`'s small-cell rule; a group large enough is shown even
    without an estimate (one randomization group unanswered)."""
    shown, hidden = [], 0
    for option, group_label in enumerate(group_labels(by)):
        row = rows.get(option)
        if row is None or row.n == 0 or row.n < min_size:
            hidden += 1
            continue
        shown.append(
            Subgroup(
                label=group_label,
                estimate=EstimateView(n=row.n, options=(), warnings=()),
                code=option,
                compliance=compliance_view(row.compliance),
            )
        )
    return Breakdown(by=by, shown=tuple(shown), hidden=hidden, min_size=min_size)
