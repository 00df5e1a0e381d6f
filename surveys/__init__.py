"""Surveys: one sub-package per concern. ``builder`` designs a survey, ``respond``
takes answers, ``results`` shows and exports them, ``accounts`` signs researchers
in, ``api`` is the REST interface. ``models`` and ``ratelimit`` (shared by the
login and the API throttles) stay here; tests/test_layers.py holds the rules of
who may import whom."""
