"""The R functions with which the bundle's ``analysis.R`` sets RRreg's numbers
beside the dashboard's: stated tolerances, RRreg's ``n - 1`` divisor applied
before standard errors are compared, and fits that fail named as failed.

Plain R (no formatting placeholders), placed once at the top of the script.
Why the standard errors differ: RRreg's ``RRuni`` computes every model's
moment standard error with ``n - 1`` (``n_g - 1`` in each group of the two-group
models) in the denominator (``RRuni.Warner``, ``RRuni.FR``, ``RRuni.UQTknown``,
``RRuni.Crosswise``, ``RRuni.CDM``, ``RRuni.SLD`` in RRreg's ``R/RRuni_models.R``),
where the dashboard's observed information gives ``n``: its standard errors
are ours times ``sqrt(n / (n - 1))``. When a moment estimate is negative (or,
for the two-group models, a second parameter leaves [0, 1]) ``RRuni`` searches
the likelihood with ``optim`` from a random start instead; that search can end
at a corner of its box (pi = 1 with gamma = -1), and its standard error is the
inverse Hessian at the boundary.
"""

R_CHECKS = r"""
# Tolerances of the comparisons below.
# RRuni's moment estimate is the dashboard's closed form (when it lies inside
# the parameter space): the two differ by floating-point rounding only.
TOLERANCE <- 1e-9
# Outside, RRuni searches the likelihood with optim (L-BFGS-B, box 1e-8 to
# 1 - 1e-8), which stops on the log-likelihood's relative change: its
# estimate is good to about 1e-4.
SEARCH_TOLERANCE <- 1e-4

# RRreg's standard errors divide by n - 1 where the dashboard's divide by n
# (the observed information of the same likelihood), in every model: RRreg's
# is the dashboard's times sqrt(n / (n - 1)). With two groups each group's
# part of the variance carries its own n_g / (n_g - 1), so the factor lies
# between the two groups' factors.
se_factor <- function(n) sqrt(n / (n - 1))

# Why an RRuni fit cannot be read as an estimate, or NULL when it can. Every
# parameter RRuni returns (pi, beta, gamma, t) is a share: finite, in [0, 1].
fit_problem <- function(fit) {
  if (inherits(fit, "error")) {
    return(paste("RRuni stopped:", conditionMessage(fit)))
  }
  estimates <- unlist(fit[intersect(c("pi", "beta", "gamma", "t"), names(fit))])
  if (length(estimates) == 0 || any(!is.finite(estimates))) {
    return("an estimate is NaN or infinite")
  }
  outside <- estimates < -TOLERANCE | estimates > 1 + TOLERANCE
  if (any(outside)) {
    shown <- sprintf("%s = %.6g", names(estimates)[outside], estimates[outside])
    return(paste(paste(shown, collapse = ", "), "outside [0, 1]"))
  }
  if (!is.finite(tail(fit$piSE, 1))) {
    return("its standard error is NaN or infinite")
  }
  NULL
}

# One RRuni fit against the dashboard's c(estimate, standard error). `moment`
# is the same call with MLest = FALSE: where the two differ, RRuni searched
# the likelihood. `n` is the number of reports (one per group with two
# groups). RRuni's FR model estimates every option: the last one is "Yes".
compare <- function(column, fit, moment, dashboard, n) {
  problem <- fit_problem(fit)
  if (!is.null(problem)) {
    cat(sprintf(
      "%s: RRreg's fit FAILED (%s): not an estimate; the dashboard's %.6f (SE %.6f) is the maximum-likelihood estimate within the parameter space\n",
      column, problem, dashboard[1], dashboard[2]
    ))
    return(invisible(FALSE))
  }
  estimate <- tail(fit$pi, 1)
  std_error <- tail(fit$piSE, 1)
  cat(sprintf(
    "%s: prevalence %.6f (SE %.6f); dashboard %.6f (SE %.6f)\n",
    column, estimate, std_error, dashboard[1], dashboard[2]
  ))
  if (is.na(dashboard[1])) {
    cat("  no dashboard estimate to compare with\n")
    return(invisible(TRUE))
  }
  searched <- inherits(moment, "error") || !identical(fit$pi, moment$pi)
  tolerance <- if (searched) SEARCH_TOLERANCE else TOLERANCE
  difference <- abs(estimate - dashboard[1])
  cat(sprintf(
    "  estimate %s: |difference| %.2g, tolerance %g%s\n",
    if (difference <= tolerance) "agrees" else "DIFFERS", difference, tolerance,
    if (searched) " (RRuni's likelihood search)" else ""
  ))
  if (searched || is.na(dashboard[2])) {
    cat("  standard error not compared: RRuni's comes from optim's Hessian at the boundary\n")
    return(invisible(difference <= tolerance))
  }
  low <- dashboard[2] * min(se_factor(n))
  high <- dashboard[2] * max(se_factor(n))
  agrees <- std_error >= low - TOLERANCE && std_error <= high + TOLERANCE
  expected <- if (length(n) == 1) sprintf("%.6f", low) else
    sprintf("between %.6f and %.6f", low, high)
  cat(sprintf(
    "  standard error %s: the dashboard's times sqrt(n / (n - 1)) is %s (tolerance %g)\n",
    if (agrees) "agrees" else "DIFFERS", expected, TOLERANCE
  ))
  invisible(difference <= tolerance && agrees)
}

# Estimates computed here in base R against the dashboard's, elementwise.
agree <- function(what, ours, dashboard, tolerance = TOLERANCE) {
  if (all(is.na(dashboard))) {
    cat(sprintf("%s: no dashboard numbers to compare with\n", what))
    return(invisible(TRUE))
  }
  difference <- max(abs(ours - dashboard))
  agrees <- is.finite(difference) && difference <= tolerance
  cat(sprintf(
    "%s: %s the dashboard's (largest |difference| %.2g, tolerance %.2g)\n",
    what, if (agrees) "agree with" else "DIFFER from", difference, tolerance
  ))
  invisible(agrees)
}
"""
