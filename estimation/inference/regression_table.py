"""A regression fit as a plain-text table, for reading in a terminal.

Works from the JSON-ready dict (``LogisticFit.to_dict()``, wrapped as the
command line prints it), so what is shown is exactly what the JSON says, and
under the results contract (estimation/contract.py) as the results page
shows it: a coefficient the fit cannot estimate reads "not estimable" instead
of a row of dashes, an odds ratio's interval lies in [0, inf) with an open end
written "no upper bound", predicted prevalences are percentages whose
intervals lie in 0-100% (none at the boundary, "not estimable" where the fit
gives none), ends written alike are one number, p-values read "< 0.001" or
have three decimals, and the warnings say each cause once
(estimation/inference/regression_cautions.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from estimation.contract import (
    DASH,
    HARDLY_INFORMED_FLAG,
    Reading,
    p_value_text,
    percent_text,
    range_text,
)
from estimation.inference.regression_cautions import fit_cautions
from estimation.inference.regression_results import prediction_reading

NOT_ESTIMABLE_TEXT = "not estimable"


def _number(value: float | None, digits: int = 3) -> str:
    if value is None:
        return DASH
    return f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    """The results contract's p-value: "< 0.001", else three decimals."""
    return p_value_text(value)


def _odds_interval(pair: Sequence[float | None] | None, digits: int = 3) -> str:
    """An odds ratio's interval: ``[0.512, 1.834]``; an open lower end is 0
    and an open upper end "no upper bound"; ends written alike are one number."""
    if pair is None:
        return DASH
    low = 0.0 if pair[0] is None else max(float(pair[0]), 0.0)
    if pair[1] is None:
        return f"[{low:.{digits}f}, no upper bound]"
    return _bracketed(
        range_text(low, pair[1], lambda v: _number(v, digits), separator=", ")
    )


def _bracketed(text: str) -> str:
    return f"[{text}]" if ", " in text else text


def _prevalence_interval(reading: Reading, at_boundary: bool) -> str:
    if not reading.has_interval:
        return "none (at the boundary)" if at_boundary else NOT_ESTIMABLE_TEXT
    shown = _bracketed(
        range_text(reading.ci_lower, reading.ci_upper, percent_text, separator=", ")
    )
    if reading.flagged(HARDLY_INFORMED_FLAG):
        shown += " (hardly informed)"
    return shown


@dataclass(frozen=True)
class _Term:
    label: str
    estimable: bool
    note: str | None


@dataclass(frozen=True)
class _Predicted:
    flags: tuple[str, ...]
    at_boundary: bool


def _coefficient_row(c: dict[str, Any]) -> tuple[str, ...]:
    if not c.get("estimable", c.get("estimate") is not None):
        return (c["name"], NOT_ESTIMABLE_TEXT, *[DASH] * 6)
    return (
        c["name"],
        _number(c["estimate"]),
        _number(c["std_error"]),
        _number(c["z"], 2),
        _p(c["p_value"]),
        _number(c["odds_ratio"]),
        _odds_interval(c["odds_ratio_wald_ci"]),
        _odds_interval(c["odds_ratio_profile_ci"]),
    )


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned first column, the rest right-aligned, two spaces apart."""
    table = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = []
    for row in table:
        cells = [
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "-" * len(lines[0]))
    return lines


def _design(design: dict[str, Any]) -> str:
    params = ", ".join(f"{k} = {v}" for k, v in design.items() if k != "name")
    return f"{design['name']} ({params})" if params else str(design["name"])


def _question(column: dict[str, Any]) -> str:
    text = column.get("text")
    return f"{column['column']} (“{text}”)" if text else str(column["column"])


def render(output: dict[str, Any]) -> str:
    """The fit as text: model, coefficients and odds ratios, tests, predictions."""
    fit = output["fit"]
    level = f"{fit['level'] * 100:g}%"
    covariates = ", ".join(c["column"] for c in output["covariates"]) or "nothing"
    lines = [
        f"Logistic regression of {_question(output['outcome'])} on {covariates}",
        f"Outcome design: {_design(fit['design'])}",
        f"Responses: {output['responses']}; used {output['used']}, dropped "
        f"{output['dropped']} ({output['dropped_reason']})",
        f"Log-likelihood {_number(fit['log_likelihood'])} (intercept only "
        f"{_number(fit['null_log_likelihood'])}); "
        + (
            f"converged in {fit['iterations']} iterations"
            if fit["converged"]
            else "DID NOT CONVERGE"
        ),
        f"Standard errors from the {fit['std_errors']}; {level} intervals",
        "",
        "Coefficients (log-odds) and odds ratios",
    ]
    lines += _grid(
        (
            "term",
            "estimate",
            "std. error",
            "z",
            "p-value",
            "odds ratio",
            f"OR Wald {level}",
            f"OR profile {level}",
        ),
        [_coefficient_row(c) for c in fit["coefficients"]],
    )
    lines += ["", "Likelihood-ratio tests (each covariate dropped; the whole model)"]
    lines += _grid(
        ("term", "chi2", "df", "p-value"),
        [
            (t["term"], _number(t["chi2"]), str(t["df"]), _p(t["p_value"]))
            for t in [*fit["lr_tests"], fit["model_test"]]
        ],
    )
    names = [c["name"] for c in fit["covariates"]]
    readings = [
        prediction_reading(p["prevalence"], p["ci"], bool(p.get("at_boundary")))
        for p in fit["predicted"]
    ]
    lines += ["", "Predicted prevalence per covariate pattern"]
    lines += _grid(
        (*names, "n", "prevalence", f"{level} interval"),
        [
            (
                *(p["pattern"][name] for name in names),
                str(p["n"]),
                percent_text(reading.estimate) or DASH,
                _prevalence_interval(reading, bool(p.get("at_boundary"))),
            )
            for p, reading in zip(fit["predicted"], readings, strict=True)
        ],
    )
    cautions = fit_cautions(
        [str(w) for w in fit["warnings"]],
        [
            _Term(c["name"], bool(c.get("estimable", True)), c.get("note"))
            for c in fit["coefficients"]
        ],
        [
            _Predicted(r.flags, bool(p.get("at_boundary")))
            for p, r in zip(fit["predicted"], readings, strict=True)
        ],
    )
    if cautions:
        lines += ["", "Warnings"]
        lines += [f"- {caution}" for caution in cautions]
    return "\n".join(lines) + "\n"
