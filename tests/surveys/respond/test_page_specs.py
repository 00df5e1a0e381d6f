"""Thresholds as a base and a rule give back the stored thresholds exactly,
and the fixture the browser's tests expand is the one Python writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from estimation import design_from_dict
from surveys.respond.page_specs import (
    RULE_KEY,
    expand_thresholds,
    full_spec,
    page_spec,
    thresholds_rule,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DESIGNS = json.loads((FIXTURES / "designs.json").read_text())
PAGE_SPECS = FIXTURES / "page_specs.json"


def page_specs_fixture() -> list[dict[str, object]]:
    """What tests/fixtures/page_specs.json holds: each golden design's spec as
    the respondent page sends it (tests/js/page_specs.test.mjs expands them)."""
    return [
        {
            "name": c["name"],
            "params": c["params"],
            "page_spec": page_spec(c["client_spec"]),
        }
        for c in DESIGNS
    ]


def test_it_is_the_fixture_the_browser_tests_read():
    assert json.loads(PAGE_SPECS.read_text()) == page_specs_fixture(), (
        "regenerate tests/fixtures/page_specs.json from page_specs_fixture()"
    )


def test_a_client_other_than_the_page_gets_every_spec_back_in_full():
    for case in DESIGNS:
        spec = case["client_spec"]
        assert full_spec(page_spec(spec)) == spec, case["name"]


def test_it_writes_every_count_and_every_larger_choice_as_a_rule():
    for case in page_specs_fixture():
        spec = case["page_spec"]
        assert isinstance(spec, dict)
        if spec["k"] >= 4 and "procedure" not in spec:
            assert RULE_KEY in spec, case["name"]
            assert "thresholds" not in spec, case["name"]
        else:
            assert RULE_KEY not in spec, case["name"]


@pytest.mark.parametrize("m", [*range(1, 31), 40, 50, 64, 75, 99, 100])
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0, 4.0, 7.0])
def test_it_gives_back_every_count_design_s_thresholds(m, epsilon):
    try:
        design = design_from_dict({"name": "geometric", "m": m, "epsilon": epsilon})
    except ValueError:
        pytest.skip("not a design the builder offers")
    spec = design.client_spec()
    compact = page_spec(spec)
    assert RULE_KEY in compact or m < 3
    if RULE_KEY in compact:
        rule = compact[RULE_KEY]
        assert len(rule["near"]) == m - 1
        assert len(rule["ends"]) == m
        expanded = expand_thresholds(
            rule["near"], rule["ends"], compact["k"], compact["denominator"]
        )
        assert expanded == spec["thresholds"]
        assert {k: v for k, v in compact.items() if k != RULE_KEY} == {
            k: v for k, v in spec.items() if k != "thresholds"
        }


def test_a_count_of_fifty_sends_a_twentieth_of_its_thresholds():
    spec = design_from_dict(
        {"name": "geometric", "m": 50, "epsilon": 3.0}
    ).client_spec()
    assert len(json.dumps(page_spec(spec))) * 20 < len(json.dumps(spec))


def test_thresholds_the_rule_does_not_give_are_sent_in_full():
    spec = design_from_dict({"name": "krr", "k": 5, "epsilon": 1.0}).client_spec()
    thresholds = [list(row) for row in spec["thresholds"]]
    # Move one unit between two off-diagonal cells of one row.
    thresholds[2][0] += 1
    assert thresholds_rule(thresholds) is None
    tampered = {**spec, "thresholds": thresholds}
    assert page_spec(tampered) == tampered


def test_a_spec_with_a_procedure_or_none_is_sent_as_it_is():
    crosswise = {"k": 4, "procedure": "crosswise", "thresholds": [[1]]}
    assert page_spec(crosswise) is crosswise
    assert page_spec(None) is None


@pytest.mark.django_db
def test_it_sends_a_count_s_rule_on_the_page_and_its_thresholds_in_the_api(
    client, owner
):
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish
    from surveys.models import Question

    survey = survey_create(owner=owner, title="Counts", language="en")
    question_create(
        survey=survey,
        text="How many times?",
        kind=Question.Kind.COUNT,
        options=["0", "50"],
        design={"name": "geometric", "m": 50, "epsilon": 3.0},
    )
    survey = survey_publish(survey=survey)
    stored = survey.questions.get().spec
    page = client.get(f"/s/{survey.slug}/")
    found = re.search(
        r'<script id="survey-config" type="application/json">(.*?)</script>',
        page.content.decode(),
        re.DOTALL,
    )
    assert found is not None
    sent = json.loads(found[1])["questions"][0]["spec"]
    assert "thresholds" not in sent
    rule = sent[RULE_KEY]
    assert (
        expand_thresholds(rule["near"], rule["ends"], sent["k"], sent["denominator"])
        == stored["thresholds"]
    )
    public = client.get(reverse("api:public", args=[survey.slug])).json()
    assert public["questions"][0]["spec"]["thresholds"] == stored["thresholds"]


def test_a_page_of_small_specs_keeps_their_thresholds_rather_than_load_the_rules_part():
    """A multiple choice of five answers saves fewer bytes as a rule than the
    rule's part of the randomizer weighs; with a count of 0 to 20 on the same
    page the rules pay for it, and every spec that fits one travels as one."""
    from surveys.respond.selectors import page_rules

    small = design_from_dict({"name": "krr", "k": 5, "epsilon": 1.0}).client_spec()
    count = design_from_dict(
        {"name": "geometric", "m": 20, "epsilon": 1.0}
    ).client_spec()
    assert RULE_KEY in page_spec(small)
    assert page_rules([small]) == [small]
    assert page_rules([small, count]) == [page_spec(small), page_spec(count)]
