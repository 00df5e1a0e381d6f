"""The production profile plus the benchmark's bare view; never deployed."""

from config.settings_production import *  # noqa: F403

ROOT_URLCONF = "benchmarks.urls"
