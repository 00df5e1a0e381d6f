"""The site's URLs plus ``/bench/bare``: the baseline of the submission benchmark.

Only ``benchmarks.settings_bench`` uses this URLconf, so production never
serves the bare view.
"""

from django.http import HttpRequest, JsonResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def bare(request: HttpRequest) -> JsonResponse:
    """A constant JSON answer through the same middleware as every page."""
    return JsonResponse({"ok": True})


urlpatterns = [*site_urlpatterns, path("bench/bare", bare)]
