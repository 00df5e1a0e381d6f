"""The analysis bundle's scripts and README, written for one survey.

``analysis.py`` runs our command line (from the copy of the pure core the
bundle carries in ``lib/``) on the bundle's files and checks the result
against the dashboard's saved estimates; ``analysis.R`` estimates each
yes/no question with ``RRreg::RRuni`` (Heck and Moshagen 2018), using the model
and parameters the codebook's ``r_packages`` gives, and each other question
with the moment estimate the dashboard calls "unbiased". The dashboard's own
numbers are written into both, and each script says whether they agree, to a
stated tolerance (the R side's checks: :mod:`surveys.results.bundle_r_checks`).
"""

from __future__ import annotations

from typing import Any

from estimation import design_from_dict
from surveys.kinds import kind_module
from surveys.results.bundle_r_checks import R_CHECKS

PYTHON_SCRIPT = '''#!/usr/bin/env python3
"""Reproduce the estimates of {title} from this folder's answers.csv and codebook.json.

Needs Python 3.11 or newer with NumPy and SciPy (pip install numpy scipy);
the platform's statistical core, as it was when this bundle was made, is in
lib/estimation and is used from there: no checkout of the platform is needed.

    python analysis.py

It runs the core's command line (python -m estimation estimate) with the
interval method and level the dashboard used, prints each question's
estimates, then the largest difference from the dashboard's saved numbers
in estimates.json, and exits with status 1 if that is above 1e-9.
--json prints the command line's whole output instead (subgroups too).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# First on the path: the core that produced the dashboard's numbers, not
# another version that may be installed.
sys.path.insert(0, str(HERE / "lib"))
# The interval method and level of the run the dashboard shows (None: the
# command line's defaults, as no run had finished when this was downloaded).
CI_METHOD = {ci_method}
LEVEL = {level}
FIELDS = ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper")
TOLERANCE = 1e-9


def estimate() -> dict:
    if sys.version_info < (3, 11):
        sys.exit("analysis.py needs Python 3.11 or newer")
    try:
        from estimation.__main__ import main as command_line
    except ImportError as error:
        sys.exit(
            f"analysis.py could not load the statistical core in lib/ ({{error}}); "
            "it needs NumPy and SciPy: pip install numpy scipy"
        )
    arguments = ["estimate", "--codebook", str(HERE / "codebook.json")]
    if CI_METHOD is not None:
        arguments += ["--ci-method", CI_METHOD]
    if LEVEL is not None:
        arguments += ["--level", repr(LEVEL)]
    output = io.StringIO()
    status = command_line([*arguments, str(HERE / "answers.csv")], stdout=output)
    if status != 0:
        sys.exit(status)  # the command line has said why on standard error
    return json.loads(output.getvalue())


def parameters_of(estimate: dict | None) -> list:
    """A result's parameters as the dashboard saves them: a device
    instruction's as they are; a list experiment's two estimators as "dim"
    (the difference in means) and "ml"."""
    if not estimate:
        return []
    if "difference_in_means" in estimate:
        pairs = [("dim", estimate["difference_in_means"]), ("ml", estimate["ml"])]
        return [{{"name": name, **p}} for name, p in pairs if p]
    return estimate.get("parameters", [])


def differences(mine: dict, saved: dict):
    """|ours - saved| for every option number the dashboard shows, and for a
    kind estimated by parameters every parameter's."""
    for option in saved["options"]:
        for name in FIELDS:
            yield abs(mine[name][option["code"]] - option[name])
    ours = {{p["name"]: p for p in parameters_of(mine)}}
    for parameter in (saved.get("compliance") or {{}}).get("parameters", []):
        for name in ("estimate", "std_error", "ci_lower", "ci_upper"):
            if parameter[name] is not None:
                yield abs(ours[parameter["name"]][name] - parameter[name])


def largest_difference(result: dict, dashboard: dict) -> float:
    by_column = {{q["column"]: q for q in result["questions"]}}
    largest = 0.0
    for saved in dashboard["questions"]:
        mine = by_column[saved["column"]]
        largest = max([largest, *differences(mine["result"], saved)])
        groups = {{
            (g["group_column"], g["group_option_code"]): g["result"]
            for g in mine["subgroups"]
        }}
        for group in saved["subgroups"]:
            key = (group["group_column"], group["group_option_code"])
            largest = max([largest, *differences(groups[key], group)])
    return largest


def print_table(result: dict) -> None:
    book = json.loads((HERE / "codebook.json").read_text(encoding="utf-8"))
    labels = {{
        q["column"]: [o["label"] for o in q["options"]] for q in book["questions"]
    }}
    print(f"Interval: {{result['ci_method']}} at level {{result['level']}}")
    for question in result["questions"]:
        column, estimate = question["column"], question["result"]
        print(f"\\n{{column}}: {{question['text']}} (n = {{question['n']}})")
        if parameters_of(estimate):
            for p in parameters_of(estimate):
                print(f"  {{p['name']}}: {{p['estimate']}} [{{p['ci_lower']}}, {{p['ci_upper']}}]")
            continue
        if not estimate or estimate.get("estimate") is None:
            print("  not estimated (no answers to estimate from)")
            continue
        for code, label in enumerate(labels[column]):
            print(
                f"  {{label}}: {{estimate['estimate'][code]:.4f}} "
                f"[{{estimate['ci_lower'][code]:.4f}}, {{estimate['ci_upper'][code]:.4f}}]"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the full JSON")
    options = parser.parse_args(argv)
    result = estimate()
    if options.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    print_table(result)
    dashboard = json.loads((HERE / "estimates.json").read_text(encoding="utf-8"))
    if dashboard["run"] is None:
        print("\\nNo dashboard estimates to compare with yet.")
        return 0
    largest = largest_difference(result, dashboard)
    print(f"\\nLargest difference from the dashboard: {{largest:.3g}}")
    return 0 if largest <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
'''

R_HEAD = """# Reproduce the prevalence estimates of {title} in R.
#
# Run from this folder: Rscript analysis.R
# Needs RRreg (Heck and Moshagen 2018, JSS 85(2)): install.packages("RRreg")
#
# What agrees with the dashboard, and to what tolerance:
# - Yes/no questions and those with a device instruction: RRuni(response,
#   model, p) with the model and parameters of each question's design
#   (codebook.json, r_packages). When RRuni's moment estimate lies inside the
#   parameter space it is the dashboard's estimate, to TOLERANCE (1e-9);
#   when it does not, RRuni searches the likelihood with optim instead, good
#   to SEARCH_TOLERANCE (1e-4).
# - Standard errors: RRreg divides by n - 1 where the dashboard divides by n
#   (the observed information), in every model (Warner, forced response,
#   the unrelated question, crosswise, and in each group of cheating
#   detection and the lie detector), so its standard errors are the
#   dashboard's times sqrt(n / (n - 1)); the comparison applies that factor.
#   After a likelihood search they are not compared (optim's Hessian at the
#   boundary).
# - A fit that fails (an estimate outside [0, 1], NaN, or a search that ended
#   in a corner such as pi = 1 with gamma = -1) is reported as FAILED, not as
#   an estimate; the dashboard's number is the maximum-likelihood estimate
#   within the parameter space.
# - Intervals: RRuni gives none. The dashboard's ({method} at level {level}
#   here) come from `python analysis.py`.
# - Other questions: RRuni has no model for these designs; the moment estimate
#   (the dashboard's "unbiased" column) is computed directly and compared to
#   TOLERANCE; the maximum-likelihood estimates with intervals come from
#   `python analysis.py` (the platform's command line).

library(RRreg)
answers <- read.csv("answers.csv")
"""


def r_string(text: str) -> str:
    """``text`` as an R string literal."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def r_value(value: Any) -> str:
    """A number or list of numbers as R code: ``0.75`` or ``c(0.1, 0.2)``."""
    if isinstance(value, list):
        return "c(" + ", ".join(r_value(v) for v in value) + ")"
    return repr(float(value))


def _comment(text: str) -> str:
    return " ".join(text.split())


def _dashboard(saved: dict[str, Any] | None, field: str) -> list[float | None]:
    if saved is None or not saved["options"]:
        return []
    return [o[field] for o in saved["options"]]


def _r_number(value: float | None) -> str:
    return "NA" if value is None else repr(float(value))


def _r_reports(entry: dict[str, Any]) -> str:
    """The column's randomized reports in R: a validation arm's direct
    answers (codes k..2k-1) are not reports of the design."""
    column, k = entry["column"], len(entry["options"])
    kept = f"!is.na(answers${column})"
    if entry.get("direct_codes"):
        kept += f" & answers${column} < {k}"
    return f"answers${column}[{kept}]"


def r_yes_no(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """RRuni on one yes/no question, checked against the dashboard's estimate
    and standard error (``compare`` in :data:`R_CHECKS`)."""
    column, model = entry["column"], entry["r_packages"]["RRreg"]
    estimate = _dashboard(saved, "estimate")
    std_error = _dashboard(saved, "std_error")
    dashboard = (
        f"c({_r_number(estimate[1])}, {_r_number(std_error[1])})"
        if estimate
        else "c(NA, NA)"
    )
    call = f'RRuni(response = {column}, model = "{model["model"]}", '
    call += f"p = {r_value(model['p'])}"
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: RRreg model {model['model']}\n"
        f"{column} <- {_r_reports(entry)}\n"
        + _r_fits(column, call)
        + f'compare("{column}", fit_{column}, moment_{column}, {dashboard}, '
        f"length({column}))\n"
    )


def _r_fits(column: str, call: str) -> str:
    """RRuni's fit, the same without its likelihood search (to tell whether it
    searched), an error kept as a failed fit, and its summary when it is one."""
    return (
        f"fit_{column} <- tryCatch({call}), error = identity)\n"
        f"moment_{column} <- tryCatch({call}, MLest = FALSE), error = identity)\n"
        f"if (is.null(fit_problem(fit_{column}))) print(summary(fit_{column}))\n"
    )


def r_other(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """The moment estimate of a k-option or direct question, in base R."""
    column, k = entry["column"], len(entry["options"])
    design = design_from_dict(entry["design"])
    labels = "c(" + ", ".join(r_string(o["label"]) for o in entry["options"]) + ")"
    unbiased = _dashboard(saved, "unbiased")
    head = (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: "
        + (
            "each option's moment estimate is (share reported - base) / "
            "diagonal, base and diagonal read off the matrix\n"
            if design.randomized
            else "asked plainly: the shares are the answers\n"
        )
    )
    fr_model = (
        "# RRreg's FR model takes this design too (not run here; see "
        "docs/methodology.md):\n"
        f'# RRuni(response = {column}, model = "FR", p = base_{column})\n'
        if design.randomized
        else ""
    )
    return (
        head + f"{column} <- {_r_reports(entry)}\n"
        f"shares_{column} <- tabulate({column} + 1, nbins = {k}) / length({column})\n"
        f"base_{column} <- {r_value([float(b) for b in design.base])}\n"
        f"unbiased_{column} <- (shares_{column} - base_{column}) / "
        f"{float(design.diagonal)!r}\n"
        f"names(unbiased_{column}) <- {labels}\n"
        f"dashboard_{column} <- "
        f"c({', '.join(_r_number(u) for u in unbiased) or 'NA'})\n"
        f'cat("{column} moment estimates:\\n"); print(unbiased_{column})\n'
        f'cat("dashboard (unbiased):\\n"); print(dashboard_{column})\n'
        f'agree("{column} moment estimates", unbiased_{column}, dashboard_{column})\n'
        + fr_model
    )


def r_model_fit(entry: dict[str, Any], fit: dict[str, Any]) -> str:
    """The dashboard's latest model fit refitted with ``RRreg::RRlog``.

    RRlog maximises the same likelihood (checked against RRreg's own code to
    about 3e-5 in the coefficients, the tolerance of its optimizer), so its
    coefficients and standard errors are the dashboard's when the answers are
    those the fit saw: the script says so to stated tolerances, and names a
    fit with a NaN or infinite coefficient as failed. (A kind whose model is
    another has its own, in its ``exports`` role.)
    """
    lines, formula = model_data_lines(entry, fit, "logistic regression")
    model = entry["r_packages"]["RRreg"] if entry["r_packages"] else None
    if model is None:
        lines.append(
            f"fit_model <- glm({formula}, family = binomial, data = model_data)"
        )
        lines.append("model_se <- sqrt(diag(vcov(fit_model)))")
    else:
        lines += [
            "set.seed(1)  # RRlog draws random starting values",
            f"fit_model <- RRlog({formula}, data = model_data, "
            f'model = "{model["model"]}", p = {r_value(model["p"])}, LR.test = FALSE)',
            "model_se <- sqrt(diag(fit_model$vcov))",
        ]
    lines.append("model_coef <- coef(fit_model)")
    lines += model_agreement_lines(fit["result"]["coefficients"], 1e-4)
    return "\n".join(lines) + "\n"


def model_data_lines(
    entry: dict[str, Any], fit: dict[str, Any], model: str
) -> tuple[list[str], str]:
    """R that keeps the answers the fit saw in ``model_data``, each factor
    with the fit's levels and reference; and the fit's formula."""
    result, outcome = fit["result"], entry["column"]
    covariates = result["covariates"]
    columns = [outcome] + [c["name"] for c in covariates]
    complete = " & ".join(f"!is.na(answers${c})" for c in columns)
    lines = [
        f"\n# Model fit {fit['id']} on the dashboard: {model} of "
        f"{outcome} (question {entry['number']}) on "
        f"{', '.join(c['name'] for c in covariates)}, fitted on {fit['n']} answers.",
        "# With more answers in answers.csv since, the numbers differ accordingly.",
        f"model_data <- answers[{complete}, ]",
    ]
    for covariate in covariates:
        if covariate.get("numeric"):
            continue  # a count asked plainly: one slope, the column as it is
        name, levels = covariate["name"], covariate["levels"]
        reference = levels[covariate["reference"]]
        lines.append(
            f"model_data${name} <- relevel(droplevels(factor(model_data${name}, "
            f"levels = 0:{len(levels) - 1}, labels = "
            f"c({', '.join(r_string(v) for v in levels)}))), ref = {r_string(reference)})"
        )
    formula = f"{outcome} ~ {' + '.join(c['name'] for c in covariates)}"
    return lines, formula


def model_agreement_lines(
    coefficients: list[dict[str, Any]], tolerance: float, by_position: bool = False
) -> list[str]:
    """R comparing ``model_coef`` and ``model_se`` (named as R names them, or
    ``by_position`` in the dashboard's order) with the dashboard's
    ``coefficients``, to ``tolerance`` per standard error and 2% in the
    standard errors; a NaN or infinite one is a failed fit."""
    ours: list[tuple[str, Any, Any]] = []
    for coefficient in coefficients:
        if coefficient["term"] is None:
            name = "(Intercept)"
        else:
            # R names a dummy column by the factor and the level, unseparated.
            name = coefficient["name"].replace("=", "", 1)
        ours.append((name, coefficient["estimate"], coefficient["std_error"]))
    names = ", ".join(r_string(n) for n, _, _ in ours)
    named = f"names(dashboard_coef) <- names(dashboard_se) <- c({names})"
    if by_position:
        named += "\nnames(model_coef) <- names(model_se) <- names(dashboard_coef)"
    return [
        f"dashboard_coef <- c({', '.join(_r_number(v) for _, v, _ in ours)})",
        f"dashboard_se <- c({', '.join(_r_number(v) for _, _, v in ours)})",
        named,
        "shown <- names(model_coef)",
        "if (!all(is.finite(c(model_coef, model_se[shown])))) {",
        '  cat("The model fit FAILED in R (a coefficient or standard error is NaN '
        'or infinite): not estimates.\\n")',
        "} else {",
        '  cat(sprintf("%s: R %.8f (SE %.8f); dashboard %.8f (SE %.8f)\\n", shown,',
        "      model_coef, model_se[shown], dashboard_coef[shown], "
        'dashboard_se[shown]), sep = "")',
        "  # The optimizer stops on the log-likelihood's relative change: the",
        "  # coefficients agree to a small share of their standard error, and the",
        "  # standard errors (the same likelihood's Hessian: no n - 1 here) to 2%.",
        "  unit <- pmax(1, dashboard_se[shown])",
        '  agree("model coefficients (per standard error)", model_coef / unit,',
        f"        dashboard_coef[shown] / unit, tolerance = {tolerance:g})",
        '  agree("model standard errors (ratio)", model_se[shown] / '
        "dashboard_se[shown],",
        "        rep(1, length(shown)), tolerance = 0.02)",
        "}",
    ]


def r_general(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """The moment estimates of a design with a general matrix (a count), in
    base R: the distribution solves t(P) pi = shares, and the mean count is
    the average of each report's score w, which solves P w = 0..m."""
    column, k = entry["column"], len(entry["options"])
    values = ", ".join(repr(float(p)) for row in entry["matrix"] for p in row)
    mean = (saved or {}).get("mean") or {}
    unbiased = _dashboard(saved, "unbiased")
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: P(report | truth) from the codebook\n"
        f"{column} <- {_r_reports(entry)}\n"
        f"P_{column} <- matrix(c({values}), nrow = {k}, byrow = TRUE)\n"
        f"shares_{column} <- tabulate({column} + 1, nbins = {k}) / length({column})\n"
        f"unbiased_{column} <- solve(t(P_{column}), shares_{column})\n"
        f"scores_{column} <- solve(P_{column}, 0:{k - 1})\n"
        f"mean_{column} <- mean(scores_{column}[{column} + 1])\n"
        f'cat("{column} moment estimates:\\n"); print(unbiased_{column})\n'
        f'cat("{column} mean count (unbiased):", mean_{column}, "dashboard:", '
        f'{_r_number(mean.get("unbiased"))}, "\\n")\n'
        f'agree("{column} mean count (unbiased)", mean_{column}, '
        f"{_r_number(mean.get('unbiased'))})\n"
        "# A linear solve's rounding grows with the matrix's condition number.\n"
        f'agree("{column} moment estimates", unbiased_{column}, '
        f"c({', '.join(_r_number(u) for u in unbiased) or 'NA'}), "
        f"tolerance = max(TOLERANCE, 1e-11 * kappa(P_{column}, exact = TRUE)))\n"
    )


def r_by_design(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """A question whose kind has no R of its own, by its design: RRuni where
    the codebook gives RRreg's model, else the moment estimates of a general
    matrix or of a base plus a diagonal (every kind's ``exports`` role has an
    ``r_question``; this is the default)."""
    if entry["r_packages"] is not None:
        return r_yes_no(entry, saved)
    if not design_from_dict(entry["design"]).uniform_plus_diagonal:
        return r_general(entry, saved)
    return r_other(entry, saved)


def r_script(
    book: dict[str, Any],
    estimates: dict[str, Any],
    model_fit: dict[str, Any] | None = None,
) -> str:
    """``analysis.R`` for a survey's codebook and saved estimates, and its
    latest model fit (``{"id", "outcome", "n", "result"}``) when there is one."""
    run = estimates["run"]
    saved = {q["column"]: q for q in estimates["questions"]}
    parts = [
        R_HEAD.format(
            title=_comment(book["survey"]["title"]),
            method=run["method_name"] if run else "no run yet",
            level=run["level"] if run else "-",
        ),
        R_CHECKS,
    ]
    for entry in book["questions"]:
        question = saved.get(entry["column"])
        exports = kind_module(entry["kind"], "exports")
        parts.append(exports.r_question(entry, question))
    if model_fit is not None:
        entries = {e["column"]: e for e in book["questions"]}
        entry = entries[model_fit["outcome"]]
        exports = kind_module(entry["kind"], "exports")
        parts.append(exports.r_model_fit(entry, model_fit))
    return "".join(parts)


def python_script(book: dict[str, Any], estimates: dict[str, Any]) -> str:
    """``analysis.py``: our command line on the bundle, checked against the dashboard."""
    run = estimates["run"]
    return PYTHON_SCRIPT.format(
        title=repr(book["survey"]["title"]).replace('"""', "'''"),
        ci_method=repr(run["ci_method"]) if run else "None",
        level=repr(run["level"]) if run else "None",
    )


README = """Analysis bundle: {title}
Downloaded {moment} (UTC). {responses} responses, {questions} questions.

What is inside
  README.txt       this file.
  answers.csv      one row per response: response, received_on, q1..q{questions}
                   holding each REPORTED option's code (0..k-1); an empty cell
                   is a missing answer. Column qN is question N of the survey.
  codebook.json    what every column means: question text, options, the
                   randomization design, its matrix P(report | truth), epsilon,
                   and for yes/no designs the parameters of R's rr and RRreg.
  estimates.json   the dashboard's saved estimates (latest finished run), to
                   compare with.
  analysis.py      runs the platform's command line on answers.csv and
                   codebook.json with the dashboard's interval method and
                   level, prints the estimates and the largest difference from
                   estimates.json (exit status 1 above 1e-9).
  lib/estimation/  the platform's statistical core (Python, NumPy and SciPy
                   only) as it was when this bundle was made: analysis.py
                   uses this copy.
  analysis.R       estimates every yes/no question and every question with a
                   device instruction with RRreg::RRuni (model and parameters
                   from the design) and every other question's moment
                   estimate in base R, refits the dashboard's newest model
                   with RRreg::RRlog, and says for each whether it agrees with
                   the dashboard's numbers, to a stated tolerance.

How to run
  Python: needs Python 3.11 or newer with NumPy and SciPy
          (pip install numpy scipy); nothing else. From this folder:
              python analysis.py
          python analysis.py --json prints every estimate, with subgroups.
  R:      install.packages("RRreg"), then from this folder:
              Rscript analysis.R
          What agrees, and to what tolerance:
          - RRuni's estimate is the dashboard's to 1e-9 when its moment
            estimate lies inside the parameter space (the same closed form);
            otherwise RRuni searches the likelihood with optim, good to 1e-4.
          - RRuni's standard errors are NOT the dashboard's: RRreg divides by
            n - 1 where the dashboard divides by n (the observed information),
            in every model (Warner, forced response, the unrelated question,
            crosswise, and each group of cheating detection and the lie
            detector). RRreg's standard error is the dashboard's times
            sqrt(n / (n - 1)) (with two groups, between the two groups'
            factors); the script applies that factor before comparing. After
            a likelihood search they are not compared.
          - A fit that fails (an estimate outside [0, 1], NaN, or a search
            that ended in a corner such as pi = 1 with gamma = -1) is printed
            as FAILED, not as an estimate: use the dashboard's, which is the
            maximum-likelihood estimate within the parameter space.
          - RRuni gives no intervals; the other questions' moment estimates
            agree to 1e-9 (a count's distribution to its matrix's condition
            number times 1e-11), and their maximum-likelihood estimates and
            intervals come from analysis.py.

The reported codes are randomized: a count of reported "Yes" is not the
number of people whose answer is Yes. Estimate with the design, as both
scripts do. See the platform's docs/methodology.md, "Re-analysing the data".
"""


def readme(book: dict[str, Any], moment: str) -> str:
    return README.format(
        title=_comment(book["survey"]["title"]),
        moment=moment,
        responses=book["survey"]["responses"],
        questions=len(book["questions"]),
    )
