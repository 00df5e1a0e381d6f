"""The results dashboard: saved estimates, their recomputation and its progress.

Any role may read the dashboard; recomputing needs an analyst
(surveys/team/roles.py). A survey the user has no role on is a 404.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from estimation.runs.comprehension import passed_reading
from estimation.runs.crossed import crossing_for
from estimation.runs.dashboard import survey_dashboard
from estimation.runs.plans import DEFAULT_TARGET, parse_target
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.selectors import results_status, run_for_reader, run_progress
from estimation.runs.services import strata_questions
from surveys.builder.design_text import COMPOSITION
from surveys.builder.forms import errors_text
from surveys.builder.selectors import survey_plain
from surveys.respond.report_labels import relabelled_reports
from surveys.results.charts import daily_chart
from surveys.results.forms import RecomputeForm
from surveys.results.fragments import run_fragments
from surveys.results.live_words import intl_locale, run_words
from surveys.results.model_views import model_context
from surveys.results.sections import run_sections
from surveys.results.simulated import simulation_of
from surveys.team.roles import Need
from surveys.words import active_translator


def _to_results(survey_pk: int) -> HttpResponse:
    return redirect("surveys:results", pk=survey_pk)


@login_required
@require_GET
def survey_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard: saved estimates only, a handful of queries at any size."""
    survey = survey_plain(request.user, pk, Need.VIEW)
    target = parse_target(request.GET.get("target"))
    dashboard = survey_dashboard(
        survey,
        target=target or DEFAULT_TARGET,
        min_size=settings.DASHBOARD_MIN_GROUP_SIZE,
        query=request.GET,
        translator=active_translator(),
    )
    latest = dashboard.latest_run
    finished = dashboard.finished_run
    crossing, crossing_error = crossing_for(
        survey, finished, request.GET, min_size=settings.DASHBOARD_MIN_GROUP_SIZE
    )
    crossable = strata_questions(survey)
    # The page's run-bound parts (each question's section among them) as
    # drawn for this run, language, query and survey (sections.py).
    sections = run_sections(
        finished,
        translation.get_language(),
        request.GET,
        survey,
        survey.questions.all(),
    )
    fragments = run_fragments(
        finished, translation.get_language(), request.GET.get("target")
    )
    progress = (
        {
            "url": reverse("surveys:run_progress", args=[pk, latest.pk]),
            **run_progress(latest),
        }
        if latest is not None and dashboard.in_progress
        else None
    )
    context = {
        "survey": survey,
        "dashboard": dashboard,
        # Among those who passed the comprehension check, when there is one.
        "passed": passed_reading(survey, dashboard),
        "run": dashboard.finished_run,
        "daily": daily_chart(dashboard.per_day),
        "form": RecomputeForm.for_run(dashboard.finished_run),
        "target_invalid": target is None,
        "composition": COMPOSITION,
        "simulation": simulation_of(survey, survey.questions.all()),
        # What was reported where it is not the option estimated.
        "reported_labels": relabelled_reports(survey.questions.all(), survey.language),
        "progress": progress,
        "live": {
            "status_url": reverse("surveys:results_status", args=[pk]),
            "run": finished.pk if finished is not None else None,
            "open": survey.state == survey.State.OPEN,
            "poll_seconds": settings.RESULTS_POLL_SECONDS,
            "progress": progress,
            "words": run_words(),
            "locale": intl_locale(),
        },
        "delay_seconds": settings.ESTIMATE_DELAY_SECONDS,
        # Two direct questions crossed (estimation/runs/crossed.py).
        "crossing": crossing,
        "crossing_error": crossing_error,
        "crossable": crossable if len(crossable) > 1 else (),
        "min_size": settings.DASHBOARD_MIN_GROUP_SIZE,
        **model_context(survey),
        # The run's comparisons and charts as another process drew them.
        "fragments": fragments,
        "sections": sections,
    }
    page = render(request, "surveys/results.html", context)
    if fragments is not None:
        fragments.save()
    if sections is not None:
        sections.save()
    return page


@login_required
@require_POST
def survey_recompute(request: HttpRequest, pk: int) -> HttpResponse:
    survey = survey_plain(request.user, pk, Need.ANALYSE)
    form = RecomputeForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, gettext("Not recomputed. %(why)s") % {"why": errors_text(form)}
        )
        return _to_results(pk)
    try:
        estimate_run_request(survey=survey, actor=request.user, **form.cleaned_data)
    except ValueError as error:
        messages.error(request, gettext("Not recomputed: %(why)s") % {"why": error})
    else:
        messages.success(
            request,
            gettext(
                "Recomputing the estimates: this page updates when they are ready."
            ),
        )
    return _to_results(pk)


@login_required
@require_GET
def survey_results_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Whether newer estimates exist, for the results page's live refresh."""
    survey = survey_plain(request.user, pk, Need.VIEW)
    return JsonResponse(results_status(survey))


@login_required
@require_GET
def run_status(request: HttpRequest, pk: int, run_id: int) -> JsonResponse:
    """A run's progress for the dashboard's polling script."""
    return JsonResponse(run_progress(run_for_reader(request.user, pk, run_id)))
