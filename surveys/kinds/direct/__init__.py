"""A question asked plainly, on the platform side: what the builder allows,
and what an estimate run saves for it (run.py)."""
