"""The results page's Model panel: analysts request fits, every role reads them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from estimation.runs.fit_selectors import interval_text, number_text, p_value_text
from estimation.runs.model_fits import model_fit_execute
from estimation.runs.models import ModelFit
from estimation.runs.scheduling import model_fit_request
from surveys.models import Membership, Role
from surveys.team.roles import WHO_MAY, Need, allows
from tests.estimation.runs.model_data import model_survey, parts, store
from tests.surveys.results.test_dashboard import MAX_QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def survey(owner):
    survey = model_survey(owner)
    store(survey, 240, seed=31)
    return survey


def member(django_user_model, survey, name, role):
    user = django_user_model.objects.create_user(name)
    Membership.objects.create(survey=survey, user=user, role=role)
    return user


@pytest.fixture
def viewer(django_user_model, survey):
    return member(django_user_model, survey, "vera", Role.VIEWER)


@pytest.fixture
def analyst(django_user_model, survey):
    return member(django_user_model, survey, "ana", Role.ANALYST)


def results(client, user, survey):
    client.force_login(user)
    response = client.get(reverse("surveys:results", args=[survey.pk]))
    assert response.status_code == 200
    return response.content.decode()


def fitted(survey, capture, **changes):
    outcome, _, age, city = parts(survey)
    fields = {
        "outcome": outcome.pk,
        "covariates": [{"question": age.pk}, {"question": city.pk}],
        **changes,
    }
    with capture(execute=False):
        fit = model_fit_request(survey=survey, **fields)
    return model_fit_execute(fit_id=fit.pk)


def post_form(client, survey, **data):
    return client.post(reverse("surveys:model_fit", args=[survey.pk]), data)


def test_an_analyst_sees_the_form_with_the_questions_it_takes(client, analyst, survey):
    page = results(client, analyst, survey)
    outcome, multiple, age, city = parts(survey)
    start = page.index('class="model-form"')
    form = page[start : page.index("</form>", start)]
    outcomes = form[form.index('id="model-outcome"') : form.index("</select>")]
    assert f'<option value="{outcome.pk}">' in outcomes
    assert f'<option value="{multiple.pk}">' not in outcomes  # not yes/no
    assert f'name="covariate-{age.pk}"' in form
    assert f'name="covariate-{city.pk}"' in form
    assert f'name="covariate-{outcome.pk}"' not in form
    assert form.count(f'<select id="reference-{age.pk}"') == 1
    assert "No model fitted yet." in page


def test_a_viewer_sees_no_form(client, viewer, survey):
    page = results(client, viewer, survey)
    assert 'id="model-title"' in page
    assert 'class="model-form"' not in page


def test_the_form_requests_a_fit_with_the_ticked_covariates(
    client, analyst, survey, django_capture_on_commit_callbacks
):
    client.force_login(analyst)
    outcome, _, age, city = parts(survey)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = post_form(
            client,
            survey,
            outcome=outcome.pk,
            **{f"covariate-{city.pk}": "1", f"reference-{city.pk}": "1"},
            **{f"reference-{age.pk}": "2"},  # not ticked: not a covariate
            level="0.90",
        )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/surveys/{survey.pk}/results/#model")
    assert len(queued) == 1
    fit = ModelFit.objects.get(survey=survey)
    assert fit.covariates == [{"question": city.pk, "reference": 1}]
    assert fit.level == 0.9
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert "Fitting the model" in page
    assert "A model fit is queued." in page
    assert 'id="model-fit-config"' in page
    assert "js/model-fit" in page


def test_a_refused_form_says_why_and_fits_nothing(client, analyst, survey):
    client.force_login(analyst)
    outcome, _, _, _ = parts(survey)
    response = post_form(client, survey, outcome=outcome.pk, level="0.95")
    assert response.status_code == 302
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert "No model fitted. Covariates: Choose from 1 to 4 covariates" in page
    assert not ModelFit.objects.exists()


def test_a_viewer_may_not_post_the_form(client, viewer, survey):
    client.force_login(viewer)
    outcome, _, age, _ = parts(survey)
    response = post_form(
        client, survey, outcome=outcome.pk, **{f"covariate-{age.pk}": "1"}
    )
    assert response.status_code == 403
    assert not ModelFit.objects.exists()


def test_every_role_reads_the_latest_finished_fit(
    client, viewer, survey, django_capture_on_commit_callbacks, settings
):
    settings.DASHBOARD_MIN_GROUP_SIZE = 20
    fit = fitted(survey, django_capture_on_commit_callbacks)
    assert fit.status == ModelFit.Status.FINISHED, fit.error
    page = results(client, viewer, survey)
    assert "q1 ~ q3 + q4" in page
    assert "<caption>Odds ratios of a true Yes" in page
    assert "<caption>Likelihood-ratio tests" in page
    for coefficient in fit.result["coefficients"]:
        if coefficient["term"] is None:
            continue
        assert escape(number_text(coefficient["odds_ratio"])) in page
        assert (
            escape(interval_text(tuple(coefficient["odds_ratio_profile_ci"]))) in page
        )
        assert p_value_text(coefficient["p_value"]) in page
    assert "What is your age group?: 45-64" in page  # a coefficient's label
    for test in fit.result["lr_tests"]:
        assert f"{test['chi2']:.2f}" in page
    # The chart and the table of predictions, small patterns left out and said so.
    assert 'class="chart interval-chart"' in page
    assert fit.withheld > 0
    shown = len(fit.result["predicted"])
    table = page[page.index('class="data model-predicted"') :]
    table = table[: table.index("</table>")]
    assert table.count('<th scope="row"') == shown
    assert f"{fit.withheld} covariate pattern" in page
    assert "with fewer than 20 answers" in page
    assert f"{fit.dropped} answers left out" in page


def test_a_running_fit_shows_progress_and_the_last_finished_one_stays(
    client,
    analyst,
    survey,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):
    first = fitted(survey, django_capture_on_commit_callbacks)
    outcome, _, age, _ = parts(survey)
    with django_capture_on_commit_callbacks(execute=False):
        running = model_fit_request(
            survey=survey, outcome=outcome.pk, covariates=[{"question": age.pk}]
        )
    ModelFit.objects.filter(pk=running.pk).update(
        status=ModelFit.Status.RUNNING, steps_done=1, steps_total=3
    )
    client.force_login(analyst)
    url = reverse("surveys:results", args=[survey.pk])
    with django_assert_max_num_queries(MAX_QUERIES):
        page = client.get(url).content.decode()
    assert "Fitting the model: step 1 of 3 done." in page
    assert "q1 ~ q3 + q4" in page  # the first fit, still shown
    config = re.search(
        r'<script id="model-fit-config" type="application/json">(.*?)</script>', page
    )
    assert config is not None
    progress = client.get(
        reverse("surveys:model_progress", args=[survey.pk, running.pk])
    ).json()
    assert progress == {
        "id": running.pk,
        "status": "running",
        "steps_done": 1,
        "steps_total": 3,
        "error": "",
    }
    assert first.pk != running.pk


def test_a_failed_fit_says_why(
    client, viewer, survey, django_capture_on_commit_callbacks
):
    ModelFit.objects.all().delete()
    survey.responses.all().delete()
    fitted(survey, django_capture_on_commit_callbacks)
    page = results(client, viewer, survey)
    assert "The last model fit failed: No answers to the outcome" in page


def test_progress_of_another_surveys_fit_is_not_found(
    client, owner, survey, django_capture_on_commit_callbacks
):
    fit = fitted(survey, django_capture_on_commit_callbacks)
    other = model_survey(owner)
    client.force_login(owner)
    url = reverse("surveys:model_progress", args=[other.pk, fit.pk])
    assert client.get(url).status_code == 404


def test_a_survey_without_a_direct_question_says_a_model_needs_one(
    client, owner, open_survey
):
    open_survey.questions.filter(kind="direct").update(kind="multiple_choice")
    page = results(client, owner, open_survey)
    assert "no direct question" in page
    assert 'class="model-form"' not in page


def test_a_viewer_is_not_told_to_recompute_but_who_can(client, viewer, survey):
    page = results(client, viewer, survey)
    assert "Recompute" not in page
    assert "ask for them below" not in page
    assert (
        '<p class="hint" id="recompute-who">An analyst, an editor or the owner can '
        "recompute the estimates with another method or level.</p>"
    ) in page
    assert "An analyst, an editor or the owner can fit a model" in page


def test_an_analyst_is_told_to_recompute_and_has_the_button(client, analyst, survey):
    page = results(client, analyst, survey)
    assert "Recompute to change them." in page
    assert '<button type="submit" class="primary">Recompute</button>' in page
    assert 'id="recompute-who"' not in page
    assert 'id="model-who"' not in page


@pytest.mark.parametrize("need", [Need.ANALYSE, Need.EDIT, Need.OWN])
def test_who_may_names_exactly_the_roles_the_need_allows(need):
    named = str(WHO_MAY[need]).lower()
    for role in Role:
        assert (role.value in named) == allows(role, need), role
