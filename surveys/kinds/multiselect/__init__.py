"""Check all that apply on the platform side: its sentences for researchers,
what the builder allows, and the per-item rows an estimate run saves (run.py)."""
