"""The list experiment (item count technique) on the platform side: the
control items and the sensitive item the builder takes, the page that puts
each respondent in a list at random and sends only how many apply, and the
difference-in-means and maximum-likelihood estimates a run saves (run.py).
The pure design and estimators are estimation/kinds/listexperiment/."""
