"""The ``exports`` role's defaults: what a kind's ``exports`` module
(``surveys/kinds/<kind>/exports.py``) does not define is taken from here by
:func:`surveys.kinds.kind_module`, as Django's database backends inherit
``BaseDatabaseOperations``. A kind with nothing of its own (multiple choice,
a question asked plainly) has no ``exports`` module at all; the names are
those of surveys/kinds/base.py."""

from __future__ import annotations

from surveys.kinds.base import no_yes_epsilon as yes_epsilon
from surveys.respond.report_labels import code_label as report_label
from surveys.respond.report_labels import code_rows as reported_labels
from surveys.respond.report_labels import never_relabelled as relabels
from surveys.respond.report_labels import option_codes as report_codes
from surveys.results.bundle_scripts import r_by_design as r_question
from surveys.results.bundle_scripts import r_model_fit as r_model_fit
from surveys.results.codebook import NO_EPSILON_NOTE as EPSILON_NOTE
from surveys.results.codebook import TEXT_MEANING as TEXT_MEANING
from surveys.results.codebook import matrix_entry as codebook_entry
from surveys.results.codebook import no_matrix_extra as matrix_extra
from surveys.results.codebook import no_r_packages as r_packages
from surveys.results.codebook import no_report_coding as report_coding
from surveys.results.codebook import one_column as export_columns
from surveys.results.estimate_exports import has_options as estimated

__all__ = [
    "codebook_entry",
    "EPSILON_NOTE",
    "estimated",
    "export_columns",
    "matrix_extra",
    "r_model_fit",
    "r_packages",
    "r_question",
    "relabels",
    "report_codes",
    "report_coding",
    "report_label",
    "reported_labels",
    "yes_epsilon",
]
