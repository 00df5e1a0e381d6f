import pytest


@pytest.fixture(autouse=True)
def unbounded_designs_allowed(settings):
    """These tests run on a site that allows designs without a finite epsilon;
    by default they are refused (tests/surveys/builder/test_unbounded.py)."""
    settings.ALLOW_UNBOUNDED_DESIGNS = True
