"""Check all that apply: the unary encodings (one randomized bit per item),
their estimates, planning, simulation twin, golden cases and command line."""
