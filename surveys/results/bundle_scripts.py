"""The analysis bundle's scripts and README, written for one survey.

``analysis.py`` runs our command line on the bundle's files and checks the
result against the dashboard's saved estimates; ``analysis.R`` estimates each
yes/no question with ``RRreg::RRuni`` (Heck and Moshagen 2018), using the model
and parameters the codebook's ``r_packages`` gives, and each other question
with the moment estimate the dashboard calls "unbiased". The dashboard's own
numbers are written into both, so a reader sees at once whether they agree.
"""

from __future__ import annotations

from typing import Any

from estimation import design_from_dict

PYTHON_SCRIPT = '''#!/usr/bin/env python3
"""Reproduce the estimates of {title} from this folder's answers.csv and codebook.json.

Runs the platform's command line (python -m estimation estimate), which
needs the platform's `estimation` package (NumPy and SciPy): from a checkout
of the platform, run

    PYTHONPATH=/path/to/the/checkout python analysis.py

It prints each question's estimates with the interval method and level the
dashboard used, then the largest difference from the dashboard's saved
numbers in estimates.json, and exits with status 1 if that is above 1e-9.
--json prints the command line's whole output instead (subgroups too).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The interval method and level of the run the dashboard shows (None: the
# command line's defaults, as no run had finished when this was downloaded).
CI_METHOD = {ci_method}
LEVEL = {level}
FIELDS = ("estimate", "unbiased", "std_error", "ci_lower", "ci_upper")
TOLERANCE = 1e-9


def estimate() -> dict:
    command = [sys.executable, "-m", "estimation", "estimate"]
    command += ["--codebook", str(HERE / "codebook.json")]
    if CI_METHOD is not None:
        command += ["--ci-method", CI_METHOD]
    if LEVEL is not None:
        command += ["--level", repr(LEVEL)]
    done = subprocess.run(
        [*command, str(HERE / "answers.csv")], capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(done.stderr.strip() or "python -m estimation estimate failed")
    return json.loads(done.stdout)


def differences(mine: dict, saved: dict):
    """|ours - saved| for every option number the dashboard shows, and for a
    question with a device instruction every parameter's."""
    for option in saved["options"]:
        for name in FIELDS:
            yield abs(mine[name][option["code"]] - option[name])
    ours = {{p["name"]: p for p in (mine or {{}}).get("parameters", [])}}
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
        if estimate and "parameters" in estimate:
            for p in estimate["parameters"]:
                print(f"  {{p['name']}}: {{p['estimate']}} [{{p['ci_lower']}}, {{p['ci_upper']}}]")
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
# Yes/no questions: RRuni(response, model, p) with the model and parameters
# of each question's design (codebook.json, r_packages). Its prevalence is the
# estimate the dashboard shows (to the optimizer's tolerance); its standard
# error can differ a little (for Warner RRuni divides by n - 1 where the
# dashboard divides by n), and its interval is the Wald interval, so it
# matches the dashboard's only when the dashboard uses the Wald method
# ({method} at level {level} here). The dashboard's numbers are printed beside.
# Other questions: RRuni has no model for these designs; the moment estimate
# (the dashboard's "unbiased" column) is computed directly, and the
# maximum-likelihood estimates with intervals come from `python analysis.py`
# (the platform's command line).

library(RRreg)
answers <- read.csv("answers.csv")

# RRuni's FR model estimates every option: the last one is "Yes".
compare <- function(column, fit, dashboard) {{
  cat(sprintf(
    "%s: prevalence %.6f (SE %.6f); dashboard %.6f (SE %.6f)\\n",
    column, tail(fit$pi, 1), tail(fit$piSE, 1), dashboard[1], dashboard[2]
  ))
}}
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
    """RRuni on one yes/no question, and the dashboard's estimate beside it."""
    column, model = entry["column"], entry["r_packages"]["RRreg"]
    estimate = _dashboard(saved, "estimate")
    std_error = _dashboard(saved, "std_error")
    dashboard = (
        f"c({_r_number(estimate[1])}, {_r_number(std_error[1])})"
        if estimate
        else "c(NA, NA)"
    )
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: RRreg model {model['model']}\n"
        f"{column} <- {_r_reports(entry)}\n"
        f"fit_{column} <- RRuni(response = {column}, "
        f'model = "{model["model"]}", p = {r_value(model["p"])})\n'
        f"print(summary(fit_{column}))\n"
        f'compare("{column}", fit_{column}, {dashboard})\n'
    )


def r_instructed(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """RRuni with RRreg's CDM or SLD model on the cells 2 * group + answer,
    and the dashboard's pi beside it (RRreg's standard errors divide by
    n_g - 1, ours by n_g: docs/methodology.md)."""
    column, model = entry["column"], entry["r_packages"]["RRreg"]
    compliance = (saved or {}).get("compliance") or {}
    pi = next((p for p in compliance.get("parameters", []) if p["name"] == "pi"), None)
    dashboard = (
        f"c({_r_number(pi['estimate'])}, {_r_number(pi['std_error'])})"
        if pi
        else "c(NA, NA)"
    )
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: RRreg model {model['model']}; "
        "the cell is 2 * group + answer\n"
        f"{column} <- answers${column}[!is.na(answers${column})]\n"
        f"fit_{column} <- RRuni(response = {column} %% 2, model = "
        f'"{model["model"]}", p = {r_value(model["p"])}, group = 1 + ({column} >= 2))\n'
        f"print(summary(fit_{column}))\n"
        f'compare("{column}", fit_{column}, {dashboard})\n'
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
        f'cat("{column} moment estimates:\\n"); print(unbiased_{column})\n'
        f'cat("dashboard (unbiased):\\n"); '
        f"print(c({', '.join(_r_number(u) for u in unbiased) or 'NA'}))\n" + fr_model
    )


def r_unary(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """Check all that apply in base R: each item's moment estimate from the
    share of its 0/1 column sent ticked, and the dashboard's beside it."""
    column = entry["column"]
    items = "c(" + ", ".join(r_string(i["column"]) for i in entry["item_columns"]) + ")"
    (_, q), (_, p) = entry["matrix"]
    labels = "c(" + ", ".join(r_string(o["label"]) for o in entry["options"]) + ")"
    dashboard = _dashboard(saved, "unbiased")
    shown = (
        "c(" + ", ".join(_r_number(v) for v in dashboard) + ")" if dashboard else "NA"
    )
    return (
        f"\n# {column} = question {entry['number']}: {_comment(entry['text'])}\n"
        f"# design {entry['design']['name']}: check all that apply; one column "
        "per item, 1 = sent ticked; each item's moment estimate is (share sent "
        "ticked - q) / (p - q)\n"
        f"ticked_{column} <- sapply({items}, function(item) "
        "mean(answers[[item]], na.rm = TRUE))\n"
        f"print(data.frame(item = {labels}, unbiased = (ticked_{column} - "
        f"{r_value(q)}) / ({r_value(p)} - {r_value(q)}), dashboard = {shown}))\n"
    )


def r_model_fit(entry: dict[str, Any], fit: dict[str, Any]) -> str:
    """The dashboard's latest model fit refitted with ``RRreg::RRlog``.

    RRlog maximises the same likelihood (checked against RRreg's own code to
    about 3e-5 in the coefficients, the tolerance of its optimizer), so its
    coefficients and standard errors are the dashboard's when the answers are
    those the fit saw.
    """
    result, outcome = fit["result"], entry["column"]
    covariates = result["covariates"]
    columns = [outcome] + [c["name"] for c in covariates]
    complete = " & ".join(f"!is.na(answers${c})" for c in columns)
    lines = [
        f"\n# Model fit {fit['id']} on the dashboard: logistic regression of "
        f"{outcome} (question {entry['number']}) on "
        f"{', '.join(c['name'] for c in covariates)}, fitted on {fit['n']} answers.",
        "# With more answers in answers.csv since, the numbers differ accordingly.",
        f"model_data <- answers[{complete}, ]",
    ]
    ours: list[tuple[str, Any, Any]] = []
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
    for coefficient in result["coefficients"]:
        if coefficient["term"] is None:
            name = "(Intercept)"
        else:
            # R names a dummy column by the factor and the level, unseparated.
            name = coefficient["name"].replace("=", "", 1)
        ours.append((name, coefficient["estimate"], coefficient["std_error"]))
    formula = f"{outcome} ~ {' + '.join(c['name'] for c in covariates)}"
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
    names = ", ".join(r_string(n) for n, _, _ in ours)
    lines += [
        f"dashboard_coef <- c({', '.join(_r_number(v) for _, v, _ in ours)})",
        f"dashboard_se <- c({', '.join(_r_number(v) for _, _, v in ours)})",
        f"names(dashboard_coef) <- names(dashboard_se) <- c({names})",
        "shown <- names(coef(fit_model))",
        'cat(sprintf("%s: R %.8f (SE %.8f); dashboard %.8f (SE %.8f)\\n", shown,',
        "    coef(fit_model), model_se[shown], dashboard_coef[shown], "
        'dashboard_se[shown]), sep = "")',
    ]
    return "\n".join(lines) + "\n"


def r_general(entry: dict[str, Any], saved: dict[str, Any] | None) -> str:
    """The moment estimates of a design with a general matrix (a count), in
    base R: the distribution solves t(P) pi = shares, and the mean count is
    the average of each report's score w, which solves P w = 0..m."""
    column, k = entry["column"], len(entry["options"])
    values = ", ".join(repr(float(p)) for row in entry["matrix"] for p in row)
    mean = (saved or {}).get("mean") or {}
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
    )


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
        )
    ]
    for entry in book["questions"]:
        question = saved.get(entry["column"])
        if entry.get("kind") == "multi_select":
            parts.append(r_unary(entry, question))
        elif entry.get("kind") == "instructed":
            parts.append(r_instructed(entry, question))
        elif entry["r_packages"] is not None:
            parts.append(r_yes_no(entry, question))
        elif not design_from_dict(entry["design"]).uniform_plus_diagonal:
            parts.append(r_general(entry, question))
        else:
            parts.append(r_other(entry, question))
    if model_fit is not None:
        entries = {e["column"]: e for e in book["questions"]}
        parts.append(r_model_fit(entries[model_fit["outcome"]], model_fit))
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
  analysis.R       estimates every yes/no question with RRreg::RRuni (model
                   and parameters from the design) and every other question's
                   moment estimate in base R, and refits the dashboard's newest
                   model with RRreg::RRlog, printing the dashboard's numbers
                   beside R's.

How to run
  Python: needs the platform's `estimation` package (NumPy, SciPy). From a
          checkout of the platform:
              PYTHONPATH=/path/to/the/checkout python analysis.py
          python analysis.py --json prints every estimate, with subgroups.
  R:      install.packages("RRreg"), then from this folder:
              Rscript analysis.R
          RRuni reproduces the dashboard's estimate and standard error of each
          yes/no question; its interval is the Wald interval. The other
          questions' maximum-likelihood estimates and intervals come from
          analysis.py.

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
