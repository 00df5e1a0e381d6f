"""A regression fit as a plain-text table, for reading in a terminal.

Works from the JSON-ready dict (``LogisticFit.to_dict()``, wrapped as the
command line prints it), so what is shown is exactly what the JSON says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from estimation.contract import p_value_text


def _number(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "—"
    return f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    """The results contract's p-value: "< 0.001", else three decimals."""
    return p_value_text(value)


def _interval(pair: Sequence[float | None] | None, digits: int = 3) -> str:
    if pair is None:
        return "—"
    low, high = (
        "-inf" if pair[0] is None else f"{pair[0]:.{digits}f}",
        "inf" if pair[1] is None else f"{pair[1]:.{digits}f}",
    )
    return f"[{low}, {high}]"


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
    percent = f"{fit['level'] * 100:g}%"
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
        f"Standard errors from the {fit['std_errors']}; {percent} intervals",
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
            f"OR Wald {percent}",
            f"OR profile {percent}",
        ),
        [
            (
                c["name"],
                _number(c["estimate"]),
                _number(c["std_error"]),
                _number(c["z"], 2),
                _p(c["p_value"]),
                _number(c["odds_ratio"]),
                _interval(c["odds_ratio_wald_ci"]),
                _interval(c["odds_ratio_profile_ci"]),
            )
            for c in fit["coefficients"]
        ],
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
    lines += ["", "Predicted prevalence per covariate pattern"]
    lines += _grid(
        (*names, "n", "prevalence", f"{percent} interval")
        if names
        else ("n", "prevalence", f"{percent} interval"),
        [
            (
                *(p["pattern"][name] for name in names),
                str(p["n"]),
                _number(p["prevalence"]),
                _interval(p["ci"]),
            )
            for p in fit["predicted"]
        ],
    )
    if fit["warnings"]:
        lines += ["", "Warnings"]
        lines += [f"- {warning}" for warning in fit["warnings"]]
    return "\n".join(lines) + "\n"
