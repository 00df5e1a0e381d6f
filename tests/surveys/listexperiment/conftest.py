import pytest


@pytest.fixture(autouse=True)
def unbounded_designs_allowed(settings):
    """A list experiment has no finite epsilon: these tests run on a site that
    allows such designs (by default they are refused, as the builder says)."""
    settings.ALLOW_UNBOUNDED_DESIGNS = True
