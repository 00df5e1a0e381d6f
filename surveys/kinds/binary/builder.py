"""A yes/no question in the builder: answered No or Yes, by a matrix design."""

from surveys.kinds.base import given_or_yes_no as clean_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
]

DESIGNS = ("warner", "forced_response", "unrelated_question", "crosswise")
ANSWERED_YES_NO = True
NOT_OPTIONAL = None
