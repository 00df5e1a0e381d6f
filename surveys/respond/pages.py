"""The respondent page's pages: its questions grouped by section, in order,
with what the browser shows in an order it draws itself.

A survey without sections is one page with no heading, as it always was.
Nothing here reaches the public API: the order is the page's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from surveys.languages import section_wording
from surveys.models import Survey


def page_sections(
    survey: Survey, questions: Sequence[dict[str, Any]], language: str
) -> list[dict[str, Any]]:
    """``questions`` (the page's items, in order) as pages: each with its
    ``section`` (None on a survey without sections), its ``title`` and
    ``text`` in ``language``, whether its questions
    are shuffled, and its items, each told its ordinal (the number it is shown
    with; a kind's own ``number`` is its typed answer's format) and whether
    its options are shuffled."""
    # The survey's questions, as fetched with it (published_survey): a
    # survey without sections costs no query more than it always did.
    placed = {q.pk: (q.section_id, q.shuffle_options) for q in survey.questions.all()}
    in_sections = any(section for section, _ in placed.values())
    sections = {s.pk: s for s in survey.sections.all()} if in_sections else {}
    pages: list[dict[str, Any]] = []
    for number, item in enumerate(questions, start=1):
        section_id, shuffle_options = placed.get(item["id"], (None, False))
        section = sections.get(section_id) if section_id is not None else None
        if not pages or pages[-1]["section"] is not section:
            title, text = section_wording(section, language) if section else ("", "")
            pages.append(
                {
                    "section": section,
                    "title": title,
                    "text": text,
                    "shuffle": bool(section and section.shuffle_questions),
                    "questions": [],
                }
            )
        pages[-1]["questions"].append(
            {**item, "ordinal": number, "shuffle_options": shuffle_options}
        )
    return pages or [{"section": None, "shuffle": False, "questions": []}]
