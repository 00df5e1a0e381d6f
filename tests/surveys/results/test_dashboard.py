"""The results dashboard: saved rows only, owner only, a fixed number of queries."""

from __future__ import annotations

import datetime
import json
import math

import numpy as np
import pytest
from django.urls import reverse
from django.utils.html import escape

from estimation import CI_METHODS, DEFAULT_METHOD
from estimation.runs.models import EstimateRun, QuestionEstimate
from estimation.runs.scheduling import estimate_run_request
from estimation.runs.services import estimate_run_execute
from surveys.models import Question, Response
from tests.surveys.respond.responses import submit

pytestmark = pytest.mark.django_db

# Session, user, survey, questions, responses per day, two runs, rows, options,
# and the Model panel's newest fit and newest finished one.
MAX_QUERIES = 11


def estimate(survey):
    run = EstimateRun.objects.filter(survey=survey).first()
    return estimate_run_execute(run_id=run.pk)


def results_url(survey):
    return reverse("surveys:results", args=[survey.pk])


def progress_url(survey, run):
    return reverse("surveys:run_progress", args=[survey.pk, run.pk])


def recompute_url(survey):
    return reverse("surveys:recompute", args=[survey.pk])


@pytest.fixture
def few(open_survey):
    """30 responses, estimated: wide intervals and small groups."""
    submit(open_survey, np.random.default_rng(7), 30)
    estimate(open_survey)
    return open_survey


@pytest.fixture
def many(open_survey):
    submit(open_survey, np.random.default_rng(5), 200)
    estimate(open_survey)
    return open_survey


# -- the owner's page ----------------------------------------------------------


def test_the_owner_sees_estimates_intervals_and_warnings(as_owner, few):
    response = as_owner.get(results_url(few))
    assert response.status_code == 200
    page = response.content.decode()
    run = EstimateRun.objects.get(survey=few)
    rows = QuestionEstimate.objects.filter(run=run, group_question=None)
    for row in rows.exclude(question__kind=Question.Kind.DIRECT):
        assert escape(row.question.text) in page
        for warning in row.warnings:
            assert escape(warning["message"]) in page
    assert "Caution:" in page  # 30 responses: the few_responses warning
    assert 'role="img"' in page
    assert "95% interval" in page
    assert "Share of reports received" in page
    assert "30 responses · mid-p exact · 95% intervals" in page


def test_the_numbers_in_the_table_are_the_saved_ones(as_owner, few):
    page = as_owner.get(results_url(few)).content.decode()
    run = EstimateRun.objects.get(survey=few)
    first = few.questions.first()
    row = QuestionEstimate.objects.get(run=run, question=first, group_question=None)
    for option in row.options.all():
        lower = f"{100 * option.ci_lower:.1f}".rstrip("0").rstrip(".") + "%"
        upper = f"{100 * option.ci_upper:.1f}".rstrip("0").rstrip(".") + "%"
        assert f"{lower} – {upper}" in page
        assert f"{100 * option.std_error:.1f}" in page


def test_epsilons_per_question_and_their_sum(as_owner, few):
    page = as_owner.get(results_url(few)).content.decode()
    assert ">1.1<" in page  # ln 3, the demo's Warner question
    assert "Survey epsilon: 3.2" in page  # 2 ln 3 + 1
    assert math.isclose(2 * math.log(3) + 1, 3.197, abs_tol=1e-3)
    assert "not private (asked plainly)" in page
    assert "sequential composition" in page
    assert "could be at most 75% sure" in page


def test_the_page_links_from_the_detail_page_and_the_list(as_owner, open_survey):
    for name in ("surveys:detail", "surveys:list"):
        args = [open_survey.pk] if name == "surveys:detail" else []
        page = as_owner.get(reverse(name, args=args)).content.decode()
        assert f'href="{results_url(open_survey)}"' in page


def test_responses_per_day_are_counted_and_drawn(as_owner, few):
    first = Response.objects.filter(survey=few).order_by("pk").first()
    Response.objects.filter(pk=first.pk).update(
        received_on=first.received_on - datetime.timedelta(days=3)
    )
    # The page shows the days as the latest run counted them; a stored row
    # edited by hand needs a recount (docs/deploy.md, "Saved counts").
    from estimation.runs import counting, scheduling, services

    counting.counts_recount(few)
    run = scheduling.estimate_run_request(survey=few)
    services.estimate_run_execute(run_id=run.pk)
    page = as_owner.get(results_url(few)).content.decode()
    assert "30 in total, at most 29 on one day" in page
    assert page.count('class="day"') == 4  # the empty days in between too


def test_question_text_is_escaped(as_owner, few):
    Question.objects.filter(survey=few, position=0).update(
        text='<script>alert("x")</script> & <b>'
    )
    Question.objects.filter(survey=few, kind=Question.Kind.DIRECT).update(
        text="<i>age</i>"
    )
    page = as_owner.get(results_url(few)).content.decode()
    assert "<script>alert" not in page
    assert "<i>age</i>" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;" in page
    assert "&lt;i&gt;age&lt;/i&gt;" in page


def test_the_page_never_estimates(as_owner, few, monkeypatch):
    from estimation.runs import option_rows

    def refuse(*args, **kwargs):
        raise AssertionError("estimated inside a request")

    monkeypatch.setattr(option_rows, "estimate_question", refuse)
    assert as_owner.get(results_url(few)).status_code == 200


@pytest.mark.parametrize("count", [5, 120])
def test_the_page_makes_a_fixed_number_of_queries(
    as_owner, open_survey, count, django_assert_max_num_queries
):
    submit(open_survey, np.random.default_rng(count), count)
    estimate(open_survey)
    estimate_run_request(survey=open_survey)  # a run in progress too
    with django_assert_max_num_queries(MAX_QUERIES):
        assert as_owner.get(results_url(open_survey)).status_code == 200


# -- small groups --------------------------------------------------------------


def test_small_groups_are_hidden_and_counted(as_owner, few):
    page = as_owner.get(results_url(few)).content.decode()
    # 30 responses over four age groups: none reaches 20.
    assert "4 groups with fewer than 20 responses are hidden" in page
    assert 'class="data breakdown"' not in page


def test_groups_large_enough_are_shown(as_owner, few, settings):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1
    page = as_owner.get(results_url(few)).content.decode()
    assert page.count('class="data breakdown"') == 3
    assert "are hidden" not in page
    assert "18-29" in page


# -- no estimates yet; progress ------------------------------------------------


def test_without_a_finished_run_the_page_says_so(as_owner, open_survey):
    page = as_owner.get(results_url(open_survey)).content.decode()
    assert "No estimates yet." in page
    assert f'action="{recompute_url(open_survey)}"' in page
    assert "<script>" not in page


def live_config(page: str) -> dict:
    config = page.split('id="results-live-config" type="application/json">')[1]
    return json.loads(config.split("</script>")[0])


def test_a_queued_run_shows_its_progress_and_loads_the_poller(as_owner, open_survey):
    submit(open_survey, np.random.default_rng(1), 3)
    run = EstimateRun.objects.get(survey=open_survey)
    page = as_owner.get(results_url(open_survey)).content.decode()
    assert "A recomputation is queued." in page
    assert 'aria-live="polite"' in page
    assert '<script type="module" src="/static/js/results-live.js">' in page
    config = live_config(page)
    assert config["progress"]["url"] == progress_url(open_survey, run)
    assert config["progress"]["status"] == "queued"
    assert config["status_url"] == f"/surveys/{open_survey.pk}/results/status/"
    assert config["run"] is None
    assert config["open"] is True
    assert "<script>" not in page  # no inline script


def test_progress_json_reports_status_and_counts(as_owner, many):
    run = EstimateRun.objects.get(survey=many)
    data = as_owner.get(progress_url(many, run)).json()
    assert data == {
        "id": run.pk,
        "status": "finished",
        "questions_done": 4,
        "questions_total": 4,
        "error": "",
    }
    failed = EstimateRun.objects.create(
        survey=many,
        trigger="researcher",
        ci_method="mid_p",
        level=0.95,
        status="failed",
        error="ValueError: broken",
    )
    data = as_owner.get(progress_url(many, failed)).json()
    assert (data["status"], data["error"]) == ("failed", "ValueError: broken")


def test_polling_costs_one_query_beyond_the_session(
    as_owner, many, django_assert_max_num_queries
):
    run = EstimateRun.objects.get(survey=many)
    with django_assert_max_num_queries(3):  # session, user, run
        assert as_owner.get(progress_url(many, run)).status_code == 200


def test_the_last_failure_is_explained(as_owner, many):
    EstimateRun.objects.create(
        survey=many,
        trigger="researcher",
        ci_method="mid_p",
        level=0.95,
        status="failed",
        error="ValueError: <broken>",
    )
    page = as_owner.get(results_url(many)).content.decode()
    assert "The last computation failed: ValueError: &lt;broken&gt;" in page
    assert "Survey epsilon" in page  # the finished estimates are still shown


def test_a_run_of_another_survey_is_a_404(as_owner, many, colleague):
    from surveys.builder.services import survey_create

    other = survey_create(owner=colleague, title="Other")
    run = EstimateRun.objects.get(survey=many)
    assert as_owner.get(progress_url(other, run)).status_code == 404
    assert as_owner.get(f"{results_url(many)}runs/999999/").status_code == 404


# -- recomputing ---------------------------------------------------------------


def test_recompute_queues_a_run_with_the_chosen_method_and_level(as_owner, many):
    response = as_owner.post(
        recompute_url(many), {"ci_method": "exact", "level": "0.90"}
    )
    assert response.status_code == 302
    assert response["Location"] == results_url(many)
    run = EstimateRun.objects.filter(survey=many).first()
    assert (run.status, run.ci_method, run.level) == ("queued", "exact", 0.9)
    assert run.trigger == EstimateRun.Trigger.RESEARCHER


@pytest.mark.parametrize(
    "data",
    [
        {"ci_method": "bootstrap", "level": "0.95"},
        {"ci_method": "mid_p", "level": "0.5"},
        {"ci_method": "mid_p", "level": "ninety"},
        {},
    ],
)
def test_a_bad_method_or_level_is_a_message_not_a_run(as_owner, many, data):
    before = EstimateRun.objects.count()
    response = as_owner.post(recompute_url(many), data, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Not recomputed." in page
    assert 'role="alert"' in page
    assert EstimateRun.objects.count() == before


def test_the_form_offers_every_method_and_level(as_owner, many):
    page = as_owner.get(results_url(many)).content.decode()
    for method in CI_METHODS:
        assert f'value="{method}"' in page
    for level in ("0.80", "0.90", "0.95", "0.99"):
        assert f'value="{level}"' in page
    assert f'value="{DEFAULT_METHOD}" selected' in page


# -- only the owner ------------------------------------------------------------


@pytest.mark.parametrize("other", ["colleague", "stranger"])
def test_others_get_404_everywhere_and_queue_nothing(client, many, other, request):
    client.force_login(request.getfixturevalue(other))
    run = EstimateRun.objects.get(survey=many)
    before = EstimateRun.objects.count()
    assert client.get(results_url(many)).status_code == 404
    assert client.get(progress_url(many, run)).status_code == 404
    response = client.post(recompute_url(many), {"ci_method": "mid_p", "level": "0.95"})
    assert response.status_code == 404
    assert EstimateRun.objects.count() == before


def test_anonymous_visitors_are_sent_to_log_in(client, many):
    run = EstimateRun.objects.get(survey=many)
    for url in (results_url(many), progress_url(many, run)):
        assert client.get(url)["Location"].startswith(reverse("login"))
    assert client.post(recompute_url(many))["Location"].startswith(reverse("login"))
    assert EstimateRun.objects.count() == 1


# -- planning ------------------------------------------------------------------


def test_planning_says_how_many_more_or_reached(as_owner, many):
    page = as_owner.get(results_url(many) + "?target=0.05").content.decode()
    assert "Responses for ±5.0 points" in page
    assert "more</td>" in page
    page = as_owner.get(results_url(many) + "?target=0.5").content.decode()
    assert page.count(">reached</strong>") == 3


def test_a_bad_target_is_explained_and_the_default_used(as_owner, many):
    response = as_owner.get(results_url(many) + "?target=banana")
    assert response.status_code == 200
    page = response.content.decode()
    assert "The target must be a number" in page
    assert "Responses for ±5.0 points" in page


# -- keeping itself current ----------------------------------------------------


def test_the_status_says_which_run_to_show_and_what_is_under_way(as_owner, many):
    finished = EstimateRun.objects.get(survey=many)
    url = f"/surveys/{many.pk}/results/status/"
    assert as_owner.get(url).json() == {"finished_run": finished.pk, "latest": None}
    queued = EstimateRun.objects.create(
        survey=many, trigger="responses", ci_method="wilson", level=0.9
    )
    status = as_owner.get(url).json()
    assert status["finished_run"] == finished.pk
    assert status["latest"]["id"] == queued.pk
    assert status["latest"]["status"] == "queued"


def test_the_page_says_what_automatic_runs_use(as_owner, many):
    run = EstimateRun.objects.get(survey=many)
    page = as_owner.get(results_url(many)).content.decode()
    sentence = page.split('id="automatic-runs">')[1].split("</p>")[0]
    assert f"with the mid-p exact method at {round(run.level * 100)}%" in sentence
    assert "This page shows new estimates as soon as they are ready." in sentence
    config = live_config(page)
    assert (config["run"], config["progress"]) == (run.pk, None)
    run_wilson = EstimateRun.objects.create(
        survey=many,
        trigger="researcher",
        ci_method="wilson",
        level=0.9,
        status="finished",
        finished_at=run.finished_at + datetime.timedelta(minutes=1),
    )
    page = as_owner.get(results_url(many)).content.decode()
    assert "with the Wilson score method at 90%" in page
    assert live_config(page)["run"] == run_wilson.pk
