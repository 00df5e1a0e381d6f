"""The respondent page's data carries only what the page script reads
(surveys/respond/page_data.py): on the twenty-question survey of every kind,
no design parameters, no options, no kind names, no empty fields, no spaces;
and the specs still randomize as the stored ones do."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import pytest

from benchmarks.mixed_survey import MIXED_SLUG, create
from surveys.respond.page_specs import full_spec, without_params

pytestmark = pytest.mark.django_db

CONFIG = re.compile(
    r'<script id="survey-config" type="application/json">(.*?)</script>'
)


def mixed_page(client) -> tuple[Any, str, str]:
    survey = create()
    page = client.get(f"/s/{MIXED_SLUG}/", headers={"accept-encoding": "gzip"})
    html = gzip.decompress(page.content).decode()
    found = CONFIG.search(html)
    assert found is not None
    return survey, html, found[1]


def walk(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key, inner
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


def test_it_leaves_out_params_at_every_depth_and_keeps_the_rest():
    unary = next(q for q in create().questions.all() if q.kind == "multi_select")
    spec = unary.spec
    assert "params" in spec
    assert "params" in spec["bit"]
    sent = without_params(spec)
    assert "params" not in sent
    assert "params" not in sent["bit"]
    assert sent["bit"]["thresholds"] == spec["bit"]["thresholds"]
    assert {k: v for k, v in spec.items() if k not in ("params", "bit")} == {
        k: v for k, v in sent.items() if k != "bit"
    }


def test_the_mixed_page_sends_what_the_script_reads_and_nothing_else(client):
    _, _, data = mixed_page(client)
    # Written without spaces between items ('"a":1,"b":2').
    assert ", " not in re.sub(r'"(?:[^"\\]|\\.)*"', '""', data)
    assert ": " not in re.sub(r'"(?:[^"\\]|\\.)*"', '""', data)
    config = json.loads(data)
    keys = {key for question in config["questions"] for key, _ in walk(question)}
    assert not {"params", "options", "kind", "text"} & keys
    for question in config["questions"]:
        for field in ("optional", "sensitive"):
            assert question.get(field, True) is True
        assert question.get("condition", True)
        assert question.get("script", 0) is not None


def test_its_specs_randomize_as_the_stored_ones(client):
    survey, _, data = mixed_page(client)
    stored = {q.pk: q.spec or q.client_spec() for q in survey.questions.all()}
    for question in json.loads(data)["questions"]:
        spec = full_spec(question["spec"])
        original = stored[question["id"]]
        for key in ("k", "denominator", "thresholds", "epsilon", "direct_arm"):
            assert spec.get(key) == original.get(key), (question["id"], key)


def test_every_answer_button_comes_bare(client):
    _, html, _ = mixed_page(client)
    buttons = re.findall(r"<button data-option=\"([^\"]+)\"[^>]*>", html)
    assert len(buttons) > 40
    assert 'role="radio"' not in html
    assert 'aria-checked="false"' not in html
