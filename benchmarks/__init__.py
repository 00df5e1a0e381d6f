"""Benchmarks of the platform, written up in ``docs/benchmarks.md``."""
