"""What the dashboard reads, shaped in plain functions: targets, plans, saved
rows as views, subgroup breakdowns."""

import math
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

from estimation import Geometric, Warner
from estimation.inference.general import mean_sample_size
from estimation.inference.intervals import anytime_sample_size
from estimation.kinds.multiselect.designs import SymmetricUnary
from estimation.kinds.multiselect.planning import item_sample_size
from estimation.runs.breakdowns import breakdown
from estimation.runs.estimate_views import (
    EstimateView,
    MeanView,
    OptionResult,
    estimate_view,
)
from estimation.runs.plans import DEFAULT_TARGET, parse_target, plan_for


def option(label, estimate, lower, upper, reported=10):
    return OptionResult(label, reported, reported / 20, estimate, lower, upper, 0.05)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, DEFAULT_TARGET),
        ("", DEFAULT_TARGET),
        ("0.03", 0.03),
        ("3", 0.03),
        ("0", None),
        ("nan", None),
        ("75", None),
        ("x", None),
    ],
)
def test_parse_target(value, expected):
    assert parse_target(value) == expected


def yes_no_view(estimate, lower, upper, n):
    return EstimateView(
        n=n,
        options=(
            option("No", 1 - estimate, 1 - upper, 1 - lower),
            option("Yes", estimate, lower, upper),
        ),
        warnings=(),
    )


def test_plan_uses_the_yes_estimate_and_says_reached():
    design = Warner(p=0.75)
    wide = plan_for(design, yes_no_view(0.2, 0.05, 0.4, 100), target=0.05, level=0.95)
    assert wide.half_width == pytest.approx(0.175)
    assert not wide.reached
    assert wide.still_needed == wide.needed_total - 100 > 0
    narrow = plan_for(
        design, yes_no_view(0.2, 0.17, 0.23, 5000), target=0.05, level=0.95
    )
    assert narrow.reached
    assert narrow.still_needed == 0


def test_an_anytime_run_plans_from_the_sequences_own_width():
    design = Warner(p=0.75)
    view = yes_no_view(0.2, 0.0, 0.45, 300)
    fixed = plan_for(design, view, target=0.05, level=0.95)
    anytime = plan_for(design, view, target=0.05, level=0.95, ci_method="anytime")
    assert anytime.needed_total == anytime_sample_size(0.05, design.diagonal, 0.95)
    assert anytime.needed_total > fixed.needed_total
    assert anytime.still_needed == anytime.needed_total - 300


def test_two_items_are_both_planned_not_read_as_yes_and_no():
    design = SymmetricUnary(m=2, epsilon_one_hot=2.0)
    items = (
        OptionResult("A", 30, 0.3, 0.5, 0.1, 0.9, 0.2, band_lower=0.0, band_upper=1),
        OptionResult("B", 10, 0.1, 0.05, 0.0, 0.3, 0.1, band_lower=0.0, band_upper=1),
    )
    view = EstimateView(n=100, options=items, warnings=())
    plan = plan_for(design, view, target=0.05, level=0.95)
    # The widest item (A, not the second option) sets the half-width now, and
    # the item nearest 1/2 needs the most responses.
    assert plan.half_width == pytest.approx(0.4)
    assert plan.needed_total == item_sample_size(design, 0.05, 0.5, level=0.95)
    anytime = plan_for(design, view, target=0.05, level=0.95, ci_method="anytime")
    assert anytime.needed_total == anytime_sample_size(
        0.05, design.bit_design.diagonal, 0.95
    )


def test_a_count_is_planned_for_its_mean_in_counts():
    design = Geometric(m=10, epsilon=2.0)
    shares = [0.5, 0.5] + [0.0] * 9
    view = EstimateView(
        n=100,
        options=tuple(option(str(t), s, 0.0, 1.0) for t, s in enumerate(shares)),
        warnings=(),
        mean=MeanView(estimate=0.5, ci_lower=0.1, ci_upper=1.3, std_error=0.3),
    )
    plan = plan_for(design, view, target=0.05, level=0.95, responses=200)
    assert plan.in_counts
    assert plan.target == pytest.approx(0.5)
    assert plan.half_width == pytest.approx(0.6)
    needed = mean_sample_size(design.matrix, 0.5, 0.95, np.array(shares))
    # Half of the responses answered: twice as many responses are needed.
    assert plan.needed_total == math.ceil(needed * 200 / 100)
    assert plan.still_needed == plan.needed_total - 200


def test_estimate_view_marks_the_prominent_warnings():
    rows = [
        SimpleNamespace(
            option=1, reported=3, estimate=0.1, ci_lower=0, ci_upper=0.6, std_error=0.2
        ),
        SimpleNamespace(
            option=0, reported=7, estimate=0.9, ci_lower=0.4, ci_upper=1, std_error=0.2
        ),
    ]
    warnings = [
        {"code": "few_responses", "message": "Collect more."},
        {"code": "something_else", "message": "FYI."},
    ]
    view = estimate_view(10, ["No", "Yes"], rows, warnings)
    assert [o.label for o in view.options] == ["No", "Yes"]
    assert view.options[1].reported_share == pytest.approx(0.3)
    assert [w.prominent for w in view.warnings] == [True, False]
    assert estimate_view(0, ["No", "Yes"], [], []) is None


@dataclass
class FakeRow:
    n: int
    warnings: list
    saved: list
    mean: dict | None = None
    distribution: dict | None = None

    @property
    def options(self):
        return SimpleNamespace(all=lambda: self.saved)


def test_breakdown_hides_small_and_empty_groups():
    saved = [
        SimpleNamespace(
            option=r,
            reported=5,
            estimate=0.5,
            ci_lower=0.2,
            ci_upper=0.8,
            std_error=0.1,
        )
        for r in range(2)
    ]
    by = SimpleNamespace(options=["young", "middle", "old"], optional=False)
    rows = {0: FakeRow(25, [], saved), 1: FakeRow(10, [], saved)}
    result = breakdown(by, rows, ["No", "Yes"], min_size=20)
    assert [s.label for s in result.shown] == ["young"]
    assert result.hidden == 2


def test_an_optional_group_question_adds_a_no_answer_group_last():
    saved = [
        SimpleNamespace(
            option=r,
            reported=15,
            estimate=0.5,
            ci_lower=0.2,
            ci_upper=0.8,
            std_error=0.1,
        )
        for r in range(2)
    ]
    by = SimpleNamespace(options=["young", "old"], optional=True)
    rows = {0: FakeRow(25, [], saved), 2: FakeRow(30, [], saved)}
    result = breakdown(by, rows, ["No", "Yes"], min_size=20)
    assert [(s.label, s.estimate.n) for s in result.shown] == [
        ("young", 25),
        ("No answer", 30),
    ]
    assert result.hidden == 1


def test_the_plan_counts_responses_to_collect_when_some_do_not_answer():
    design = Warner(p=0.75)
    everyone = plan_for(
        design, yes_no_view(0.2, 0.05, 0.4, 100), target=0.05, level=0.95
    )
    # 100 answered of 125 responses: a fifth did not answer.
    missing = plan_for(
        design,
        yes_no_view(0.2, 0.05, 0.4, 100),
        target=0.05,
        level=0.95,
        responses=125,
    )
    assert missing.needed_total == math.ceil(everyone.needed_total * 1.25)
    assert missing.still_needed == missing.needed_total - 125
