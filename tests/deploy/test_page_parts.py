"""The page-weight benchmark's split of a page into its parts
(benchmarks/page_parts.py), checked on the page the production storage
serves: the parts are the whole page, each named by what it is, so a budget
per kind and feature measures the page's own code."""

from __future__ import annotations

import brotli
import pytest

from benchmarks.page_parts import parts
from surveys.builder.questions import question_create
from surveys.builder.sections import section_create
from surveys.builder.services import survey_publish
from tests.surveys.display_logic.data import WARNER

pytestmark = pytest.mark.django_db


def _packed(page: bytes) -> int:
    return len(brotli.compress(page, mode=brotli.MODE_TEXT, quality=11))


def test_the_parts_are_the_whole_page_each_named(collected, client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/").content
    split = parts(page)
    assert sum(part.uncompressed_bytes for part in split) == len(page)
    names = [part.name for part in split]
    assert sorted(names) == sorted(
        [
            "page script",
            "js/rr.js",
            "js/kinds/binary/page.js",
            "style sheet",
            "page data",
            "markup and words",
        ]
    )
    assert names[-1] == "markup and words"
    elements = [part.uncompressed_bytes for part in split[:-1]]
    assert elements == sorted(elements, reverse=True)
    # Each part costs something on the wire, and what they add alone is less
    # than the page compressed: they share words and code.
    assert all(part.wire_bytes > 0 for part in split)
    assert sum(part.wire_bytes for part in split) < _packed(page)


def test_a_feature_s_module_is_a_part_of_its_own(collected, client, draft_survey):
    for title in ("First", "Second"):
        section_create(survey=draft_survey, title=title)
        question_create(
            survey=draft_survey, text=f"{title}?", kind="yes_no", design=WARNER
        )
    survey = survey_publish(survey=draft_survey)
    split = {
        part.name: part for part in parts(client.get(f"/s/{survey.slug}/").content)
    }
    assert "js/survey/pages.js" in split
    assert split["js/survey/pages.js"].wire_bytes > 0
