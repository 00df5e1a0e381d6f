"""The Django side of estimating: estimate runs, their saved rows, counting in
SQL and the Celery tasks. It may import the pure core and ``surveys`` below its
interfaces; nothing in the pure core imports it (tests/test_layers.py)."""
