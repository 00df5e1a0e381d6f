"""Yes/no (randomized) on the platform side: the designs the builder offers,
and what an estimate run saves for it (run.py)."""
