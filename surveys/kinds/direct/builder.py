"""A direct question in the builder: labelled options, asked plainly."""

from surveys.kinds.base import labelled_options as clean_options
from surveys.kinds.base import matrix_design as build_design

__all__ = [
    "ANSWERED_YES_NO",
    "DESIGNS",
    "NOT_OPTIONAL",
    "build_design",
    "clean_options",
]

DESIGNS = ("direct",)
ANSWERED_YES_NO = False
NOT_OPTIONAL = None
