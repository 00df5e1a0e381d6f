"""Inference shared by every question kind: estimators (uniform-plus-diagonal and
general matrices), intervals, comparisons, regression, the validation arm and the
re-analysis of exported rows."""
