from tests.estimation.runs.conftest import postgres_only  # noqa: F401  (fixture)
