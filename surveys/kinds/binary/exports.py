"""A yes/no question in the exports: a crosswise question's reports are the
pairing its respondents chose, labelled so; otherwise its design decides (the
``exports`` role: the names it leaves out are surveys/kinds/base_exports.py's)."""

from __future__ import annotations

from typing import Any

from estimation import Design
from estimation.kinds.binary.designs import Crosswise
from surveys.models import Question
from surveys.respond.report_labels import crosswise_choices, option_codes

__all__ = ["r_packages", "relabels", "report_codes", "report_coding"]


def report_codes(question: Question, labels: list[str]) -> list[tuple[int, str]]:
    """A crosswise respondent reports the pairing of two statements, not their
    answer to the sensitive one: its codes are the pairing's words."""
    shown = (
        crosswise_choices() if isinstance(question.get_design(), Crosswise) else labels
    )
    return option_codes(question, labels, shown)


def relabels(question: Question) -> bool:
    """Crosswise reports are not the options the estimate is of."""
    return isinstance(question.get_design(), Crosswise)


def r_packages(design: Design) -> dict[str, Any] | None:
    """Parameters of R's ``rr`` and ``RRreg`` for the yes/no designs, from the matrix."""
    m = design.matrix
    if design.k != 2 or not design.randomized or not design.uniform_plus_diagonal:
        return None
    truth, no, yes = design.diagonal, float(design.base[0]), float(design.base[1])
    if design.name == "warner":
        p = float(m[1][1])
        return {
            "rr": {"design": "mirrored", "p": p},
            "RRreg": {"model": "Warner", "p": p},
        }
    if design.name == "crosswise":
        # Report 1 is "both or neither", RRreg's coding; rr has no crosswise.
        return {"RRreg": {"model": "Crosswise", "p": float(m[1][1])}}
    if design.name == "forced_response":
        return {
            "rr": {"design": "forced-known", "p": truth, "p0": no, "p1": yes},
            "RRreg": {"model": "FR", "p": [no, yes]},
        }
    if design.name == "unrelated_question":
        q = yes / (no + yes)
        return {
            "rr": {"design": "unrelated-known", "p": truth, "q": q},
            "RRreg": {"model": "UQTknown", "p": [truth, q]},
        }
    return None


def report_coding(question: Question) -> dict[str, Any]:
    """A crosswise question's codes are the pairing, not the options."""
    if isinstance(question.get_design(), Crosswise):
        return {
            "report_coding": (
                "the pairing the respondent reported: 0 exactly one of the two "
                "statements is true, 1 both are true or both false; options are the "
                "sensitive statement's true answers, which the estimate is of"
            )
        }
    return {}
