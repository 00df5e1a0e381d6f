"""The command line's ``cheating`` command: cheating detection or the
stochastic lie detector from the counts of the reports ``2 * group + answer``
(``python -m estimation cheating``; the ``cli`` role, see
:func:`estimation.__main__.main`)."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any, TextIO

from estimation.inference.exported import UsageError
from estimation.inference.intervals import validate_level
from estimation.kinds.instructed.designs import instructed_design_from_dict
from estimation.results import DEFAULT_LEVEL


def _command_cheating(args: argparse.Namespace, stdin: TextIO) -> Any:
    try:
        spec = json.loads(args.design)
    except json.JSONDecodeError as error:
        raise UsageError(f"--design must be JSON: {error}") from None
    design = instructed_design_from_dict(spec)
    result = design.estimate(args.counts, level=validate_level(args.level)).to_dict()
    for parameter in result["parameters"]:
        for key, value in parameter.items():
            # t is undefined when nobody is a carrier: JSON null.
            if isinstance(value, float) and math.isnan(value):
                parameter[key] = None
    return {
        "design": design.to_dict(),
        "p": list(design.p),
        "yes_epsilon": design.yes_epsilon,
        "counts": list(args.counts),
        **result,
    }


def add_commands(commands: Any) -> None:
    """Add ``cheating`` to the command line's subcommands."""
    cheating = commands.add_parser(
        "cheating",
        help="cheating detection or the stochastic lie detector from report counts",
        description="Estimates, profile-likelihood intervals and the test of full "
        "compliance from the counts of the reports 2 * group + answer.",
    )
    cheating.add_argument(
        "--design",
        required=True,
        help='JSON, e.g. \'{"name": "cheating_detection", "p1": 0.3, "p2": 0.7}\' '
        "or lie_detector",
    )
    cheating.add_argument(
        "--counts",
        required=True,
        nargs=4,
        type=int,
        metavar=("NO_1", "YES_1", "NO_2", "YES_2"),
        help="answers No and Yes in group 1, then in group 2",
    )
    cheating.add_argument(
        "--level",
        type=float,
        default=DEFAULT_LEVEL,
        help=f"confidence level (default {DEFAULT_LEVEL})",
    )
    cheating.set_defaults(run=_command_cheating)
