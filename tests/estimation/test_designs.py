"""Designs: validation, matrices, epsilon of the numbers the browser uses."""

import math

import numpy as np
import pytest

from estimation import (
    DESIGNS,
    Direct,
    ForcedResponse,
    Geometric,
    KaryRR,
    UnrelatedQuestion,
    Warner,
    design_from_dict,
    design_from_epsilon,
    survey_epsilon,
)
from estimation.designs import DENOMINATOR, MAX_EPSILON
from estimation.kinds.binary.designs import Crosswise

# One step of the browser's integer grid moves a probability by 2**-32; the
# epsilon of rounded numbers can differ from the target by a few such steps
# relative to the smallest probability involved.
GRID = 2.0**-32


def test_two_coin_warner_design_is_ln3_private():
    assert Warner(p=0.75).epsilon == pytest.approx(math.log(3), abs=1e-15)


def test_coin_forced_response_is_ln3_private():
    design = ForcedResponse(p_truth=0.5, p_forced=[0.25, 0.25])
    assert design.epsilon == pytest.approx(math.log(3), abs=1e-15)
    assert design.matrix.tolist() == [[0.75, 0.25], [0.25, 0.75]]


def test_warner_matrix_rows_are_truth_and_columns_are_reports():
    design = Warner(p=0.8)
    # Truth No (row 0) is reported No with probability p.
    assert design.matrix[0, 0] == pytest.approx(0.8, abs=GRID)
    assert design.matrix[0, 1] == pytest.approx(0.2, abs=GRID)


def test_warner_below_one_half_has_a_negative_diagonal_and_the_same_epsilon():
    assert Warner(p=0.3).diagonal < 0
    assert Warner(p=0.3).epsilon == pytest.approx(Warner(p=0.7).epsilon, abs=1e-12)


@pytest.mark.parametrize(
    "design",
    [
        Warner(p=0.6),
        ForcedResponse(p_truth=0.7, p_forced=[0.1, 0.05, 0.15]),
        UnrelatedQuestion(p=0.7, q=0.3),
        KaryRR(k=7, epsilon=1.3),
        Direct(k=4),
    ],
    ids=lambda d: d.name,
)
def test_every_row_of_the_integer_matrix_sums_to_the_denominator(design):
    assert (design.matrix_counts.sum(axis=1) == DENOMINATOR).all()
    assert (design.matrix_counts >= 0).all()
    assert np.allclose(design.matrix.sum(axis=1), 1.0, rtol=0, atol=0)


def test_epsilon_is_the_largest_log_ratio_within_a_report_column():
    design = ForcedResponse(p_truth=0.7, p_forced=[0.1, 0.05, 0.15])
    columns = design.matrix_counts.T
    expected = max(math.log(c.max() / c.min()) for c in columns)
    assert design.epsilon == expected
    # The rarest forced answer dominates: (0.05 + 0.7) / 0.05.
    assert design.epsilon == pytest.approx(math.log(15), rel=1e-8)


def test_unrelated_question_epsilon_matches_its_closed_form():
    p, q = 0.7, 0.3
    yes = math.log((p + (1 - p) * q) / ((1 - p) * q))
    no = math.log((p + (1 - p) * (1 - q)) / ((1 - p) * (1 - q)))
    assert UnrelatedQuestion(p=p, q=q).epsilon == pytest.approx(max(yes, no), rel=1e-8)


def test_a_zero_probability_report_makes_epsilon_infinite():
    assert ForcedResponse(p_truth=0.8, p_forced=[0.0, 0.2]).epsilon == math.inf
    assert UnrelatedQuestion(p=0.5, q=0.0).epsilon == math.inf
    assert Direct(k=3).epsilon == math.inf
    assert not Direct(k=3).private


@pytest.mark.parametrize("k", [2, 3, 5, 20])
@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0, math.log(3), 8.0])
def test_krr_round_trips_epsilon_within_the_rounding_of_the_client_spec(k, epsilon):
    design = KaryRR(k=k, epsilon=epsilon)
    keep = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    other = 1 / (math.exp(epsilon) + k - 1)
    assert design.matrix[0, 0] == pytest.approx(keep, abs=k * GRID)
    assert design.matrix[0, 1] == pytest.approx(other, abs=GRID)
    # Rounding `other` by at most half a step moves log(keep / other) by at
    # most about k * GRID / other.
    assert design.epsilon == pytest.approx(epsilon, abs=2 * k * GRID / other)
    spec = design.client_spec()
    rebuilt = np.diff(np.array(spec["thresholds"]), prepend=0, axis=1)
    stated = max(math.log(c.max() / c.min()) for c in rebuilt.T)
    assert stated == design.epsilon == spec["epsilon"]


@pytest.mark.parametrize("k", [2, 3, 6])
@pytest.mark.parametrize("epsilon", [0.5, 1.0, math.log(3), 3.0])
def test_constructors_from_epsilon_hit_the_target(k, epsilon):
    if k == 2:
        assert Warner.from_epsilon(epsilon).epsilon == pytest.approx(epsilon, abs=1e-8)
    symmetric = ForcedResponse.symmetric(epsilon, k)
    assert symmetric.epsilon == pytest.approx(epsilon, abs=1e-8)
    assert sum(symmetric.p_forced) == pytest.approx(1 - symmetric.p_truth)
    assert design_from_epsilon("krr", epsilon, k).epsilon == pytest.approx(
        epsilon, abs=1e-8
    )


def test_symmetric_forced_response_at_ln3_is_the_coin_design():
    design = ForcedResponse.symmetric(math.log(3), 2)
    assert design.p_truth == pytest.approx(0.5)
    assert design.matrix.tolist() == [[0.75, 0.25], [0.25, 0.75]]


def test_symmetric_designs_stay_exactly_symmetric_after_rounding():
    design = KaryRR(k=7, epsilon=0.9)
    counts = design.matrix_counts
    assert len(set(counts[~np.eye(7, dtype=bool)].tolist())) == 1
    assert len(set(np.diag(counts).tolist())) == 1


def test_survey_epsilon_adds_over_randomized_questions_only():
    designs = [Warner(p=0.75), KaryRR(k=4, epsilon=1.0), Direct(k=5)]
    assert survey_epsilon(designs) == pytest.approx(math.log(3) + 1.0, abs=1e-8)
    assert survey_epsilon([Direct(k=2)]) == 0.0
    assert survey_epsilon([Warner(p=0.75), ForcedResponse(0.8, [0, 0.2])]) == math.inf


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"name": "warner", "p": 0.5}, "p"),
        ({"name": "warner", "p": 1.0}, "p"),
        ({"name": "warner", "p": -0.1}, "p"),
        ({"name": "warner", "p": "0.7"}, "p"),
        ({"name": "warner", "p": float("nan")}, "p"),
        ({"name": "warner", "p": True}, "p"),
        ({"name": "forced_response", "p_truth": 0, "p_forced": [0.5, 0.5]}, "p_truth"),
        (
            {"name": "forced_response", "p_truth": 0.5, "p_forced": [0.3, 0.3]},
            "p_forced",
        ),
        (
            {"name": "forced_response", "p_truth": 0.5, "p_forced": [0.6, -0.1]},
            "p_forced[1]",
        ),
        ({"name": "forced_response", "p_truth": 0.5, "p_forced": [0.5]}, "p_forced"),
        ({"name": "forced_response", "p_truth": 0.5, "p_forced": "ab"}, "p_forced"),
        ({"name": "unrelated_question", "p": 0.5, "q": 1.5}, "q"),
        ({"name": "krr", "k": 1, "epsilon": 1.0}, "k"),
        ({"name": "krr", "k": 2.5, "epsilon": 1.0}, "k"),
        ({"name": "krr", "k": 3, "epsilon": 0}, "epsilon"),
        ({"name": "krr", "k": 3, "epsilon": MAX_EPSILON + 1}, "epsilon"),
        ({"name": "direct", "k": 0}, "k"),
        ({"name": "coin"}, "name"),
        ({"name": "warner"}, "p"),
        ({"name": "warner", "p": 0.7, "q": 0.1}, "p"),
    ],
)
def test_bad_parameters_raise_a_value_error_naming_them(data, named):
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        design_from_dict(data)


def test_design_from_dict_accepts_epsilon_for_warner_and_forced_response():
    assert design_from_dict({"name": "warner", "epsilon": math.log(3)}).epsilon == (
        pytest.approx(math.log(3), abs=1e-9)
    )
    design = design_from_dict({"name": "forced_response", "epsilon": 1.0, "k": 3})
    assert design.k == 3
    assert design.epsilon == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_every_registered_design_describes_itself_in_plain_words(name):
    design = {
        "warner": Warner(p=0.75),
        "forced_response": ForcedResponse(0.5, [0.25, 0.25]),
        "unrelated_question": UnrelatedQuestion(0.7, 0.3),
        "krr": KaryRR(k=4, epsilon=1.0),
        "direct": Direct(k=3),
        "crosswise": Crosswise(p=0.25),
        "geometric": Geometric(m=10, epsilon=2.0),
    }[name]
    text = design.describe()
    assert text.endswith(".")
    assert "epsilon" not in text.lower()


def test_descriptions_state_the_probabilities_the_browser_uses():
    assert "75%" in Warner(p=0.75).describe()
    coin = ForcedResponse(0.5, [0.25, 0.25]).describe(labels=["Never", "Sometimes"])
    assert "50%" in coin
    assert "“Never” (25%)" in coin
    assert "“Sometimes” (25%)" in coin


def test_client_spec_is_plain_json_data():
    spec = KaryRR(k=3, epsilon=1.0).client_spec()
    assert spec["design"] == "krr"
    assert spec["params"] == {"k": 3, "epsilon": 1.0}
    assert spec["denominator"] == 2**32
    assert [row[-1] for row in spec["thresholds"]] == [2**32] * 3
    assert Direct(k=2).client_spec()["epsilon"] is None


def test_designs_are_immutable_and_hashable():
    design = Warner(p=0.75)
    with pytest.raises(AttributeError):
        design.p = 0.9
    assert {design, Warner(p=0.75)} == {design}
    assert repr(KaryRR(k=3, epsilon=1.0)) == "KaryRR(k=3, epsilon=1.0)"


def test_an_epsilon_too_small_to_estimate_anything_is_refused():
    with pytest.raises(ValueError, match="epsilon must be between"):
        KaryRR(k=6, epsilon=1e-10)
