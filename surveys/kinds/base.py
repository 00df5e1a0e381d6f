"""What most kinds' builder roles share: the answers of a yes/no question, the
rule for labelled options, and a design that is one matrix over the options.

A kind's ``builder`` module (``surveys/kinds/<kind>/builder.py``) provides
``DESIGNS`` (the designs it offers, the builder's first one first),
``ANSWERED_YES_NO`` (its answers are No and Yes in the survey's language),
``NOT_OPTIONAL`` (why it cannot be optional, or None), ``clean_options``,
``build_design`` and ``no_validation_arm`` (why a question of this kind and
design cannot ask a share of respondents directly, or None), taking these
where they fit.

A kind's ``exports`` module (``surveys/kinds/<kind>/exports.py``) says what
the exports do with its questions: ``report_codes`` (every code a report may
hold, labelled as the respondent saw it), ``reported_labels`` (what each
estimate row counts), ``relabels`` (whether its reports are not its options),
``report_label`` (one report in words, for the receipt), ``export_columns``
(its columns in the answers export), ``codebook_entry`` (its codebook entry),
``report_coding`` (what its codes are, when not its options), ``matrix_extra``
(what a matrix entry of the codebook adds for it), ``estimated``
(whether a subgroup's saved row has estimates to show), ``group_pi`` (a
subgroup's pi to compare, for a kind that estimates one), ``r_packages``
(R's parameters for a design of its own), ``EPSILON_NOTE`` (what the survey's
epsilon note adds for it), ``yes_epsilon`` (the epsilon a Yes is protected at,
for the API, when it differs from the design's) and ``r_question`` (the analysis bundle's R for one
question), taken from the generic modules' defaults (``option_codes``,
``code_rows``, ``never_relabelled`` and ``code_label`` in
surveys/respond/report_labels.py; ``one_column``, ``matrix_entry``,
``no_report_coding``, ``no_matrix_extra``, ``no_r_packages`` and ``NO_EPSILON_NOTE`` in
surveys/results/codebook.py; ``has_options`` and ``no_pi`` in
surveys/results/estimate_exports.py; ``no_yes_epsilon`` here; ``r_by_design`` in
surveys/results/bundle_scripts.py) where the kind has nothing of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from estimation import Design, design_from_dict

MAX_OPTIONS = 20
YES_NO_OPTIONS = ["No", "Yes"]


def yes_no_options(language: str) -> list[str]:
    """A yes/no question's answers in the survey's language: respondents read
    them, so they are the survey's words like every other option."""
    with translation.override(language):
        return [gettext("No"), gettext("Yes")]


def given_or_yes_no(options: Sequence[str] | None, *, language: str) -> list[str]:
    """The options given, or No and Yes in the survey's language."""
    return list(options) if options else yes_no_options(language)


def labelled_options(options: Sequence[str] | None, *, language: str) -> list[str]:
    """Options the researcher labels: 2 to MAX_OPTIONS, each different."""
    labels = [str(o).strip() for o in options or [] if str(o).strip()]
    if not 2 <= len(labels) <= MAX_OPTIONS:
        raise ValidationError(
            {"options": f"Give between 2 and {MAX_OPTIONS} options, one per line."}
        )
    if len(set(labels)) != len(labels):
        raise ValidationError({"options": "Each option must be different."})
    return labels


def matrix_design(options: Sequence[str], design: Mapping[str, Any]) -> Design:
    """A design from the core's registry, with one report per option."""
    try:
        built = design_from_dict(design)
    except ValueError as error:
        raise ValidationError({"design": str(error)}) from error
    if built.k != len(options):
        raise ValidationError(
            {
                "options": f"The design has {built.k} options but the question has {len(options)}."
            }
        )
    return built


def no_yes_epsilon(design: Any) -> None:
    """A kind whose Yes and No are protected alike has no separate epsilon for
    a Yes: the default ``yes_epsilon`` of a kind's ``exports`` role."""
    return None


def any_validation_arm(design: Mapping[str, Any]) -> str | None:
    """Every design of the kind may have a validation arm."""
    return None
