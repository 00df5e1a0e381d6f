"""The results page's Model panel: request a logistic regression, follow it.

Requesting a fit needs an analyst (it is an estimate run); reading its
progress, any role (surveys/team/roles.py). The fit itself runs as a job.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from estimation.runs.fit_selectors import fit_for_reader, fit_progress, model_panel
from estimation.runs.model_fits import covariate_choices
from estimation.runs.scheduling import model_fit_request
from estimation.runs.selectors import LEVELS
from surveys.builder.selectors import survey_plain
from surveys.models import Survey
from surveys.results.live_words import fit_words
from surveys.team.roles import Need

FIELD_NAMES = {
    "outcome": _("Outcome"),
    "covariates": _("Covariates"),
    "level": _("Level"),
}


def model_context(survey: Survey) -> dict[str, Any]:
    """The results page's Model panel, and what its script polls while a fit
    runs (static/js/model-fit.js)."""
    panel = model_panel(survey)
    latest = panel.latest
    return {
        "model": panel,
        "model_min_size": settings.DASHBOARD_MIN_GROUP_SIZE,
        "model_levels": [(f"{level:.2f}", f"{level:.0%}") for level in LEVELS],
        "model_live": (
            {
                "url": reverse("surveys:model_progress", args=[survey.pk, latest.pk]),
                **fit_progress(latest),
                "words": fit_words(),
            }
            if latest is not None and panel.in_progress
            else None
        ),
    }


def covariates_posted(data: QueryDict, questions: Any) -> list[dict[str, Any]]:
    """The ticked covariates, each with the reference level chosen beside it."""
    return [
        {"question": q.pk, "reference": data.get(f"reference-{q.pk}", "0")}
        for q in covariate_choices(questions)
        if data.get(f"covariate-{q.pk}")
    ]


def _sentence(error: ValidationError) -> str:
    return " ".join(
        f"{FIELD_NAMES.get(field, field)}: {' '.join(messages_)}"
        for field, messages_ in error.message_dict.items()
    )


@login_required
@require_POST
def model_fit_create(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.ANALYSE)
    try:
        model_fit_request(
            survey=survey,
            outcome=request.POST.get("outcome"),
            covariates=covariates_posted(request.POST, survey.questions.all()),
            level=request.POST.get("level"),
            actor=request.user,
        )
    except ValidationError as error:
        messages.error(
            request, gettext("No model fitted. %(why)s") % {"why": _sentence(error)}
        )
    else:
        messages.success(
            request,
            gettext("Fitting the model: the Model panel shows it when it is ready."),
        )
    return redirect(reverse("surveys:results", args=[pk]) + "#model")


@login_required
@require_GET
def model_fit_status(request: HttpRequest, pk: int, fit_id: int) -> JsonResponse:
    """A fit's progress for the Model panel's polling script."""
    return JsonResponse(fit_progress(fit_for_reader(request.user, pk, fit_id)))
