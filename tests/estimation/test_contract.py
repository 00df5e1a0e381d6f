"""The results contract (estimation/contract.py) as properties.

Whatever an estimator returns (intervals beyond the range, zero-width
intervals, infinite or missing numbers, huge standard errors), a reading lies
inside the quantity's range, contains its point, has no zero-width interval
unless exact, caps its standard error, and carries the flags that say so. Then
every kind's real estimates, on edge data, read under it.
"""

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from estimation import KaryRR, estimate_question
from estimation.contract import (
    BEYOND_DESIGN,
    DIFFERENCE,
    HARDLY_INFORMED,
    HARDLY_INFORMED_FLAG,
    INTERVAL_CLIPPED,
    NOT_ESTIMABLE,
    SHARE,
    STD_ERROR_CAPPED,
    Bounds,
    Reading,
    cautions,
    count_bounds,
    item_notices,
    notice_flags,
    p_value_text,
    range_text,
    read,
    signed_points_text,
)
from estimation.designs import design_from_dict
from estimation.kinds.instructed.designs import (
    estimate_dict,
    instructed_design_from_dict,
)
from estimation.kinds.multiselect.designs import unary_from_dict
from estimation.kinds.multiselect.estimate import estimate_items

anything = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.floats(-3, 3),
)
bounds = st.sampled_from([SHARE, DIFFERENCE, count_bounds(9), count_bounds(1)])


def assert_keeps_the_contract(reading: Reading, exact: bool = False) -> None:
    b = reading.bounds
    if reading.estimate is None:
        assert NOT_ESTIMABLE in reading.flags
        assert not reading.has_interval
        return
    assert b.low <= reading.estimate <= b.high
    if reading.has_interval:
        assert b.low <= reading.ci_lower <= reading.estimate <= reading.ci_upper
        assert reading.ci_upper <= b.high
        width = reading.ci_upper - reading.ci_lower
        assert exact or width > 0
        assert (width > HARDLY_INFORMED * b.span) == (
            HARDLY_INFORMED_FLAG in reading.flags
        )
    else:
        assert reading.ci_lower is None
        assert reading.ci_upper is None
    if reading.std_error is not None:
        assert 0 <= reading.std_error <= b.max_std_error
    assert len(set(reading.flags)) == len(reading.flags)


@given(anything, anything, anything, anything, bounds)
@settings(max_examples=400, deadline=None)
@example(0.338, 0.338, 0.338, 0.0, SHARE)  # the separated fit's "33.8% (33.8%-33.8%)"
@example(0.541, -0.363, 1.445, 0.46, DIFFERENCE)  # "-36.3 to +144.5" points
@example(0.2, 0.0, 1.0, 4.64, SHARE)  # standard errors of "464 points"
def test_any_numbers_read_under_the_contract(estimate, low, high, error, b):
    assert_keeps_the_contract(
        read(estimate=estimate, ci_lower=low, ci_upper=high, std_error=error, bounds=b)
    )


def test_a_difference_interval_beyond_the_range_is_cut_back_and_flagged():
    reading = read(estimate=0.541, ci_lower=-0.363, ci_upper=1.445, bounds=DIFFERENCE)
    assert (reading.ci_lower, reading.ci_upper) == (-0.363, 1.0)
    assert INTERVAL_CLIPPED in reading.flags
    assert HARDLY_INFORMED_FLAG in reading.flags
    assert range_text(reading.ci_lower, reading.ci_upper, signed_points_text) == (
        "\u221236.3 – +100.0"
    )


def test_a_zero_width_interval_is_not_estimable_unless_exact():
    collapsed = read(estimate=0.338, ci_lower=0.338, ci_upper=0.338, bounds=SHARE)
    assert not collapsed.has_interval
    assert NOT_ESTIMABLE in collapsed.flags
    assert collapsed.estimate == 0.338
    known = read(estimate=0.25, ci_lower=0.25, ci_upper=0.25, bounds=SHARE, exact=True)
    assert known.has_interval
    assert NOT_ESTIMABLE not in known.flags


def test_a_standard_error_above_half_the_range_is_capped_and_flagged():
    reading = read(estimate=0.2, ci_lower=0, ci_upper=1, std_error=4.64, bounds=SHARE)
    assert reading.std_error == 0.5
    assert STD_ERROR_CAPPED in reading.flags
    assert (
        read(
            estimate=0, ci_lower=-1, ci_upper=1, std_error=3, bounds=DIFFERENCE
        ).std_error
        == 1
    )


def test_bounds_refuse_an_empty_range():
    with pytest.raises(ValueError, match="low < high"):
        Bounds(1.0, 1.0)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1.000"),
        (0.99996, "1.000"),
        (0.0004, "< 0.001"),
        (0.001, "0.001"),
        (0.41234, "0.412"),
        (None, "—"),
        (math.nan, "—"),
    ],
)
def test_every_p_value_reads_less_than_a_thousandth_or_three_decimals(value, text):
    assert p_value_text(value) == text


def test_a_range_whose_ends_read_alike_is_one_number():
    assert range_text(0.108, 0.1081) == "10.8%"
    assert range_text(0.108, 0.142) == "10.8% – 14.2%"
    assert range_text(None, 0.1) == "—"


def test_one_caution_per_cause_names_every_quantity_it_concerns():
    said = cautions(
        [
            ("Men", (BEYOND_DESIGN,)),
            ("Women", (BEYOND_DESIGN, HARDLY_INFORMED_FLAG)),
            ("Other", ()),
        ]
    )
    assert [c.code for c in said] == [BEYOND_DESIGN, HARDLY_INFORMED_FLAG]
    assert said[0].concerns == ("Men", "Women")
    assert said[0].message.startswith("Beyond the design: “Men”, “Women”.")
    assert said[1].message.startswith("Hardly informed: “Women”.")


# -- every kind's estimates, on edge data ------------------------------------------

DESIGNS = [
    {"name": "warner", "p": 0.75},
    {"name": "forced_response", "p_truth": 0.7, "p_forced": [0.15, 0.15]},
    {"name": "unrelated_question", "p": 0.7, "q": 0.3},
    {"name": "crosswise", "p": 0.25},
    {"name": "krr", "k": 4, "epsilon": 1.0},
    {"name": "direct", "k": 3},
    {"name": "geometric", "m": 9, "epsilon": 1.0},
]


def _edge_counts(k: int) -> list[list[int]]:
    """n = 1 and 2, all reports equal, every report at one end, and the
    k-RR reference group whose tiny estimate overflowed a ratio."""
    return [
        [1] + [0] * (k - 1),
        [0] * (k - 1) + [1],
        [1, 1] + [0] * (k - 2),
        [30] * k,
        [60] + [0] * (k - 1),
        [0] * (k - 1) + [60],
        ([0, 4, 7, 19] + [0] * k)[:k],
    ]


def _cases():
    for spec in DESIGNS:
        design = design_from_dict(spec)
        for counts in _edge_counts(design.k):
            if sum(counts):
                yield pytest.param(spec, counts, id=f"{spec['name']}-{counts}")


@pytest.mark.parametrize(("spec", "counts"), list(_cases()))
def test_every_option_of_every_design_reads_under_the_contract(spec, counts):
    design = design_from_dict(spec)
    result = estimate_question(counts, design, count=spec["name"] == "geometric")
    flags = set(notice_flags(w.code for w in result.warnings))
    for r in range(design.k):
        reading = read(
            estimate=result.estimate[r],
            ci_lower=result.ci_lower[r],
            ci_upper=result.ci_upper[r],
            std_error=result.std_error[r],
            bounds=SHARE,
            exact=spec["name"] == "direct",
        )
        assert_keeps_the_contract(reading, exact=spec["name"] == "direct")
        # The contract's flag and the estimate's own notice agree on what
        # "hardly informed" is.
        if HARDLY_INFORMED_FLAG in reading.flags and result.mean is None:
            assert HARDLY_INFORMED_FLAG in flags
    if result.mean is not None:
        mean = read(
            estimate=result.mean.estimate,
            ci_lower=result.mean.ci_lower,
            ci_upper=result.mean.ci_upper,
            std_error=result.mean.std_error,
            bounds=count_bounds(design.k - 1),
        )
        assert_keeps_the_contract(mean)


@pytest.mark.parametrize("name", ["sue", "oue"])
@pytest.mark.parametrize(
    ("n", "ticked"),
    [(1, [1, 0, 0]), (2, [2, 2, 0]), (40, [0, 40, 20]), (40, [40, 40, 40])],
)
def test_check_all_items_read_under_the_contract_and_clipped_ones_say_so(
    name, n, ticked
):
    design = unary_from_dict({"name": name, "m": 3, "epsilon_one_hot": 2.0})
    result = estimate_items(n, ticked, design)
    notices = item_notices(
        unbiased=list(result.unbiased),
        estimate=list(result.estimate),
        ci_lower=list(result.ci_lower),
        ci_upper=list(result.ci_upper),
        labels=["A", "B", "C"],
        n=n,
        level=0.95,
    )
    clipped = [i for i, u in enumerate(result.unbiased) if u < 0 or u > 1]
    beyond = [w for w in notices if w["code"] == BEYOND_DESIGN]
    # One caution for the cause, naming every clipped item.
    assert len(beyond) == (1 if clipped else 0)
    if clipped:
        assert beyond[0]["options"] == clipped
    for i in range(3):
        assert_keeps_the_contract(
            read(
                estimate=result.estimate[i],
                ci_lower=result.ci_lower[i],
                ci_upper=result.ci_upper[i],
                std_error=result.std_error[i],
                bounds=SHARE,
            )
        )


def test_the_same_counts_as_yes_no_and_as_an_item_are_both_beyond_design():
    item = unary_from_dict({"name": "sue", "m": 2, "epsilon_one_hot": 2.0})
    result = estimate_items(40, [0, 20], item)
    notices = item_notices(
        unbiased=list(result.unbiased),
        estimate=list(result.estimate),
        ci_lower=list(result.ci_lower),
        ci_upper=list(result.ci_upper),
        labels=["A", "B"],
        n=40,
        level=0.95,
    )
    # Item A's count asked as yes/no with the item's own design.
    yes_no = estimate_question([40, 0], item.bit_design)
    assert {w.code for w in yes_no.warnings} & {BEYOND_DESIGN}
    assert [w["code"] for w in notices if w["code"] == BEYOND_DESIGN] == [BEYOND_DESIGN]


@pytest.mark.parametrize(
    "counts", [[10, 20, 15, 15], [0, 5, 0, 5], [5, 0, 5, 0], [1, 0, 0, 1]]
)
@pytest.mark.parametrize("name", ["cheating_detection", "lie_detector"])
def test_device_instruction_parameters_read_under_the_contract(name, counts):
    design = instructed_design_from_dict({"name": name, "p1": 0.3, "p2": 0.7})
    for parameter in estimate_dict(design, counts)["parameters"]:
        assert_keeps_the_contract(
            read(
                estimate=parameter["estimate"],
                ci_lower=parameter["ci_lower"],
                ci_upper=parameter["ci_upper"],
                std_error=parameter["std_error"],
                bounds=SHARE,
            )
        )


def test_a_tiny_reference_estimate_reads_under_the_contract():
    result = estimate_question([0, 4, 7, 19], KaryRR(k=4, epsilon=1.0))
    assert all(0 <= v <= 1 for v in result.estimate)


@given(
    st.sampled_from(DESIGNS),
    st.lists(st.integers(0, 40), min_size=10, max_size=10),
    st.sampled_from(["mid_p", "wald", "wilson", "profile"]),
)
@settings(max_examples=80, deadline=None)
def test_any_counts_of_any_design_read_under_the_contract(spec, raw, method):
    design = design_from_dict(spec)
    counts = raw[: design.k] + [0] * max(design.k - len(raw), 0)
    if not sum(counts):
        counts[0] = 1
    result = estimate_question(counts, design, ci_method=method)
    exact = spec["name"] == "direct"
    for r in range(design.k):
        assert_keeps_the_contract(
            read(
                estimate=result.estimate[r],
                ci_lower=result.ci_lower[r],
                ci_upper=result.ci_upper[r],
                std_error=result.std_error[r],
                bounds=SHARE,
                exact=exact,
            ),
            exact=exact,
        )
