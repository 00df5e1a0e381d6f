"""A respondent page loads the module of a feature only when its survey uses
the feature: the config names it for the page script to import, and the head
preloads it with the integrity of the file served (surveys/respond/page_modules.py)."""

from __future__ import annotations

import json
import re

import pytest

from surveys.builder.questions import question_create
from surveys.builder.sections import section_create
from surveys.builder.services import survey_publish, survey_update
from surveys.models import Question
from surveys.respond.integrity import CONDITIONS_SCRIPT, RANDOMIZER_PARTS, integrity
from surveys.respond.page_modules import FEATURE_SCRIPTS
from tests.surveys.display_logic.data import WARNER, shown_if_yes

pytestmark = pytest.mark.django_db

PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)" integrity="([^"]+)">')


def page_of(client, survey):
    page = client.get(f"/s/{survey.slug}/").content.decode()
    (data,) = re.findall(
        r'<script id="survey-config" type="application/json">(.*?)</script>',
        page,
        re.S,
    )
    return json.loads(data), dict(PRELOAD.findall(page))


def feature_urls():
    return {integrity(path).url for paths in FEATURE_SCRIPTS.values() for path in paths}


def test_a_page_without_features_loads_none_of_their_modules(client, open_survey):
    config, preloads = page_of(client, open_survey)
    assert config["modules"] == {}
    assert not feature_urls() & set(preloads)
    # Nor the randomizer's part for an arm; the rule's only with a spec that
    # travels as a base and a rule.
    arm = integrity(RANDOMIZER_PARTS["arm"]).url
    assert "arm" not in config.get("parts", {})
    assert arm not in preloads
    ruled = any("thresholds_rule" in q["spec"] for q in config["questions"])
    assert ("rule" in config.get("parts", {})) == ruled
    # Nor the words only a feature shows.
    assert "pageOf" not in config["messages"]
    assert "answerAgain" not in config["messages"]
    assert "directText" not in config["messages"]
    page = client.get(f"/s/{open_survey.slug}/").content.decode()
    # The page's own script is fetched with the others, from the head, not
    # once the parser reaches the end of the body.
    (own,) = re.findall(
        r'<script type="module" src="([^"]+)" integrity="([^"]+)">', page
    )
    assert next(iter(preloads)) == own[0]
    assert preloads[own[0]] == own[1]
    # The kinds' scripts are still there, each named once.
    assert config["scripts"]
    for question in config["questions"]:
        script = question.get("script")
        assert script is None or config["scripts"][script] in preloads


def assert_loads(config, preloads, name, *paths):
    assert config["modules"][name] == integrity(paths[0]).url
    for path in paths:
        served = integrity(path)
        assert preloads[served.url] == served.sri


def test_display_logic_loads_its_module_and_the_conditions(client, draft_survey):
    filter_question = question_create(
        survey=draft_survey,
        text="Have you ever worked?",
        kind="direct",
        options=["No", "Yes"],
        design={"name": "direct", "k": 2},
    )
    question_create(
        survey=draft_survey,
        text="Have you ever taken something from work?",
        kind="yes_no",
        design=WARNER,
        condition=shown_if_yes(filter_question),
    )
    config, preloads = page_of(client, survey_publish(survey=draft_survey))
    assert set(config["modules"]) == {"displayLogic"}
    assert_loads(config, preloads, "displayLogic", *FEATURE_SCRIPTS["displayLogic"])
    assert CONDITIONS_SCRIPT in FEATURE_SCRIPTS["displayLogic"]


def test_sections_load_the_pages_module_and_its_words(client, draft_survey):
    section_create(survey=draft_survey, title="First")
    question_create(survey=draft_survey, text="Later?", kind="yes_no", design=WARNER)
    section_create(survey=draft_survey, title="Second")
    question_create(survey=draft_survey, text="Last?", kind="yes_no", design=WARNER)
    survey = survey_publish(survey=draft_survey)
    config, preloads = page_of(client, survey)
    assert set(config["modules"]) == {"pages"}
    assert_loads(config, preloads, "pages", *FEATURE_SCRIPTS["pages"])
    assert "pageOf" in config["messages"]
    assert config["messages"]["answerAgain"] == "Answer again"
    # The "answered" notes are made by the pages' script when a page is left,
    # not sent hidden with every question.
    assert "answered-note" not in client.get(f"/s/{survey.slug}/").content.decode()


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"consent": "I agree to take part."}, "consent"),
        ({"practice": True}, "practice"),
        ({"access_mode": "invitation"}, "access"),
    ],
)
def test_a_survey_setting_loads_its_feature(client, draft_survey, fields, name):
    survey_update(survey=draft_survey, **fields)
    config, preloads = page_of(client, survey_publish(survey=draft_survey))
    assert set(config["modules"]) == {name}
    assert_loads(config, preloads, name, *FEATURE_SCRIPTS[name])


def test_a_validation_arm_loads_its_module_and_its_words(client, draft_survey):
    question_create(
        survey=draft_survey,
        text="Have you ever driven after drinking?",
        kind="yes_no",
        design=WARNER,
        direct_percent=20,
    )
    config, preloads = page_of(client, survey_publish(survey=draft_survey))
    assert set(config["modules"]) == {"arms"}
    assert_loads(config, preloads, "arms", *FEATURE_SCRIPTS["arms"])
    assert "directText" in config["messages"]
    # With the randomizer's part that checks and draws an arm, preloaded too.
    arm = integrity(RANDOMIZER_PARTS["arm"])
    assert config["parts"]["arm"] == arm.url
    assert preloads[arm.url] == arm.sri


def test_a_spec_sent_as_a_base_and_a_rule_loads_the_rules_part(client, draft_survey):
    question_create(
        survey=draft_survey,
        text="How many times did you drive after drinking last year?",
        kind=Question.Kind.COUNT,
        options=["0", "20"],
        design={"name": "geometric", "m": 20, "epsilon": 1.0},
    )
    config, preloads = page_of(client, survey_publish(survey=draft_survey))
    assert "thresholds_rule" in config["questions"][-1]["spec"]
    rule = integrity(RANDOMIZER_PARTS["rule"])
    assert config["parts"]["rule"] == rule.url
    assert preloads[rule.url] == rule.sri


def test_the_transparency_page_lists_every_feature_module(client, open_survey):
    page = client.get(f"/s/{open_survey.slug}/transparency/").content.decode()
    for paths in FEATURE_SCRIPTS.values():
        assert integrity(paths[0]).sha256 in page
    for path in RANDOMIZER_PARTS.values():
        assert integrity(path).sha256 in page


@pytest.mark.parametrize(
    "question",
    [
        {
            "kind": Question.Kind.COUNT,
            "options": ["0", "5"],
            "design": {"name": "geometric", "m": 5, "epsilon": 1.0},
        },
        {
            "kind": Question.Kind.FREE_TEXT,
            "design": {"name": "direct"},
            "answer_format": {"max_length": 100},
        },
    ],
    ids=["count", "free text"],
)
def test_a_question_typed_into_loads_what_every_box_does(
    client, draft_survey, question
):
    question_create(survey=draft_survey, text="How many, or what?", **question)
    config, preloads = page_of(client, survey_publish(survey=draft_survey))
    assert set(config["modules"]) == {"boxes"}
    assert_loads(config, preloads, "boxes", *FEATURE_SCRIPTS["boxes"])
