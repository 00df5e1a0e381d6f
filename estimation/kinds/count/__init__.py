"""Counts ("how many times"): the geometric design, the estimator of the count
distribution and its mean, comparisons of means and the validation arm of counts."""
