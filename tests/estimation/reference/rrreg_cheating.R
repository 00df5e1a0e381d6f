# Reference values for tests/estimation/test_cheating_rrreg.py, from RRreg::RRuni.
# Run: R_LIBS=/opt/rrreg Rscript tests/estimation/reference/rrreg_cheating.R
# (RRreg 0.7.4 as installed there; it ships without the minarets data set.)
library(RRreg)
set.seed(19)  # RRuni draws a random start for its ML search at the boundary
cases <- list(
  list(model = "CDM", p = c(0.3, 0.7), table = c(60, 40, 30, 70)),
  list(model = "CDM", p = c(0.2, 0.8), table = c(310, 190, 150, 350)),
  list(model = "SLD", p = c(0.7, 0.3), table = c(60, 40, 30, 70)),
  list(model = "SLD", p = c(2 / 12, 10 / 12), table = c(412, 398, 520, 291)),
  list(model = "CDM", p = c(0.3, 0.7), table = c(80, 20, 50, 50)),
  list(model = "SLD", p = c(0.7, 0.3), table = c(80, 20, 50, 50))
)
options(digits = 15)
for (case in cases) {
  t <- case$table  # no_1, yes_1, no_2, yes_2
  response <- c(rep(0, t[1]), rep(1, t[2]), rep(0, t[3]), rep(1, t[4]))
  group <- c(rep(1, t[1] + t[2]), rep(2, t[3] + t[4]))
  fit <- RRuni(response = response, model = case$model, p = case$p, group = group)
  second <- if (case$model == "SLD") c(fit$t, fit$tSE) else c(fit$gamma, fit$gammaSE)
  cat(case$model, paste(case$p, collapse = ","), paste(t, collapse = ","),
      sprintf("%.12f", c(fit$pi, fit$piSE, second)), "\n")
}
