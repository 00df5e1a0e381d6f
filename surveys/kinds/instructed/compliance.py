"""A saved compliance estimate as the dashboard reads it: each parameter in
words, and cheating detection's bounds on the prevalence. The rows themselves
are the instructed kind's run role (surveys/kinds/instructed/run.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from estimation.contract import HARDLY_INFORMED_FLAG, SHARE, read

# What each parameter is, in words for the dashboard, by model.
PARAMETER_WORDS = {
    "cdm": {
        "pi": ("π", "honest Yes: carriers who follow the instruction"),
        "gamma": ("γ", "cheaters: answer No whatever the device says"),
        "beta": ("β", "honest No: non-carriers who follow the instruction"),
    },
    "sld": {
        "pi": ("π", "carriers: the prevalence, honest or not"),
        "t": ("t", "the share of carriers who answer truthfully"),
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
            meaning=words[p["name"]][1],
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
            meaning="the prevalence if every cheater is a carrier (1 − β)",
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
