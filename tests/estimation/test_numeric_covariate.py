"""A count asked directly as a numeric covariate of the logistic regression."""

import numpy as np
import pytest
from scipy import optimize
from scipy.special import expit

from estimation import Warner, fit_logistic
from estimation.inference.covariates import Factor, Numeric, model_matrix
from estimation.simulate import simulate_reports


def data(seed, n=4000, slope=0.25, intercept=-2.0):
    rng = np.random.default_rng([1919, seed])
    design = Warner(p=0.8)
    x = rng.integers(0, 11, n)
    truth = (rng.random(n) < expit(intercept + slope * x)).astype(int)
    reports = simulate_reports(design, truth, rng)
    patterns = np.arange(11).reshape(-1, 1)
    table = np.zeros((11, 2), dtype=int)
    np.add.at(table, (x, reports), 1)
    return design, patterns, table


def test_it_enters_the_model_as_its_value():
    X, names, terms = model_matrix(
        [Numeric("q2", 0, 10), Factor("q3", ("a", "b", "c"))],
        np.array([[0, 0], [7, 2]]),
    )
    assert names == ["(Intercept)", "q2", "q3=b", "q3=c"]
    assert terms == [None, "q2", "q3", "q3"]
    assert X.tolist() == [[1, 0, 0, 0], [1, 7, 0, 1]]


def test_it_refuses_values_outside_its_range():
    with pytest.raises(ValueError, match="q2: 11 is not a whole number from 0 to 10"):
        Numeric("q2", 0, 10).validate(np.array([3.0, 11.0]))
    with pytest.raises(ValueError, match="needs a range"):
        Numeric("q2", 5, 5)


def test_the_fit_is_the_maximum_found_independently():
    design, patterns, table = data(0)
    fit = fit_logistic(
        design=design, factors=[Numeric("x", 0, 10)], patterns=patterns, reports=table
    )
    X = np.c_[np.ones(11), np.arange(11)]
    p = design.matrix

    def negative_loglik(beta):
        yes = expit(X @ beta)
        share_yes = (1 - yes) * p[0, 1] + yes * p[1, 1]
        return -(
            table[:, 1] * np.log(share_yes) + table[:, 0] * np.log(1 - share_yes)
        ).sum()

    other = optimize.minimize(negative_loglik, np.zeros(2), method="BFGS", tol=1e-12)
    mine = [c.estimate for c in fit.coefficients]
    assert mine == pytest.approx(other.x, abs=1e-5)
    assert fit.to_dict()["covariates"] == [
        {"name": "x", "numeric": True, "range": [0, 10]}
    ]


@pytest.mark.parametrize("seed", range(3))
def test_it_recovers_the_slope_within_its_sampling_error(seed):
    design, patterns, table = data(seed)
    fit = fit_logistic(
        design=design, factors=[Numeric("x", 0, 10)], patterns=patterns, reports=table
    )
    slope = fit.coefficients[1]
    # Three standard errors: a miss has probability 0.003 per seed.
    assert abs(slope.estimate - 0.25) <= 3 * slope.std_error
