"""A ratio of prevalences lies in [0, inf]: with no upper bound where the data
cannot tell the reference group's prevalence from 0, and never an overflow."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimation import KaryRR, Warner
from estimation.inference.comparisons import _ratio, compare_groups

# A reference group whose k-RR estimate of the third option is about 0.06%:
# math.exp overflowed on the upper end of its log-scale interval.
KRR = KaryRR(k=4, epsilon=1.0)
TINY_REFERENCE = [0, 4, 7, 19]


def test_a_tiny_reference_estimate_leaves_the_ratio_without_an_upper_bound():
    result = compare_groups([5, 5, 10, 10], TINY_REFERENCE, KRR)
    assert 0 < result.estimate_b[2] < 0.001
    assert result.ratio[2] == pytest.approx(result.estimate_a[2] / result.estimate_b[2])
    assert result.ratio_upper[2] == math.inf
    assert result.ratio_lower[2] == 0  # the first group's share could be 0 too
    exported = result.to_dict()
    assert exported["ratio_upper"][2] is None
    assert exported["ratio_unbounded"] == [False, False, True, False]
    json.dumps(exported, allow_nan=False)  # JSON without Infinity


def test_a_tiny_estimate_over_a_clear_one_has_a_finite_upper_bound():
    result = compare_groups(TINY_REFERENCE, [50, 100, 300, 250], KRR)
    assert result.ratio[2] == pytest.approx(result.estimate_a[2] / result.estimate_b[2])
    assert result.ratio_lower[2] == 0
    assert math.isfinite(result.ratio_upper[2])
    assert result.ratio_upper[2] < 1
    assert not any(result.to_dict()["ratio_unbounded"][2:3])


def test_clear_estimates_keep_the_log_scale_interval():
    result = compare_groups([300, 200], [350, 150], Warner(p=0.75))
    assert 0 < result.ratio_lower[1] < result.ratio[1] < result.ratio_upper[1] < 10
    assert result.to_dict()["ratio_unbounded"] == [False, False]


shares = st.one_of(
    st.floats(min_value=0.0, max_value=1.0),
    st.sampled_from([0.0, 5e-324, 1e-300, 1e-12, 6.26e-4, 1.0]),
)
errors = st.one_of(
    st.floats(min_value=0.0, max_value=1.0),
    st.sampled_from([0.0, 1e-300, 0.2309, 1.0]),
)


@settings(max_examples=500, deadline=None)
@given(
    a=shares,
    b=shares,
    se_a=errors,
    se_b=errors,
    z=st.floats(min_value=0.1, max_value=5.0),
)
def test_a_ratio_is_finite_or_unbounded_and_contains_its_point(a, b, se_a, se_b, z):
    ratio, lower, upper = _ratio(a, b, se_a, se_b, z)
    if ratio is None:
        assert (lower, upper) == (None, None)
        return
    assert lower is not None
    assert upper is not None
    assert 0 <= lower <= ratio <= upper
    assert math.isfinite(lower)
    assert math.isfinite(ratio)
    assert not math.isnan(upper)
    # No upper bound when b cannot be told from 0 at the level; one when it can.
    if b <= z * se_b:
        assert math.isinf(upper)
    if b > 1.01 * z * se_b:
        assert math.isfinite(upper)


@settings(max_examples=200, deadline=None)
@given(
    first=st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(sum),
    second=st.lists(st.integers(0, 40), min_size=4, max_size=4).filter(sum),
    epsilon=st.sampled_from([0.5, 1.0, 2.0]),
)
def test_every_comparison_of_small_groups_exports_as_plain_json(first, second, epsilon):
    result = compare_groups(first, second, KaryRR(k=4, epsilon=epsilon))
    exported = result.to_dict()
    json.dumps(exported, allow_nan=False)
    for ratio, lower, upper, unbounded in zip(
        result.ratio,
        result.ratio_lower,
        result.ratio_upper,
        exported["ratio_unbounded"],
        strict=True,
    ):
        if ratio is not None:
            assert 0 <= lower <= ratio <= upper
            assert unbounded == math.isinf(upper)
