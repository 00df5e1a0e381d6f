# List experiments against the list package (Blair and Imai).
# Run: Rscript tests/estimation/reference/list_ictreg.R data.csv J
# data.csv has columns y, treat and x (a numeric covariate); J is the number of
# control items. Prints one "name value" per line
# (tests/estimation/test_list_experiment_r.py writes the data and reads them).
suppressPackageStartupMessages(library(list))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
J <- as.integer(args[2])
out <- function(name, values) {
  for (i in seq_along(values)) cat(sprintf("%s%d %.12f\n", name, i, values[i]))
}
plain <- ictreg(y ~ 1, data = d, treat = "treat", J = J, method = "ml")
out("plain_delta", plain$par.treat)
out("plain_delta_se", plain$se.treat)
out("plain_psi", plain$par.control)
out("plain_psi_se", plain$se.control)
out("plain_llik", plain$llik)
slope <- ictreg(y ~ x, data = d, treat = "treat", J = J, method = "ml")
out("slope_delta", slope$par.treat)
out("slope_delta_se", slope$se.treat)
out("slope_psi", slope$par.control)
out("slope_psi_se", slope$se.control)
test <- ict.test(d$y, d$treat, J = J, gms = TRUE)
out("pi_est", test$pi.table[, 1])
out("pi_se", test$pi.table[, 2])
