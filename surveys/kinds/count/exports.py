"""A count in the exports: nothing of its own, its design decides (the
``exports`` role; every kind's has the same names, see surveys/kinds/base.py)."""

from __future__ import annotations

from surveys.respond.report_labels import code_label as report_label
from surveys.respond.report_labels import code_rows as reported_labels
from surveys.respond.report_labels import never_relabelled as relabels
from surveys.respond.report_labels import option_codes as report_codes
from surveys.results.bundle_scripts import r_by_design as r_question

__all__ = ["r_question", "relabels", "report_codes", "report_label", "reported_labels"]
