"""The live design preview beside the question form."""

import math

import pytest

from tests.surveys.builder.pages import (
    preview,
)

pytestmark = pytest.mark.django_db


# -- the live design preview ------------------------------------------------------


def test_the_preview_of_warner_three_to_one_has_epsilon_ln_3(as_owner):
    response = preview(
        as_owner, kind="yes_no", design_name="warner", mode="probabilities", p="0.75"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["epsilon"] == pytest.approx(math.log(3), abs=1e-6)
    assert data["epsilon_text"] == "1.1"
    assert data["sentence"].startswith("75% of respondents answer truthfully")
    assert "at most 75% sure" in data["observer"]
    assert data["n"] == 500
    assert data["precision"].startswith("With 500 respondents, if 10%")


def test_the_preview_uses_the_planned_respondents(as_owner):
    small = preview(as_owner, kind="yes_no", design_name="warner", p="0.75", n="100")
    large = preview(as_owner, kind="yes_no", design_name="warner", p="0.75", n="10000")
    assert small.json()["half_width"] == pytest.approx(10 * large.json()["half_width"])
    assert "With 10,000 respondents" in large.json()["precision"]


def test_the_preview_describes_forced_response(as_owner):
    data = preview(
        as_owner,
        kind="yes_no",
        design_name="forced_response",
        p_truth="0.8",
        p_forced="0,0.2",
    ).json()
    assert data["epsilon"] is None
    assert data["sentence"].startswith(
        "80% of respondents answer truthfully; 20% are told to answer Yes."
    )


def test_the_preview_builds_multiple_choice_by_epsilon(as_owner):
    data = preview(
        as_owner,
        kind="multiple_choice",
        options="A\nB\nC\nD",
        design_name="krr",
        epsilon="1",
    ).json()
    assert data["epsilon"] == pytest.approx(1.0, abs=1e-6)
    assert data["design"] == {"name": "krr", "k": 4, "epsilon": 1.0}
    assert "least precise option" in data["precision"]


def test_the_preview_of_a_direct_question_says_it_is_not_private(as_owner):
    data = preview(as_owner, kind="direct", options="Young\nOld").json()
    assert data["epsilon"] is None
    assert data["epsilon_text"] == "not private"


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"kind": "yes_no", "design_name": "warner", "p": "1.5"}, "p must be in"),
        ({"kind": "yes_no", "design_name": "warner", "p": "x"}, "Probability p"),
        ({"kind": "nonsense"}, "Kind of question"),
        ({"kind": "multiple_choice", "options": "A"}, "between 2 and 20"),
    ],
)
def test_the_preview_explains_a_design_that_is_not_valid_yet(as_owner, params, words):
    response = preview(as_owner, **params)
    assert response.status_code == 200
    assert response.json()["valid"] is False
    assert words in response.json()["error"]


@pytest.mark.parametrize("n", ["0", "lots"])
def test_the_preview_answers_400_on_a_malformed_n(as_owner, n):
    response = preview(as_owner, kind="yes_no", design_name="warner", n=n)
    assert response.status_code == 400
    assert "n must be" in response.json()["error"]


@pytest.mark.parametrize(
    ("epsilon", "band", "warning"),
    [
        ("1", "strong", None),
        ("2", "moderate", None),
        ("4", "weak", None),
        ("4.5", "minimal", "Past the weak band"),
        ("6", "minimal", "above this site's limit of 5 per question"),
    ],
)
def test_the_preview_shows_the_band_and_warns_past_the_weak_band(
    as_owner, epsilon, band, warning
):
    data = preview(
        as_owner, kind="yes_no", design_name="warner", mode="epsilon", epsilon=epsilon
    ).json()
    assert data["valid"], data
    assert data["band"] == band
    if warning is None:
        assert data["warning"] is None
    else:
        assert warning in data["warning"]
