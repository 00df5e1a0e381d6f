"""The command line's list-experiment commands (the ``cli`` role, see
:func:`estimation.__main__.main`):

- ``python -m estimation list-experiment --items J --counts c0 ... c(2J+2)``:
  every estimate from a question's saved counts;
- ``python -m estimation list-coverage``: the coverage study of
  docs/methodology.md (:mod:`estimation.kinds.listexperiment.coverage`).
"""

from __future__ import annotations

import argparse
import os
from typing import Any, TextIO

import numpy as np

from estimation.inference.exported import UsageError
from estimation.kinds.listexperiment.coverage import coverage_study
from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import estimate
from estimation.results import DEFAULT_LEVEL

# The scenarios of docs/methodology.md: (prevalence, correlation of the items).
SCENARIOS = ((0.05, 0.0), (0.5, 0.0), (0.95, 0.0), (0.05, 0.6), (0.5, 0.6), (0.95, 0.6))
# The design-effect test's power: treatment respondents leave out each true
# control statement with these chances, at this prevalence.
DESIGN_EFFECTS = (0.05, 0.1, 0.15, 0.2)
EFFECT_PREVALENCE = 0.1


def _design(args: argparse.Namespace) -> ListExperiment:
    try:
        return ListExperiment(items=args.items, treatment_share=args.treatment_share)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _command_estimate(args: argparse.Namespace, stdin: TextIO) -> Any:
    design = _design(args)
    try:
        return estimate(args.counts, design, confidence=args.level).to_dict()
    except ValueError as error:
        raise UsageError(str(error)) from None


def _command_coverage(args: argparse.Namespace, stdin: TextIO) -> Any:
    design = _design(args)
    rows = []
    for index, (prevalence, correlation) in enumerate(SCENARIOS):
        result = coverage_study(
            design,
            args.n,
            prevalence,
            args.control_share,
            args.replications,
            np.random.default_rng([args.seed, index]),
            correlation=correlation,
            ml=False,
        )
        # The difference in means over many surveys; ML (a fit per survey)
        # over fewer.
        row = {"correlation": correlation, **result.to_dict()}
        if args.ml_replications:
            ml = coverage_study(
                design,
                args.n,
                prevalence,
                args.control_share,
                args.ml_replications,
                np.random.default_rng([args.seed, index, 1]),
                correlation=correlation,
            )
            row.update(
                ml_replications=ml.replications,
                ml_coverage=ml.ml_coverage,
                ml_bias=ml.ml_bias,
                ml_boundary=ml.ml_boundary,
            )
        rows.append(row)
    effects = []
    for index, effect in enumerate(DESIGN_EFFECTS):
        result = coverage_study(
            design,
            args.n,
            EFFECT_PREVALENCE,
            args.control_share,
            args.effect_replications,
            np.random.default_rng([args.seed, 100 + index]),
            design_effect=effect,
            ml=False,
        )
        effects.append({"design_effect": effect, **result.to_dict()})
    return {
        "design": design.to_dict(),
        "n": args.n,
        "control_share": args.control_share,
        "replications": args.replications,
        "seed": args.seed,
        "load_average": os.getloadavg()[0],
        "scenarios": rows,
        "design_effects": effects,
    }


def add_commands(commands: Any) -> None:
    """Add ``list-experiment`` and ``list-coverage`` to the subcommands."""
    one = commands.add_parser(
        "list-experiment",
        help="a list experiment's estimates from its 2J + 3 saved counts",
        description="Difference in means, Imai's ML estimate, the design-effect "
        "test and floor/ceiling counts from the counts of codes 0..J (control) "
        "and J+1..2J+2 (treatment).",
    )
    one.add_argument("--items", type=int, required=True, help="J, control items")
    one.add_argument("--treatment-share", type=float, default=0.5)
    one.add_argument("--counts", type=int, nargs="+", required=True)
    one.add_argument("--level", type=float, default=DEFAULT_LEVEL)
    one.set_defaults(run=_command_estimate)

    study = commands.add_parser(
        "list-coverage",
        help="coverage of the list experiment's intervals by simulation",
        description="Coverage, bias and design-effect rejections over simulated "
        "surveys, for independent and for correlated control items.",
    )
    study.add_argument("--items", type=int, default=4)
    study.add_argument("--treatment-share", type=float, default=0.5)
    study.add_argument("--n", type=int, default=1000, help="respondents per survey")
    study.add_argument("--control-share", type=float, default=0.4)
    study.add_argument("--replications", type=int, default=10_000)
    study.add_argument(
        "--ml-replications",
        type=int,
        default=1000,
        help="surveys fitted by maximum likelihood per scenario (0: none)",
    )
    study.add_argument(
        "--effect-replications",
        type=int,
        default=2000,
        help="surveys per design effect for the test's power",
    )
    study.add_argument("--seed", type=int, default=20261206)
    study.set_defaults(run=_command_coverage)
