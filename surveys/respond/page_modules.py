"""Which of the respondent page's feature modules a page loads.

The page script (static/js/survey.js) holds what every page does: check the
specs, take the answers, randomize, send, show the receipt. Each feature only
some surveys use is a module of its own under static/js/survey/, and a page
loads only the modules its survey uses: a phone on a slow connection
downloads and parses nothing it will not run (docs/benchmarks.md, "Respondent
page weight"). The server decides here, from the same data the page is drawn
from; the page lists each module in its config for the page script, and
carries each inside itself or preloads its file with its integrity
(surveys/respond/inline.py), so that none waits for another. The page script checks that every feature its data
needs was listed (``missingFeature``) and stops otherwise.

The randomizer's parts (``RANDOMIZER_PARTS``: thresholds as a base and a
rule, the validation arm) are chosen here the same way, from the specs, and
listed in the config's ``parts``; a spec that needs a part the page did not
load is refused by the page before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from surveys.kinds import kind_module
from surveys.models import Survey
from surveys.respond.integrity import (
    CONDITIONS_SCRIPT,
    RANDOMIZER_PARTS,
    Integrity,
    integrity,
)

# Each feature's module, by the name the page script asks it by, and any
# module it imports itself (preloaded with it).
FEATURE_SCRIPTS: dict[str, tuple[str, ...]] = {
    # Several pages (sections), saved progress, questions or options shown in
    # an order drawn on the page.
    "pages": ("js/survey/pages.js",),
    # Questions shown only after some plain answers.
    "displayLogic": ("js/survey/display-logic.js", CONDITIONS_SCRIPT),
    "practice": ("js/survey/practice.js",),
    "consent": ("js/survey/consent.js",),
    # An invitation or a panel's participant id, checked on opening.
    "access": ("js/survey/access.js",),
    # Questions asked directly of some respondents (the validation arm).
    "arms": ("js/survey/arms.js",),
    # Boxes typed into (a count, a number, a text), whichever kind reads them.
    "boxes": ("js/survey/boxes.js",),
}


@dataclass(frozen=True)
class PageModules:
    """The features a page uses: ``imports`` (name to the module the page
    script loads), ``parts`` (the randomizer's parts, name to module), and
    ``files``, every file they need, the modules those import included
    (carried inside the page or preloaded: surveys/respond/inline.py)."""

    imports: dict[str, Integrity]
    parts: dict[str, Integrity]
    files: tuple[Integrity, ...]


def page_features(
    survey: Survey,
    *,
    questions: Sequence[dict[str, Any]],
    pages: Sequence[dict[str, Any]],
    practice: dict[str, Any] | None,
) -> list[str]:
    """The names of the features the page of ``survey`` uses, given its
    items (:func:`surveys.respond.selectors.page_questions`), its pages
    (:func:`surveys.respond.pages.page_sections`) and its practice round."""
    shuffled = any(
        page["shuffle"] or any(q["shuffle_options"] for q in page["questions"])
        for page in pages
    )
    uses = {
        "pages": len(pages) > 1 or shuffled,
        "displayLogic": any(q.get("condition") for q in questions),
        "practice": practice is not None,
        "consent": bool(survey.consent),
        "access": survey.access_mode != Survey.AccessMode.OPEN,
        # As the page reads it: a spec with an arm.
        "arms": any(q["spec"].get("direct_arm") for q in questions),
        "boxes": any(kind_module(q["kind"], "page").TYPED_BOX for q in questions),
    }
    return [name for name in FEATURE_SCRIPTS if uses[name]]


def page_modules(
    survey: Survey,
    *,
    questions: Sequence[dict[str, Any]],
    pages: Sequence[dict[str, Any]],
    practice: dict[str, Any] | None,
) -> PageModules:
    """The modules of the features the page uses (:func:`page_features`)."""
    names = page_features(survey, questions=questions, pages=pages, practice=practice)
    files = {path: integrity(path) for name in names for path in FEATURE_SCRIPTS[name]}
    parts = {
        name: integrity(RANDOMIZER_PARTS[name]) for name in page_parts(questions, names)
    }
    return PageModules(
        imports={name: files[FEATURE_SCRIPTS[name][0]] for name in names},
        parts=parts,
        files=(*files.values(), *parts.values()),
    )


def page_parts(
    questions: Sequence[dict[str, Any]], features: Sequence[str]
) -> list[str]:
    """The names of the randomizer's parts the page's specs use: the rule of
    thresholds sent as a base and a rule, and the validation arm's (with the
    feature that draws the arms)."""
    uses = {
        "rule": any("thresholds_rule" in q["spec"] for q in questions),
        "arm": "arms" in features,
    }
    return [name for name in RANDOMIZER_PARTS if uses[name]]


def all_randomizer_parts() -> tuple[Integrity, ...]:
    """Every part of the randomizer, for the transparency page."""
    return tuple(integrity(path) for path in RANDOMIZER_PARTS.values())


def all_feature_files() -> tuple[Integrity, ...]:
    """Every feature's own module, for the transparency page, which lists the
    hash of every script a survey's page may load."""
    return tuple(integrity(paths[0]) for paths in FEATURE_SCRIPTS.values())
