"""What most kinds' builder roles share: the answers of a yes/no question, the
rule for labelled options, and a design that is one matrix over the options.

A kind's ``builder`` module (``surveys/kinds/<kind>/builder.py``) provides
``DESIGNS`` (the designs it offers, the builder's first one first),
``ANSWERED_YES_NO`` (its answers are No and Yes in the survey's language),
``NOT_OPTIONAL`` (why it cannot be optional, or None), ``LISTS_OPTIONS``
(whether its card on the survey page lists its options), ``clean_options``,
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
(whether a subgroup's saved row has estimates to show), ``r_packages``
(R's parameters for a design of its own), ``EPSILON_NOTE`` (what the survey's
epsilon note adds for it), ``yes_epsilon`` (the epsilon a Yes is protected at,
for the API, when it differs from the design's) and ``r_question`` (the analysis bundle's R for one
question), taken from the generic modules' defaults (``option_codes``,
``code_rows``, ``never_relabelled`` and ``code_label`` in
surveys/respond/report_labels.py; ``one_column``, ``matrix_entry``,
``no_report_coding``, ``no_matrix_extra``, ``no_r_packages`` and ``NO_EPSILON_NOTE`` in
surveys/results/codebook.py; ``has_options`` in
surveys/results/estimate_exports.py; ``no_yes_epsilon`` here; ``r_by_design`` in
surveys/results/bundle_scripts.py) where the kind has nothing of its own:
surveys/kinds/base_exports.py gathers them, and ``kind_module`` falls back to
it for every name a kind's ``exports`` module leaves out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext

from estimation import Design, design_from_dict, privacy_band, what_an_observer_learns
from estimation.words import Translator, format_epsilon, percent
from surveys.words import band_name

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
            {
                "options": gettext(
                    "Give between 2 and %(maximum)s options, one per line."
                )
                % {"maximum": MAX_OPTIONS}
            }
        )
    if len(set(labels)) != len(labels):
        raise ValidationError({"options": gettext("Each option must be different.")})
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
                "options": gettext(
                    "The design has %(design)s options but the question has "
                    "%(question)s."
                )
                % {"design": built.k, "question": len(options)}
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


# -- the question form's design part (each kind's ``form`` role) --------------
#
# A kind's ``form`` module (``surveys/kinds/<kind>/form.py``) provides
# ``FIXED_DESIGN`` (the design its questions always have, whatever the form's
# design field says, or None), ``labels(form)`` (the answers the design is
# built over, or None after adding an error to the form), ``design_dict(form,
# name, k)`` (the design dict for one of its designs) and ``initial(question)``
# (the form's initial values of a saved question's kind-specific fields),
# ``DESIGN_CHOICES`` (its entries in the design menu), ``DESIGN_HELP`` (its
# sentence in the menu's help), ``FIELDS`` (every field its questions use, its
# own and those shared in surveys/kinds/form_fields.py, each placed among the
# others), ``PARAMETER_FIELDS`` (the field a core error about one of its
# parameters belongs to, where not the generic one) and ``used_fields(name,
# mode)`` (the fields a design of it uses, set by ``mode``: the page shows only
# those). The form it is given answers ``cleaned_data``, ``errors``,
# ``add_error`` and ``require(name, what)``.


def typed_labels(form: Any) -> list[str] | None:
    """The options typed one per line: 2 to MAX_OPTIONS, each different."""
    labels = [
        line.strip()
        for line in form.cleaned_data.get("options", "").splitlines()
        if line.strip()
    ]
    if not 2 <= len(labels) <= MAX_OPTIONS:
        form.add_error(
            "options",
            gettext(
                "Give between 2 and %(maximum)s options, one per line (got %(count)s)."
            )
            % {"maximum": MAX_OPTIONS, "count": len(labels)},
        )
        return None
    if len(set(labels)) != len(labels):
        form.add_error("options", gettext("Each option must be different."))
        return None
    return labels


def yes_no_labels(form: Any) -> list[str]:
    """A question answered No or Yes: its design is built over these two."""
    return list(YES_NO_OPTIONS)


def epsilon_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    """A matrix design set by its privacy level."""
    epsilon = form.require("epsilon", "epsilon, the privacy level")
    return {"name": name, "k": k, "epsilon": epsilon}


def forced_response_dict(form: Any, name: str, k: int) -> dict[str, Any]:
    """A forced-response design set by its own probabilities: p_truth, and the
    forced answers typed or split evenly."""
    p_truth = form.require("p_truth", "p_truth, the chance of the truth")
    text = form.cleaned_data.get("p_forced", "").strip()
    return {"name": name, "p_truth": p_truth, "p_forced": _forced(text, p_truth, k)}


def _forced(text: str, p_truth: float, k: int) -> list[float]:
    if not text:
        return [(1.0 - p_truth) / k] * k
    try:
        values = [float(v) for v in re.split(r"[\s,;]+", text) if v]
    except ValueError:
        raise ValidationError(
            {"p_forced": "p_forced must be numbers separated by commas."}
        ) from None
    if len(values) != k:
        raise ValidationError(
            {
                "p_forced": f"p_forced needs one probability per option: "
                f"{k}, got {len(values)}."
            }
        )
    return values


def matrix_initial(question: Any, *, options: str) -> dict[str, Any]:
    """A saved matrix design's initial values: its own probabilities, and its
    epsilon when it has a finite one."""
    design = question.design
    initial: dict[str, Any] = {"options": options, "design_name": design["name"]}
    built = question.get_design()
    if built.private:
        initial["epsilon"] = round(built.epsilon, 4)
    return initial


def forced_response_initial(design: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "p_truth": design["p_truth"],
        "p_forced": ", ".join(repr(v) for v in design["p_forced"]),
    }


# -- the respondent's page (each kind's ``page`` role) -------------------------
#
# A kind's ``page`` module (``surveys/kinds/<kind>/page.py``) says what the
# respondent page and the transparency page show of its questions:
# ``item(question, design, options, tr)`` (its part of a respondent item:
# options, protection in words, receipt note; ``randomized_item`` here),
# ``receipt_note(design, tr)`` (the line beside a sent answer;
# ``randomized_receipt_note``), ``transparency(shown, design, question,
# language, tr)`` (its matrix rows and column heads; ``matrix_transparency``),
# ``yes_epsilon(design)`` (what a Yes is protected at in a whole response
# whose such answers are Yes; ``design_epsilon``), ``overview(designs,
# yes_total, tr)`` (what it adds to the whole-response summary; ``no_overview``),
# ``FRAGMENTS`` (the templates its questions are shown with: ``answer`` and
# ``protection`` on the respondent page, ``design`` and ``matrix_head`` on the
# transparency page; ``NOTES`` the paragraphs it adds to the privacy summaries,
# ``privacy`` and ``transparency``, and ``WHOLE`` the ones that replace the
# whole-response paragraph, when a survey has a question that needs them) and
# ``SCRIPT`` (its browser module, ``js/kinds/<package>/page.js``, served from
# ``surveys/kinds/<package>/static/``, with ``SCRIPT_LABEL`` and ``SCRIPT_ID``
# for the transparency page, or None). ``NOTE_RANK`` orders the notes of
# several kinds: the lowest leads.

# The templates every kind's questions are shown with unless it has its own.
FRAGMENTS: dict[str, str] = {
    "answer": "surveys/_answer_options.html",
    "protection": "surveys/_protection.html",
    "design": "surveys/_transparency_design.html",
    "matrix_head": "surveys/_matrix_head.html",
}
NO_NOTES: dict[str, str] = {}
NOTE_RANK = 0


def randomized_item(
    question: Any,
    design: Any,
    options: list[str],
    tr: Translator,
    *,
    note: Callable[[Any, Translator], str] | None = None,
) -> dict[str, Any]:
    """A question randomized by the device (or asked plainly): its band and
    protection are its design's; ``note`` is its kind's ``receipt_note`` when
    it has its own."""
    band = privacy_band(design.epsilon)
    return {
        "options": options,
        "optional": question.optional,
        "sensitive": design.randomized,
        # A validation arm's share asked directly; 0 without one.
        "direct_percent": question.direct_percent if question.has_direct_arm else 0,
        "epsilon": design.epsilon if design.private else None,
        "epsilon_text": format_epsilon(design.epsilon, tr),
        "band": band.key,
        "band_name": band_name(band),
        "protection": design.describe(labels=options, translator=tr),
        "observer": (
            what_an_observer_learns(design.epsilon, translator=tr)
            if design.randomized
            else ""
        ),
        "receipt_note": (note or randomized_receipt_note)(design, tr),
    }


def randomized_receipt_note(design: Any, tr: Translator) -> str:
    """The line beside a sent answer on the receipt, from the exact matrix."""
    if not design.randomized:
        return gettext("Asked plainly: sent exactly as you answered.")
    kept = design.matrix.diagonal()
    low, high = percent(float(kept.min()), tr), percent(float(kept.max()), tr)
    if low == high:
        return gettext(
            "Randomized on your device before it was sent: your own answer is sent "
            "%(share)s of the time, so this may not be what you chose."
        ) % {"share": low}
    return gettext(
        "Randomized on your device before it was sent: your own answer is sent "
        "%(low)s to %(high)s of the time, so this may not be what you chose."
    ) % {"low": low, "high": high}


def probability_rows(
    truths: Sequence[str], matrix: Any, tr: Translator
) -> list[tuple[str, list[str]]]:
    """A matrix's rows, each headed by its true answer, every probability
    written exactly (ten decimals at most) in the page's language."""
    return [
        (truth, [tr.number(f"{float(p):.10f}".rstrip("0").rstrip(".")) for p in row])
        for truth, row in zip(truths, matrix, strict=True)
    ]


def matrix_transparency(
    shown: dict[str, Any], design: Any, question: Any, language: str, tr: Translator
) -> dict[str, Any]:
    """Rows are true answers, here the options the question shows."""
    return {"matrix_rows": probability_rows(shown["options"], design.matrix, tr)}


def design_epsilon(design: Any) -> float:
    """A design whose Yes and No are protected alike: its own epsilon."""
    return float(design.epsilon)


def no_overview(
    designs: Sequence[Any], yes_total: float, tr: Translator
) -> dict[str, Any]:
    """A kind that adds nothing to the whole-response summary."""
    return {}


def never_noted(design: Any) -> bool:
    """A kind whose questions add nothing to the privacy summaries."""
    return False
