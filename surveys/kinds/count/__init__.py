"""A count (how many times, 0 to a maximum) on the platform side: the designs
the builder offers and its options, and what an estimate run saves for it and
how its validation arm compares (run.py)."""
