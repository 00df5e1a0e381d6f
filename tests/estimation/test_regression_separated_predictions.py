"""Predicted prevalences of a fit with coefficients it cannot estimate.

A covariate pattern inside the boundary has a linear predictor the data
identify even when some coefficient it loads on does not exist (separation
elsewhere, or collinear levels): its interval must come from the covariance
of what the data identify, not from a covariance with the missing
coefficients' rows set to zero, which gave intervals too narrow or of zero
width ("33.8% (33.8%-33.8%)" in issue 29).
"""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from scipy.special import expit, logit, ndtri

from estimation import Direct, Warner
from estimation.contract import NOT_ESTIMABLE
from estimation.inference.regression import Factor, fit_logistic

AGE = Factor("q4", ("18-29", "30-44", "45+"))
SEX = Factor("q5", ("woman", "man"))
PATTERNS = np.array([[i, j] for i in range(3) for j in range(2)])
Z = float(ndtri(0.975))
# Intercept, q4=30-44, q4=45+, q5=man per pattern.
X_OF = np.array([[1, a == 1, a == 2, b == 1] for a, b in PATTERNS], dtype=float)


def one_group_interval(no, yes):
    """The Wald interval on the logit scale of one group's own proportion."""
    share = yes / (no + yes)
    se = np.sqrt(1.0 / ((no + yes) * share * (1.0 - share)))
    return expit(logit(share) - Z * se), expit(logit(share) + Z * se)


def test_a_pattern_beside_separated_ones_keeps_its_own_uncertainty():
    # Every pattern but 45+/man is all No or all Yes: only 45+/man is inside,
    # so its prevalence is its own 4 of 29, with that group's own interval.
    counts = [[1, 0], [0, 30], [0, 5], [0, 4], [29, 0], [25, 4]]
    fit = fit_logistic(
        design=Direct(k=2), factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    assert fit.separation
    inside = fit.predicted[-1]
    assert not inside.at_boundary
    assert inside.prevalence == pytest.approx(4 / 29)
    assert inside.ci == pytest.approx(one_group_interval(25, 4), rel=1e-6)
    assert inside.reading.flags == ()


def test_collinear_levels_leave_each_present_pattern_its_interval():
    # Only 18-29/woman and 30-44/man answered: "30-44" and "man" cannot be
    # told apart, so neither coefficient exists, yet each group's prevalence
    # is its own proportion, with its own interval.
    counts = [[30, 10], [0, 0], [0, 0], [12, 28], [0, 0], [0, 0]]
    fit = fit_logistic(
        design=Direct(k=2), factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    assert [c.estimable for c in fit.coefficients] == [True, False, False, False]
    first, second = fit.predicted
    assert first.ci == pytest.approx(one_group_interval(30, 10), rel=1e-6)
    assert second.ci == pytest.approx(one_group_interval(12, 28), rel=1e-6)


def test_a_pattern_at_the_boundary_is_read_as_not_estimable_in_the_json():
    counts = [[50, 30], [40, 40], [30, 60], [20, 70], [0, 80], [0, 90]]
    fit = fit_logistic(
        design=Direct(k=2), factors=[AGE, SEX], patterns=PATTERNS, reports=counts
    )
    output = fit.to_dict()["predicted"]
    assert [p["at_boundary"] for p in output] == [False] * 4 + [True] * 2
    for prediction in output[4:]:
        assert prediction["ci"] is None
        assert prediction["flags"] == [NOT_ESTIMABLE]
    for prediction in output[:4]:
        assert NOT_ESTIMABLE not in prediction["flags"]


separated = st.lists(
    st.one_of(
        st.tuples(st.integers(1, 40), st.just(0)),
        st.tuples(st.just(0), st.integers(1, 40)),
        st.tuples(st.integers(0, 40), st.integers(0, 40)),
    ),
    min_size=6,
    max_size=6,
).filter(lambda rows: sum(map(sum, rows)) > 0 and sum(rows[0]) > 0)


@given(separated, st.sampled_from(["warner", "direct"]))
@hypothesis_settings(max_examples=60, deadline=None)
@example([(1, 0), (0, 30), (0, 5), (0, 4), (29, 0), (25, 4)], "direct")
@example([(19, 11), (0, 20), (18, 8), (19, 6), (0, 14), (28, 7)], "warner")
@example([(34, 0), (0, 0), (0, 0), (18, 15), (0, 7), (21, 9)], "direct")
def test_inside_patterns_have_the_interval_of_a_fit_without_the_boundary(rows, name):
    """Two ways to the same interval: the fit drops nothing from the patterns
    inside the boundary, so their intervals are those of a fit to them alone
    when that fit identifies every coefficient, and each one's own when the
    model leaves every inside pattern free (as many identified directions as
    inside patterns), however many coefficients are not estimable."""
    design = Warner(p=0.75) if name == "warner" else Direct(k=2)
    fit = fit_logistic(
        design=design, factors=[AGE, SEX], patterns=PATTERNS, reports=rows
    )
    present = [i for i, r in enumerate(rows) if sum(r) > 0]
    for prediction in fit.predicted:
        if prediction.at_boundary:
            assert prediction.ci is None
            assert NOT_ESTIMABLE in prediction.reading.flags
            continue
        assert prediction.ci is not None
        low, high = prediction.ci
        assert 0 <= low <= prediction.prevalence <= high <= 1
        assert low < high, "no zero-width interval for a prevalence not known"
        assert NOT_ESTIMABLE not in prediction.reading.flags
    inside = [
        i for i, p in zip(present, fit.predicted, strict=True) if not p.at_boundary
    ]
    if inside and np.linalg.matrix_rank(X_OF[inside]) == len(inside):
        for i in inside:
            prediction = fit.predicted[present.index(i)]
            own = fit_logistic(
                design=design, factors=[], patterns=np.zeros((1, 0)), reports=[rows[i]]
            ).predicted[0]
            assert prediction.prevalence == pytest.approx(own.prevalence, abs=1e-4)
            if own.at_boundary or min(own.prevalence, 1 - own.prevalence) < 1e-4:
                continue  # where the two maximisations stop near a limit differs
            assert prediction.ci == pytest.approx(own.ci, abs=1e-5)
    if not inside or PATTERNS[inside].min(axis=0).any():
        return  # nothing inside, or a reference level only at the boundary
    alone = fit_logistic(
        design=design,
        factors=[AGE, SEX],
        patterns=PATTERNS[inside],
        reports=np.asarray(rows)[inside],
    )
    if alone.boundary or not all(c.estimable for c in alone.coefficients):
        return
    kept = {tuple(p.labels.values()): p for p in fit.predicted}
    for prediction in alone.predicted:
        mine = kept[tuple(prediction.labels.values())]
        assert mine.prevalence == pytest.approx(prediction.prevalence, abs=1e-6)
        assert mine.ci == pytest.approx(prediction.ci, abs=1e-5)
