"""Command line: ``python -m estimation {estimate,regress,design,plan,golden,cheating}``.

For researchers who analyse exported data, and for anyone who wants to check the
platform's numbers. Output is JSON on stdout; errors go to stderr.

A kind adds what is its own through the registry (:mod:`estimation.kinds`): its
``cli`` role may claim ``estimate`` cases (``claims``, ``estimate_case``) and add
commands (``add_commands``); its ``golden`` role may print a fixture of its own
with a flag of ``golden`` (``GOLDEN_FLAG``) or a command (``GOLDEN_COMMAND``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from estimation.designs import Design, design_from_dict, design_from_epsilon
from estimation.golden import golden_fixture
from estimation.inference.exported import UsageError, estimate_exported, read_rows
from estimation.inference.exported_regression import regress_exported
from estimation.inference.intervals import (
    DEFAULT_METHOD,
    SHARE_METHODS,
    validate_level,
    validate_method,
)
from estimation.inference.regression_table import render
from estimation.kinds import kind_roles
from estimation.planner import DEFAULT_GROUP_SHARE, DEFAULT_POWER, two_groups
from estimation.planning import (
    detectable_prevalence,
    expected_half_width,
    observer_posterior,
    sample_size,
    variance_inflation,
    what_an_observer_learns,
)
from estimation.results import DEFAULT_LEVEL, estimate_question

CASE_KEYS = {"design", "counts", "level", "ci_method", "simultaneous", "labels"}


__all__ = ["UsageError", "estimate_case", "main"]


def estimate_case(case: Any) -> dict[str, Any]:
    """Estimate one case of the form documented in ``docs/methodology.md``."""
    if not isinstance(case, dict):
        raise UsageError(f"a case must be a JSON object, got {json.dumps(case)[:80]}")
    for role in kind_roles("cli"):
        if hasattr(role, "claims") and role.claims(case):
            return dict(role.estimate_case(case))
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise UsageError(
            f"unknown field(s) {', '.join(sorted(unknown))}; a case has "
            f"{', '.join(sorted(CASE_KEYS))}"
        )
    for key in ("design", "counts"):
        if key not in case:
            raise UsageError(f"a case needs {key!r}")
    design = design_from_dict(case["design"])
    counts = case["counts"]
    if not isinstance(counts, list):
        raise UsageError(f"counts must be a list of {design.k} whole numbers")
    result = estimate_question(
        counts,
        design,
        level=case.get("level", DEFAULT_LEVEL),
        ci_method=case.get("ci_method", DEFAULT_METHOD),
        simultaneous=case.get("simultaneous", False),
        labels=case.get("labels"),
    )
    return result.to_dict()


def _read_json(path: str | None, stdin: TextIO) -> Any:
    try:
        if path is None or path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        source = "standard input" if path in (None, "-") else path
        raise UsageError(
            f"{source} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from error


def _command_estimate(args: argparse.Namespace, stdin: TextIO) -> Any:
    if args.codebook is not None:
        return _estimate_export(args, stdin)
    if args.level is not None or args.ci_method is not None:
        raise UsageError(
            "--level and --ci-method go with --codebook; a case gives its own "
            "level and ci_method"
        )
    data = _read_json(args.file, stdin)
    if not isinstance(data, list):
        return estimate_case(data)
    results = []
    for case in data:
        try:
            results.append(estimate_case(case))
        except ValueError as error:
            results.append({"error": str(error)})
    return results


def _estimate_export(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Tally an exported answers file with its codebook and estimate every question."""
    if args.file is None:
        raise UsageError("give the answers file (CSV or JSON lines, - for stdin)")
    codebook = _read_json(args.codebook, stdin)
    level = validate_level(DEFAULT_LEVEL if args.level is None else args.level)
    method = validate_method(args.ci_method or DEFAULT_METHOD)
    if args.file == "-":
        rows = read_rows(stdin, "standard input")
        return estimate_exported(codebook, rows, level=level, ci_method=method)
    try:
        with open(args.file, encoding="utf-8", newline="") as handle:
            rows = read_rows(handle, args.file)
            return estimate_exported(codebook, rows, level=level, ci_method=method)
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror}") from error


def _covariate_names(text: str | None) -> list[str]:
    if text is None or not text.strip():
        return []
    return [name.strip() for name in text.split(",")]


def _command_regress(args: argparse.Namespace, stdin: TextIO) -> Any:
    """Tally an export into counts per covariate pattern and fit the regression."""
    codebook = _read_json(args.codebook, stdin)
    level = validate_level(args.level)
    options = {
        "outcome": args.outcome,
        "covariates": _covariate_names(args.covariates),
        "references": args.reference or [],
        "level": level,
    }
    if args.file == "-":
        output, _ = regress_exported(
            codebook, read_rows(stdin, "standard input"), **options
        )
    else:
        try:
            with open(args.file, encoding="utf-8", newline="") as handle:
                output, _ = regress_exported(
                    codebook, read_rows(handle, args.file), **options
                )
        except OSError as error:
            raise UsageError(f"cannot read {args.file}: {error.strerror}") from error
    return render(output) if args.table else output


def _design(args: argparse.Namespace) -> Design:
    if args.design_json is not None:
        try:
            return design_from_dict(json.loads(args.design_json))
        except json.JSONDecodeError as error:
            raise UsageError(f"--design is not valid JSON: {error.msg}") from error
    if args.name is None or args.epsilon is None:
        raise UsageError("give a design NAME with --epsilon, or --design JSON")
    return design_from_epsilon(args.name, args.epsilon, args.k)


def _epsilon(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _command_design(args: argparse.Namespace, stdin: TextIO) -> Any:
    design = _design(args)
    return {
        "design": design.to_dict(),
        "epsilon": _epsilon(design.epsilon),
        "matrix": design.matrix.tolist(),
        "description": design.describe(),
        "observer": what_an_observer_learns(design.epsilon),
        "client_spec": design.client_spec(),
    }


def _command_plan(args: argparse.Namespace, stdin: TextIO) -> Any:
    design = _design(args)
    if (args.half_width is None) == (args.n is None):
        raise UsageError(
            "give exactly one of --half-width (to get n) or --n (to get the half-width)"
        )
    common = {"level": args.level, "option": args.option}
    if args.half_width is not None:
        n = sample_size(design, args.half_width, args.prevalence, **common)
        half_width = expected_half_width(design, n, args.prevalence, **common)
    else:
        n, half_width = (
            args.n,
            expected_half_width(design, args.n, args.prevalence, **common),
        )
    groups = None
    if args.compare is not None:
        plan = two_groups(
            design,
            args.prevalence,
            args.compare,
            share=args.group_share,
            alpha=1 - args.level,
            power=args.power,
        )
        groups = {
            "compared_prevalence": args.compare,
            "group_share": plan.share,
            "alpha": plan.alpha,
            "power": plan.power,
            "total": plan.total,
            "in_first": plan.in_first,
            "in_second": plan.in_second,
            "rough": plan.rough,
        }
    return {
        "design": design.to_dict(),
        "epsilon": _epsilon(design.epsilon),
        "prevalence": args.prevalence,
        "level": args.level,
        "n": n,
        "two_groups": groups,
        "half_width": half_width,
        "variance_inflation": _epsilon(
            variance_inflation(design, args.prevalence, option=args.option)
        ),
        "detectable_prevalence": detectable_prevalence(design, n, **common),
        "observer_posterior": observer_posterior(design.epsilon),
        "observer": what_an_observer_learns(design.epsilon),
    }


def _command_golden(args: argparse.Namespace, stdin: TextIO) -> Any:
    return args.fixture()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m estimation",
        description="Randomized-response estimates, designs and sample sizes.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    estimate = commands.add_parser(
        "estimate",
        help="estimate prevalences from report counts",
        description="Read one JSON case or a list of cases and print the estimates. "
        'A case: {"design": {"name": "warner", "p": 0.75}, "counts": [580, 420], '
        '"level": 0.95, "ci_method": "mid_p"}; counts per reported option, [no, yes] '
        f"for yes/no. Methods: {', '.join(SHARE_METHODS)}.",
    )
    estimate.add_argument(
        "file",
        nargs="?",
        help="JSON file (default: standard input); with --codebook, the exported "
        "answers (CSV or JSON lines; - for standard input)",
    )
    estimate.add_argument(
        "--codebook",
        metavar="JSON",
        help="the survey's codebook.json: FILE is then its exported answers, and "
        "every question is estimated overall and by each direct question",
    )
    estimate.add_argument(
        "--level",
        type=float,
        help=f"with --codebook: confidence level (default {DEFAULT_LEVEL})",
    )
    estimate.add_argument(
        "--ci-method",
        help=f"with --codebook: interval method (default {DEFAULT_METHOD})",
    )
    estimate.set_defaults(run=_command_estimate)

    regress = commands.add_parser(
        "regress",
        help="logistic regression of a randomized yes/no question on direct ones",
        description="Fit P(true answer = Yes) = logistic(x'beta) to the exported "
        "answers, the randomization entering through the outcome's design; "
        "covariates are direct questions coded against a reference level, "
        "and counts asked directly enter as numbers (one coefficient per unit). "
        "Responses missing the outcome or a covariate are left out.",
    )
    regress.add_argument(
        "file", help="the exported answers (CSV or JSON lines; - for standard input)"
    )
    regress.add_argument(
        "--codebook", metavar="JSON", required=True, help="the survey's codebook.json"
    )
    regress.add_argument(
        "--outcome", required=True, help="column of a randomized yes/no question"
    )
    regress.add_argument(
        "--covariates",
        metavar="COLUMNS",
        help="comma-separated columns of direct questions (none: intercept only)",
    )
    regress.add_argument(
        "--reference",
        action="append",
        metavar="COLUMN=LEVEL",
        help="reference level of a covariate, by its label (default: its first "
        "option); repeat for several covariates",
    )
    regress.add_argument(
        "--level",
        type=float,
        default=DEFAULT_LEVEL,
        help=f"confidence level (default {DEFAULT_LEVEL})",
    )
    regress.add_argument(
        "--table", action="store_true", help="print a readable table instead of JSON"
    )
    regress.set_defaults(run=_command_regress)

    for name, run, text in (
        ("design", _command_design, "show a design's probabilities and epsilon"),
        ("plan", _command_plan, "sample size or interval half-width for a design"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("name", nargs="?", help="warner, forced_response or krr")
        sub.add_argument("--epsilon", type=float, help="target epsilon per answer")
        sub.add_argument(
            "--k", type=int, help="number of options (krr, forced_response)"
        )
        sub.add_argument(
            "--design",
            dest="design_json",
            help='any design as JSON, e.g. \'{"name": "warner", "p": 0.75}\'',
        )
        sub.set_defaults(run=run)
        if name == "plan":
            sub.add_argument(
                "--prevalence",
                type=float,
                default=0.5,
                help="assumed prevalence (default 0.5)",
            )
            sub.add_argument(
                "--half-width", type=float, help="target interval half-width: prints n"
            )
            sub.add_argument(
                "--n", type=int, help="number of responses: prints the half-width"
            )
            sub.add_argument(
                "--level",
                type=float,
                default=DEFAULT_LEVEL,
                help="confidence level (default 0.95)",
            )
            sub.add_argument(
                "--option",
                type=int,
                help="option index to plan for (default: least favourable)",
            )
            sub.add_argument(
                "--compare",
                type=float,
                help="a second group's prevalence: prints the responses to tell "
                "it from --prevalence apart (two-sided test at 1 - level)",
            )
            sub.add_argument(
                "--group-share",
                type=float,
                default=DEFAULT_GROUP_SHARE,
                help="share of the responses in the first group (default 0.5)",
            )
            sub.add_argument(
                "--power",
                type=float,
                default=DEFAULT_POWER,
                help="power of the two-group test (default 0.8)",
            )

    # Each kind's own commands (its ``cli`` role's ``add_commands``).
    for role in kind_roles("cli"):
        if hasattr(role, "add_commands"):
            role.add_commands(commands)

    golden = commands.add_parser("golden", help="print the golden fixture of designs")
    golden.set_defaults(run=_command_golden, fixture=golden_fixture)
    for role in kind_roles("golden"):
        if hasattr(role, "GOLDEN_FLAG"):
            flag, text = role.GOLDEN_FLAG
            golden.add_argument(
                flag,
                dest="fixture",
                action="store_const",
                const=role.fixture,
                help=text,
            )
    for role in kind_roles("golden"):
        if hasattr(role, "GOLDEN_COMMAND"):
            name, text = role.GOLDEN_COMMAND
            own = commands.add_parser(name, help=text)
            own.set_defaults(run=_command_golden, fixture=role.fixture)
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    args = _parser().parse_args(argv)
    out = sys.stdout if stdout is None else stdout
    try:
        result = args.run(args, sys.stdin if stdin is None else stdin)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if isinstance(result, str):
        out.write(result)
        return 0
    json.dump(result, out, indent=2, allow_nan=False)
    out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
