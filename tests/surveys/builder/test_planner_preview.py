"""The design preview's planner: the expected prevalence a researcher names,
and the responses to tell two groups apart, for every kind."""

import pytest

from estimation.kinds import any_design_from_dict
from estimation.planner import expected_precision, two_groups
from tests.surveys.builder.pages import preview

pytestmark = pytest.mark.django_db

WARNER = {
    "kind": "yes_no",
    "design_name": "warner",
    "mode": "probabilities",
    "p": "0.75",
}
# One question of every kind that the planner plans, as the form sends it.
EVERY_KIND = {
    "yes_no": WARNER,
    "multiple_choice": {
        "kind": "multiple_choice",
        "options": "A\nB\nC\nD",
        "design_name": "krr",
        "epsilon": "1",
    },
    "multi_select": {
        "kind": "multi_select",
        "options": "Cannabis\nCocaine\nEcstasy",
        "design_name": "sue",
        "epsilon": "2",
    },
    "count": {
        "kind": "count",
        "maximum": "10",
        "design_name": "geometric",
        "epsilon": "2",
    },
    "instructed": {
        "kind": "instructed",
        "design_name": "cheating_detection",
        "p1": "0.3",
        "p2": "0.7",
    },
}


def test_it_labels_the_default_prevalence_as_an_assumption(as_owner):
    data = preview(as_owner, **WARNER).json()
    assert data["prevalence"] == 0.1
    assert data["prevalence_assumed"] is True
    assert "an assumption (the default)" in data["assumption"]
    assert data["groups"] is None


def test_the_precision_uses_the_prevalence_the_researcher_names(as_owner):
    data = preview(as_owner, **WARNER, prevalence="0.4", n="800").json()
    design = any_design_from_dict(data["design"])
    assert data["prevalence_assumed"] is False
    assert "as you entered it" in data["assumption"]
    assert data["half_width"] == pytest.approx(expected_precision(design, 800, 0.4))
    assert data["precision"].startswith("With 800 respondents, if 40% would truly")
    default = preview(as_owner, **WARNER, n="800").json()
    assert data["half_width"] > default["half_width"]


@pytest.mark.parametrize("kind", sorted(EVERY_KIND))
def test_every_kind_plans_its_precision_and_two_groups(as_owner, kind):
    data = preview(
        as_owner,
        **EVERY_KIND[kind],
        prevalence="0.2",
        compared_prevalence="0.35",
        first_group_share="0.4",
        power="0.9",
    ).json()
    assert data["valid"], data
    design = any_design_from_dict(data["design"])
    plan = two_groups(design, 0.2, 0.35, share=0.4, power=0.9)
    assert data["prevalence"] == 0.2
    assert "20%" in data["precision"]
    groups = data["groups"]
    assert (groups["total"], groups["in_first"], groups["in_second"]) == (
        plan.total,
        plan.in_first,
        plan.in_second,
    )
    assert f"about {plan.total:,} responses are needed" in groups["sentence"]
    assert (
        "with 90% power, 40% of the responses in the first group"
        in (groups["sentence"])
    )


def test_a_count_names_the_means_it_compares(as_owner):
    data = preview(
        as_owner, **EVERY_KIND["count"], prevalence="0.2", compared_prevalence="0.4"
    ).json()
    # 20% and 40% with a count from 1 to 10: means 1.10 and 2.20.
    assert "The estimates compared are 1.10 and 2.20." in data["groups"]["sentence"]
    assert "a mean of 1.10" in data["precision"]


def test_a_difference_too_small_is_refused_in_words_not_planned(as_owner):
    data = preview(
        as_owner, **WARNER, prevalence="0.1", compared_prevalence="0.1000001"
    ).json()
    assert data["groups"]["total"] is None
    assert "more than 100,000,000 responses" in data["groups"]["sentence"]
    assert "name a larger difference" in data["groups"]["sentence"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("prevalence", "0"),
        ("prevalence", "1"),
        ("prevalence", "10"),
        ("prevalence", "lots"),
        ("prevalence", "nan"),
        ("compared_prevalence", "-0.2"),
        ("compared_prevalence", "0.1"),
        ("first_group_share", "1"),
        ("power", "0.2"),
        ("alpha", "0.6"),
    ],
)
def test_a_planning_input_out_of_range_is_a_400_naming_it(as_owner, field, value):
    response = preview(as_owner, **WARNER, **{field: value})
    assert response.status_code == 400
    data = response.json()
    assert list(data["fields"]) == [field]
    assert data["error"].startswith(field)


def test_the_group_share_of_a_device_instructed_design_is_its_own(as_owner):
    data = preview(
        as_owner,
        **EVERY_KIND["instructed"],
        group_share="0.4",
        compared_prevalence="0.3",
    ).json()
    assert data["design"]["group_share"] == 0.4
    assert data["groups"]["first_group_share"] == 0.5


def test_a_rough_plan_says_so(as_owner):
    data = preview(
        as_owner,
        kind="count",
        maximum="10",
        design_name="geometric",
        epsilon="9",
        prevalence="0.02",
        compared_prevalence="0.15",
        first_group_share="0.6",
    ).json()
    assert data["groups"]["rough"] is True
    assert "approximation is rough" in data["groups"]["sentence"]


def test_the_planner_speaks_spanish_in_a_spanish_session():
    from django.utils import translation

    from estimation.kinds.binary.designs import Warner
    from surveys.builder.planning import Assumptions, groups_summary

    with translation.override("es"):
        groups = groups_summary(Warner(p=0.75), Assumptions(compared=0.2))
    assert groups is not None
    sentence = groups["sentence"]
    assert sentence.startswith("Para distinguir un grupo con el 10\u00a0%")
    assert "potencia del 80\u00a0%" in sentence
    assert "unas 2\u00a0748 respuestas: 1\u00a0374 en el primer grupo" in sentence
