"""Designs whose device instructs and whose respondent answers: specs, words, fixture."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from estimation.designs import DENOMINATOR
from estimation.kinds.instructed.designs import (
    CheatingDetection,
    StochasticLieDetector,
    instruct,
    instructed_design_from_dict,
    instructed_report,
)
from estimation.kinds.instructed.estimate import GroupCounts, estimate_cdm, estimate_sld
from estimation.kinds.instructed.golden import instructed_fixture
from estimation.words import percent

FIXTURE = Path(__file__).parents[1] / "fixtures" / "instructed_designs.json"
DESIGNS = [
    CheatingDetection(p1=0.3, p2=0.7),
    StochasticLieDetector(p1=2 / 12, p2=10 / 12, group_share=0.4),
]


def test_the_instructed_fixture_is_current():
    stored = json.loads(FIXTURE.read_text())
    assert stored == json.loads(json.dumps(instructed_fixture())), (
        "tests/fixtures/instructed_designs.json is stale: run `make golden` and commit it"
    )


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_the_browsers_rule_gives_the_compliant_matrix(design):
    # Enumerate the pieces of both uniform draws on which the outcome is
    # constant, as the JavaScript test does, and credit their areas.
    spec = design.client_spec()
    mass = [[0] * 4 for _ in range(2)]
    g = spec["group_threshold"]
    for g_start, g_stop in ((0, g), (g, DENOMINATOR)):
        group = instruct(spec, g_start, 0)[0]
        assert instruct(spec, g_stop - 1, 0)[0] == group
        cut = spec["forced_yes"][group]
        for v_start, v_stop in ((0, cut), (cut, DENOMINATOR)):
            says_yes = instruct(spec, g_start, v_start)[1]
            assert instruct(spec, g_stop - 1, v_stop - 1)[1] == says_yes
            for truth in (0, 1):
                answer = 1 if says_yes else truth
                area = (g_stop - g_start) * (v_stop - v_start)
                mass[truth][instructed_report(group, answer)] += area
    assert mass == design.matrix_counts
    assert np.allclose(design.matrix.sum(axis=1), 1.0, atol=1e-15)


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_a_no_gives_the_answer_away_under_compliance(design):
    # Report "No" (0 and 2) is impossible for a true Yes.
    assert design.matrix[1, 0] == 0
    assert design.matrix[1, 2] == 0
    assert math.isinf(design.epsilon)
    assert design.client_spec()["epsilon"] is None


def test_yes_epsilon_is_the_largest_log_ratio_of_a_yes():
    design = CheatingDetection(p1=0.3, p2=0.7)
    ratios = [design.matrix[1, r] / design.matrix[0, r] for r in (1, 3)]
    assert design.yes_epsilon == pytest.approx(math.log(max(ratios)), rel=1e-12)


def test_the_parameters_follow_rreggs_conventions():
    # CDM: p is the chance of "answer Yes"; SLD: of "answer truthfully".
    assert CheatingDetection(p1=0.3, p2=0.7).forced_yes == pytest.approx((0.3, 0.7))
    lie = StochasticLieDetector(p1=2 / 12, p2=10 / 12)
    assert lie.forced_yes == pytest.approx((10 / 12, 2 / 12))
    assert lie.p == pytest.approx((2 / 12, 10 / 12))


def test_estimates_use_the_probabilities_on_the_grid():
    counts = [60, 40, 30, 70]
    data = GroupCounts.from_reports(counts)
    cdm = CheatingDetection(p1=0.3, p2=0.7)
    assert cdm.estimate(counts) == estimate_cdm(data, cdm.p)
    sld = StochasticLieDetector(p1=0.7, p2=0.3)
    assert sld.estimate(counts) == estimate_sld(data, sld.p)


def test_it_round_trips_and_refuses_bad_parameters_by_name():
    for design in DESIGNS:
        assert (
            instructed_design_from_dict(json.loads(json.dumps(design.to_dict())))
            == design
        )
    with pytest.raises(ValueError, match="p1 and p2 must differ"):
        CheatingDetection(p1=0.3, p2=0.3)
    with pytest.raises(ValueError, match="group_share"):
        CheatingDetection(p1=0.3, p2=0.7, group_share=1.0)
    with pytest.raises(ValueError, match="p2"):
        StochasticLieDetector(p1=0.3, p2=-0.1)
    with pytest.raises(ValueError, match="takes parameters p1, p2"):
        instructed_design_from_dict({"name": "lie_detector", "p": 0.3})
    with pytest.raises(ValueError, match="design name"):
        instructed_design_from_dict({"name": "warner", "p1": 0.3, "p2": 0.7})


@pytest.mark.parametrize("design", DESIGNS, ids=repr)
def test_its_words_state_the_probabilities_and_what_a_no_reveals(design):
    text = design.describe()
    assert "never what the device told you" in text
    assert "a “No” is only ever given, when the instruction is followed" in text
    for share in design.forced_yes:
        assert percent(share) in text


def test_the_report_is_two_times_group_plus_answer():
    assert [instructed_report(g, a) for g in (0, 1) for a in (0, 1)] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="0 or 1"):
        instructed_report(2, 1)
