# The design-effect test of the list package (Blair and Imai), without moment
# selection. Run: Rscript tests/estimation/reference/list_ict_test.R data.csv J
# data.csv has columns y and treat; prints the Bonferroni p-value
# (tests/estimation/test_list_experiment_r.py writes the data and reads it).
suppressPackageStartupMessages(library(list))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
set.seed(1)
test <- ict.test(d$y, d$treat, J = as.integer(args[2]), gms = FALSE)
cat(sprintf("%.10f\n", test$p))
