"""Counts ("how many times"): the geometric design, comparisons of mean counts
and the validation arm of counts. Their distribution and mean are estimated by
the general-matrix estimator (estimation/inference/general.py)."""
