"""Reads for the respondent's side: a published survey and its questions as the
browser needs them."""

from __future__ import annotations

import json
import math
from typing import Any

from django.http import Http404
from django.utils.translation import gettext

from estimation import (
    Crosswise,
    Design,
    privacy_band,
    survey_epsilon,
    what_an_observer_learns,
)
from estimation.kinds.instructed.designs import InstructedDesign
from estimation.kinds.multiselect.designs import UnaryEncoding
from estimation.words import Translator, format_epsilon, percent
from surveys.languages import question_wording, respondent_languages
from surveys.models import Survey
from surveys.respond.report_labels import crosswise_choices
from surveys.words import active_translator, band_name


def published_survey(slug: str) -> Survey:
    """A survey respondents may see (open or closed, never a draft), or 404.

    Its questions come with it: the page reads them several times (questions,
    whole-response bound, transparency), from one query.
    """
    try:
        return (
            Survey.objects.exclude(status=Survey.Status.DRAFT)
            .prefetch_related("questions")
            .get(slug=slug)
        )
    except Survey.DoesNotExist:
        raise Http404("No such survey.") from None


def page_language(survey: Survey, language: str | None) -> str:
    """The language a respondent page is asked in: the survey's own when none
    is named in the path, else one it offers complete, or 404."""
    if language is None:
        return survey.language
    if language not in respondent_languages(survey):
        raise Http404("This survey is not offered in that language.")
    return language


def respondent_questions(
    survey: Survey, language: str | None = None
) -> list[dict[str, Any]]:
    """Each question as the respondent page needs it: text, options, the spec
    the browser randomizes with, and how the answer is protected in plain words,
    in the active language; the researcher's texts in ``language`` (the
    survey's own by default). Option codes are the same in every language."""
    tr = active_translator()
    items = []
    for question in survey.questions.all():
        text, options = question_wording(question, language or survey.language)
        design = question.get_design()
        if isinstance(design, Crosswise):
            # The respondent answers the pairing, not the statement: its
            # codes are the report's (1 both or neither, 0 exactly one).
            options = crosswise_choices()
        spec = question.spec or question.client_spec()
        if isinstance(design, InstructedDesign):
            items.append(_instructed_item(question, text, options, spec, design, tr))
            continue
        band = privacy_band(design.epsilon)
        items.append(
            {
                "id": question.pk,
                "text": text,
                "kind": question.kind,
                "options": options,
                "optional": question.optional,
                "sensitive": design.randomized,
                # A validation arm's share asked directly; 0 without one.
                "direct_percent": question.direct_percent
                if question.has_direct_arm
                else 0,
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
                "receipt_note": receipt_note(design, tr),
                "spec": spec,
                "spec_version": question.spec_version,
            }
        )
    return items


def _instructed_item(
    question: Any,
    text: str,
    options: list[str],
    spec: dict[str, Any],
    design: InstructedDesign,
    tr: Translator,
) -> dict[str, Any]:
    """A question with a device instruction: its band is a Yes's, and every
    sentence says that a No given as instructed is not protected."""
    band = privacy_band(design.yes_epsilon)
    return {
        "id": question.pk,
        "text": text,
        "kind": question.kind,
        "options": options,
        "optional": question.optional,
        "sensitive": True,
        "direct_percent": 0,
        "epsilon": None,
        "epsilon_text": format_epsilon(design.epsilon, tr),
        "yes_epsilon_text": format_epsilon(design.yes_epsilon, tr),
        "band": band.key,
        "band_name": band_name(band),
        "protection": design.describe(options, tr),
        "observer": design.observer(tr),
        "receipt_note": gettext(
            "Sent as you answered it, with your group: what your device told you "
            "to answer was not sent."
        ),
        "spec": spec,
        "spec_version": question.spec_version,
    }


def receipt_note(design: Design | UnaryEncoding, tr: Translator) -> str:
    """The line beside a sent answer on the receipt, from the exact matrix."""
    if isinstance(design, UnaryEncoding):
        return gettext(
            "Randomized on your device before it was sent: each item you ticked "
            "was sent ticked %(kept)s of the time and each other item %(added)s "
            "of the time, so this may not be what you ticked."
        ) % {"kept": percent(design.p, tr), "added": percent(design.q, tr)}
    if isinstance(design, Crosswise):
        return gettext(
            "Sent as you chose it: nothing was randomized. Only whether the two "
            "statements are both true or both false, or exactly one is true, "
            "was sent."
        )
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


def whole_response(
    designs: list[Design | UnaryEncoding | InstructedDesign],
) -> dict[str, Any] | None:
    """What all of one person's answers together can give away, in the same
    plain form as one answer's, in the active language; ``None`` when no
    question is randomized. With a question with a device instruction the
    total is unbounded (a No given as instructed is not protected), and
    ``yes_observer`` says what a response whose such answers are all Yes
    gives away."""
    if not any(design.randomized for design in designs):
        return None
    tr = active_translator()
    total = survey_epsilon(designs)  # type: ignore[arg-type]
    plain = sum(1 for design in designs if not design.randomized)
    band = privacy_band(total)
    instructed = sum(1 for d in designs if isinstance(d, InstructedDesign))
    yes_total = math.fsum(
        d.yes_epsilon if isinstance(d, InstructedDesign) else d.epsilon
        for d in designs
        if d.randomized
    )
    return {
        "instructed": instructed,
        "yes_observer": (
            what_an_observer_learns(yes_total, whole_response=True, translator=tr)
            if instructed
            else ""
        ),
        "yes_epsilon_text": format_epsilon(yes_total, tr),
        "crosswise": sum(1 for design in designs if isinstance(design, Crosswise)),
        "epsilon": total if math.isfinite(total) else None,
        "epsilon_text": format_epsilon(total, tr),
        "band": band.key,
        "band_name": band_name(band),
        "observer": what_an_observer_learns(total, whole_response=True, translator=tr),
        "plain": plain,
    }


def transparency_questions(survey: Survey, language: str) -> list[dict[str, Any]]:
    """Each question's design in full for the transparency page: the exact
    matrix P(report | truth) as the browser uses it, and the spec it is sent."""
    tr = active_translator()
    items = []
    for question, shown in zip(
        survey.questions.all(), respondent_questions(survey, language), strict=True
    ):
        design = question.get_design()
        if isinstance(design, UnaryEncoding):
            items.append(_unary_transparency(shown, design, tr))
            continue
        if isinstance(design, InstructedDesign):
            items.append(_instructed_transparency(shown, design, tr))
            continue
        # Rows are true answers; a crosswise question's columns (the pairing
        # it sends) differ from its true answers (the first statement's).
        truths = (
            question_wording(question, language)[1]
            if isinstance(design, Crosswise)
            else shown["options"]
        )
        rows = [
            (
                truth,
                [tr.number(f"{float(p):.10f}".rstrip("0").rstrip(".")) for p in row],
            )
            for truth, row in zip(truths, design.matrix, strict=True)
        ]
        items.append(
            {
                **shown,
                "design": design.to_dict(),
                "design_name": design.name,
                "matrix_rows": rows,
                "spec_json": json.dumps(shown["spec"], indent=1),
            }
        )
    return items


def _unary_transparency(
    shown: dict[str, Any], design: UnaryEncoding, tr: Translator
) -> dict[str, Any]:
    """A check-all-that-apply question in full: every item's bit goes through
    the same two-by-two matrix, P(sent ticked or not | ticked or not)."""
    truths = [gettext("Not ticked"), gettext("Ticked")]
    rows = [
        (truth, [tr.number(f"{float(p):.10f}".rstrip("0").rstrip(".")) for p in row])
        for truth, row in zip(truths, design.bit_design.matrix, strict=True)
    ]
    return {
        **shown,
        "design": design.to_dict(),
        "design_name": design.name,
        "matrix_rows": rows,
        "spec_json": json.dumps(shown["spec"], indent=1),
    }


def _instructed_transparency(
    shown: dict[str, Any], design: InstructedDesign, tr: Translator
) -> dict[str, Any]:
    """A question with a device instruction in full: P(group and answer sent |
    own answer) for a respondent who follows the instruction."""
    no, yes = shown["options"]
    columns = [
        gettext("Group %(group)s, “%(answer)s”") % {"group": group, "answer": answer}
        for group in (1, 2)
        for answer in (no, yes)
    ]
    rows = [
        (truth, [tr.number(f"{float(p):.10f}".rstrip("0").rstrip(".")) for p in row])
        for truth, row in zip((no, yes), design.matrix, strict=True)
    ]
    return {
        **shown,
        "design": design.to_dict(),
        "design_name": design.name,
        "matrix_rows": rows,
        "matrix_columns": columns,
        "spec_json": json.dumps(shown["spec"], indent=1),
    }
