"""Researcher pages (placeholder until the survey builder lands)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .selectors import surveys_for_owner


@login_required
def survey_list(request: HttpRequest) -> HttpResponse:
    surveys = surveys_for_owner(request.user)
    return render(request, "surveys/list.html", {"surveys": surveys})
