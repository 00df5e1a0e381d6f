"""Every field of a question's design data is checked in the browser.

The page's data (Django's ``json_script``, ``#survey-config``) is rewritten in
transit, one field at a time, before the page's scripts read it. For each
field, the respondent sees the refusal and the page makes no request that
could carry an answer: no POST, no query string, nothing but the page and its
static files. The same rewriting with nothing changed leaves every kind of
question answerable, so the refusals are the checks' and not the harness's.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings
from django.utils.html import json_script
from playwright.sync_api import expect

from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Question, Response, Survey
from surveys.respond.page_specs import RULE_KEY, expand_thresholds
from tests.browser.helpers import page_path, send_button

D = 2**32
CONFIG = re.compile(
    r'<script id="survey-config" type="application/json">(?P<data>.*?)</script>',
    re.DOTALL,
)
Spec = dict[str, Any]

# One survey per question kind, each with one question.
KINDS: dict[str, dict[str, Any]] = {
    "yes_no": {"kind": "yes_no", "design": {"name": "warner", "p": 0.75}},
    "armed": {
        "kind": "yes_no",
        "design": {"name": "warner", "p": 0.75},
        "direct_percent": 10,
    },
    "crosswise": {"kind": "yes_no", "design": {"name": "crosswise", "p": 0.25}},
    "instructed": {
        "kind": "instructed",
        "design": {"name": "cheating_detection", "p1": 0.3, "p2": 0.7},
    },
    "multi_select": {
        "kind": "multi_select",
        "options": ["Cannabis", "Cocaine", "Ecstasy", "LSD"],
        "design": {"name": "sue", "m": 4, "epsilon_one_hot": 1.0},
    },
    "count": {
        "kind": Question.Kind.COUNT,
        "options": ["0", "30"],
        "design": {"name": "geometric", "m": 30, "epsilon": 3.0},
    },
}


def survey_of(owner: Any, kind: str, language: str = "en") -> Survey:
    survey = survey_create(owner=owner, title=f"Tampered {kind}", language=language)
    question_create(survey=survey, text="Have you ever done it?", **KINDS[kind])
    # A site that allows designs without a finite epsilon (refused by default).
    with override_settings(ALLOW_UNBOUNDED_DESIGNS=True):
        return survey_publish(survey=survey, confirm_unbounded=True)


# -- the tampering: each returns the spec to send instead ----------------------


def understate_epsilon(spec: Spec) -> Spec:
    return {**spec, "epsilon": spec["epsilon"] / 2}


def overstate_epsilon(spec: Spec) -> Spec:
    return {**spec, "epsilon": 12.0}


def give_answers_away(spec: Spec) -> Spec:
    # Yes is always sent as Yes; No as Yes a quarter of the time.
    return {**spec, "thresholds": [[D, D], [D // 4, D]]}


def decreasing_thresholds(spec: Spec) -> Spec:
    first, second = spec["thresholds"]
    return {**spec, "thresholds": [first, [second[1], second[0]]]}


def crosswise_label(spec: Spec) -> Spec:
    # A Warner question relabelled crosswise would send the true answer.
    return {**spec, "procedure": "crosswise"}


def drop_procedure(spec: Spec) -> Spec:
    # A crosswise pairing must never be randomized by the device.
    return {key: value for key, value in spec.items() if key != "procedure"}


def instructed_label(spec: Spec) -> Spec:
    return {**spec, "procedure": "instructed"}


def everyone_direct(spec: Spec) -> Spec:
    return {
        **spec,
        "direct_arm": {"format": 1, "denominator": 100, "direct_below": 100},
    }


def arm_above_limit(spec: Spec) -> Spec:
    return {**spec, "direct_arm": {"format": 1, "denominator": 100, "direct_below": 51}}


def arm_of_nothing(spec: Spec) -> Spec:
    return {**spec, "direct_arm": {"format": 1, "denominator": 0, "direct_below": 0}}


def fractional_arm(spec: Spec) -> Spec:
    return {
        **spec,
        "direct_arm": {"format": 1, "denominator": 100, "direct_below": 2.5},
    }


def arm_on_crosswise(spec: Spec) -> Spec:
    return {**spec, "direct_arm": {"format": 1, "denominator": 100, "direct_below": 10}}


def nearly_always_yes(spec: Spec) -> Spec:
    # Group 0 is almost never told "answer Yes": a Yes there reveals almost all.
    return {**spec, "forced_yes": [1, spec["forced_yes"][1]]}


def one_group(spec: Spec) -> Spec:
    return {**spec, "group_threshold": D}


def same_instruction(spec: Spec) -> Spec:
    return {**spec, "forced_yes": [spec["forced_yes"][0]] * 2}


def understate_yes_epsilon(spec: Spec) -> Spec:
    return {**spec, "yes_epsilon": spec["yes_epsilon"] / 2}


def fewer_items(spec: Spec) -> Spec:
    return {**spec, "m": spec["m"] - 1}


def louder_items(spec: Spec) -> Spec:
    # Each item kept 97% of the time: ln(97/3) = 3.5 per item, 13.9 for four,
    # with every stated epsilon made to agree so that only the cap refuses it.
    keep = round(0.97 * D)
    bit = {**spec["bit"], "thresholds": [[keep, D], [D - keep, D]]}
    item = math.log(keep / (D - keep))
    bit["epsilon"] = item
    return {**spec, "bit": bit, "epsilon_item": item, "epsilon": 4 * item}


def understate_items_epsilon(spec: Spec) -> Spec:
    return {**spec, "epsilon": spec["epsilon"] / 2}


def written_out(spec: Spec) -> Spec:
    """The spec with its thresholds in full, as a tampering page may send it."""
    assert RULE_KEY in spec, "a count's thresholds reach the page as a rule"
    rule = spec[RULE_KEY]
    thresholds = expand_thresholds(
        rule["near"], rule["ends"], spec["k"], spec["denominator"]
    )
    return {
        **{k: v for k, v in spec.items() if k != RULE_KEY},
        "thresholds": thresholds,
    }


def count_gives_one_away(spec: Spec) -> Spec:
    spec = written_out(spec)
    thresholds = [list(row) for row in spec["thresholds"]]
    # Everyone who did it 15 times reports 15.
    thresholds[15] = [0] * 15 + [D] * (spec["k"] - 15)
    return {**spec, "thresholds": thresholds}


def count_shorter_range(spec: Spec) -> Spec:
    spec = written_out(spec)
    k = spec["k"] - 1
    rows = [[*row[: k - 1], D] for row in spec["thresholds"][:k]]
    return {**spec, "k": k, "thresholds": rows}


def understate_count_epsilon(spec: Spec) -> Spec:
    return {**spec, "epsilon": 0.5}


def count_base_gives_one_away(spec: Spec) -> Spec:
    # No one one count away from their truth reports it: reporting 1 is then
    # impossible for a truth of 0 but not for 1.
    near = [0, *spec[RULE_KEY]["near"][1:]]
    return {**spec, RULE_KEY: {**spec[RULE_KEY], "near": near}}


def count_base_too_large(spec: Spec) -> Spec:
    # Off-diagonal counts above the denominator leave the diagonal negative.
    ends = [D] * len(spec[RULE_KEY]["ends"])
    return {**spec, RULE_KEY: {**spec[RULE_KEY], "ends": ends}}


def count_base_cut_short(spec: Spec) -> Spec:
    near = spec[RULE_KEY]["near"][:-1]
    return {**spec, RULE_KEY: {**spec[RULE_KEY], "near": near}}


CASES: list[tuple[str, str, Callable[[Spec], Spec], str]] = [
    ("epsilon", "yes_no", understate_epsilon, "but its thresholds give"),
    ("epsilon", "yes_no", overstate_epsilon, "states epsilon 12"),
    ("thresholds", "yes_no", give_answers_away, "epsilon ∞"),
    ("thresholds", "yes_no", decreasing_thresholds, "unreadable design"),
    ("procedure", "yes_no", crosswise_label, "cannot be asked as a crosswise pairing"),
    ("procedure", "crosswise", drop_procedure, "not randomized by this device"),
    ("procedure", "yes_no", instructed_label, "cannot run the procedure"),
    ("arm share", "armed", everyone_direct, "ask 100% of respondents directly"),
    ("arm share", "armed", arm_above_limit, "above the limit of 50%"),
    # On a page without the arm's part of the randomizer, any arm is refused.
    ("arm share", "yes_no", arm_above_limit, "unreadable validation arm"),
    ("arm share", "armed", arm_of_nothing, "unreadable validation arm"),
    ("arm share", "armed", fractional_arm, "unreadable validation arm"),
    ("arm share", "crosswise", arm_on_crosswise, "cannot be asked directly"),
    # Within the limit, but on a page that loaded no module to draw it.
    ("arm share", "yes_no", arm_on_crosswise, "unreadable validation arm"),
    ("instructed probabilities", "instructed", nearly_always_yes, "protect a Yes less"),
    ("instructed probabilities", "instructed", one_group, "group_threshold"),
    ("instructed probabilities", "instructed", same_instruction, "must differ"),
    ("instructed probabilities", "instructed", understate_yes_epsilon, "for a Yes"),
    ("unary parameters", "multi_select", fewer_items, "3 items, but the question"),
    ("unary parameters", "multi_select", louder_items, "for all items together"),
    ("unary parameters", "multi_select", understate_items_epsilon, "states epsilon"),
    ("count thresholds", "count", count_gives_one_away, "epsilon ∞"),
    ("count thresholds", "count", count_shorter_range, "30 answers, but the question"),
    ("count thresholds", "count", understate_count_epsilon, "states epsilon 0.5"),
    ("count base", "count", count_base_gives_one_away, "epsilon ∞"),
    ("count base", "count", count_base_too_large, "unreadable design"),
    ("count base", "count", count_base_cut_short, "malformed thresholds rule"),
]


def serve_with(respondent: Any, survey: Survey, change: Callable[[Spec], Spec]) -> None:
    """Rewrite the first question's spec in the page's data on its way in."""

    def rewrite(route: Any) -> None:
        response = route.fetch()
        html = response.text()
        found = CONFIG.search(html)
        assert found is not None, "the page carries its data in #survey-config"
        config = json.loads(found["data"])
        question = config["questions"][0]
        question["spec"] = change(question["spec"])
        element = str(json_script(config, "survey-config"))
        route.fulfill(response=response, body=html.replace(found[0], element))

    respondent.page.route(respondent.origin + page_path(survey), rewrite)


def assert_nothing_sent(respondent: Any, survey: Survey) -> None:
    """Only the page and its static files were requested, all plain GETs."""
    respondent.page.wait_for_load_state("networkidle")
    assert respondent.requests, "the requests were recorded"
    for request in respondent.requests:
        assert request.method == "GET", request.url
        assert request.post_data is None, request.url
        # No query string or fragment: a URL carries no answer either.
        assert "?" not in request.url, request.url
        assert "#" not in request.url, request.url
        assert request.path == page_path(survey) or request.path.startswith(
            "/static/"
        ), request.url
    assert respondent.storage()["local"] == {}
    assert not Response.objects.exists()


@pytest.mark.parametrize(
    ("field", "kind", "change", "reason"),
    CASES,
    ids=[f"{field}-{change.__name__}" for field, _, change, _ in CASES],
)
def test_a_tampered_field_is_refused_and_nothing_is_sent(
    visit, owner, field, kind, change, reason
):
    survey = survey_of(owner, kind)
    respondent = visit()
    serve_with(respondent, survey, change)
    respondent.goto(page_path(survey))
    page = respondent.page
    refusal = page.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_have_attribute("role", "alert")
    expect(refusal).to_contain_text("Question 1 cannot be answered safely")
    expect(refusal).to_contain_text(reason)
    expect(refusal).to_contain_text("Nothing has been sent")
    # Nothing to answer, nothing relabelled: the questions are gone.
    expect(page.locator("#survey")).to_have_count(0)
    expect(send_button(page)).to_have_count(0)
    assert_nothing_sent(respondent, survey)


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_untampered_page_through_the_same_rewriting_is_answerable(
    visit, owner, kind
):
    survey = survey_of(owner, kind)
    respondent = visit()
    serve_with(respondent, survey, lambda spec: spec)
    respondent.goto(page_path(survey))
    page = respondent.page
    expect(page.locator("#survey")).to_be_visible()
    expect(send_button(page)).to_be_visible()
    expect(page.locator("#refusal")).to_be_hidden()


SPANISH_CASES: list[tuple[str, Callable[[Spec], Spec], str]] = [
    ("yes_no", overstate_epsilon, "su diseño declara un épsilon de 12 para una"),
    ("yes_no", give_answers_away, "(épsilon ∞, por encima del límite de 10)"),
    ("crosswise", drop_procedure, "no lo aleatoriza este dispositivo"),
    ("multi_select", fewer_items, "su diseño tiene 3 opciones, pero la pregunta"),
    ("instructed", nearly_always_yes, "su diseño protegería un Sí menos"),
]


@pytest.mark.parametrize(
    ("kind", "change", "reason"),
    SPANISH_CASES,
    ids=[f"{kind}-{change.__name__}" for kind, change, _ in SPANISH_CASES],
)
def test_a_refusal_on_a_spanish_page_says_why_in_spanish(
    visit, owner, kind, change, reason
):
    """The scripts refuse in English, by code; the page says the reason in
    its own language, particulars and all."""
    survey = survey_of(owner, kind, language="es")
    respondent = visit()
    serve_with(respondent, survey, change)
    respondent.goto(page_path(survey))
    refusal = respondent.page.locator("#refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("La pregunta 1 no puede responderse de forma")
    expect(refusal).to_contain_text(reason)
    expect(refusal).to_contain_text("No se ha enviado nada")
    text = refusal.inner_text()
    for english in ("its design", "the page", "epsilon ", "answers, but"):
        assert english not in text, english
    assert_nothing_sent(respondent, survey)
