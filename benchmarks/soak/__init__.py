"""The soak: the production layout under a crowd for minutes while its parts
fail (docs/reliability.md). ``python -m benchmarks.soak`` or ``make soak``.

servers.py starts the soak's own PostgreSQL and Redis, nodes.py the web,
worker and beat nodes, load.py the simulated people (Locust, in a process of
its own), faults.py the fault schedule, figures.py the latency figures and
verify.py the end checks (the ledger against the database, estimates against
a fresh recount).
"""
