"""Inference shared by every question kind: estimators, intervals, comparisons,
regression, the validation arm and the re-analysis of exported rows."""
