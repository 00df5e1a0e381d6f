"""A multiple-choice question in the builder: labelled options, a matrix design."""

from surveys.kinds.base import any_validation_arm as no_validation_arm
from surveys.kinds.base import labelled_options as clean_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "LISTS_OPTIONS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
    "no_validation_arm",
]

DESIGNS = ("krr", "forced_response")
ANSWERED_YES_NO = False
LISTS_OPTIONS = True
NOT_OPTIONAL = None
