"""Model fits: validation, the counts behind them, the saved fit, small cells."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import numpy as np
import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from estimation.inference.regression import Factor, fit_logistic
from estimation.runs import scheduling
from estimation.runs.model_fits import (
    KEEP_FITS,
    STEPS,
    model_counts,
    model_fit_execute,
    model_fits_prune,
    model_request_validate,
    patterns_from_rows,
    withhold_small_patterns,
)
from estimation.runs.models import ModelFit
from surveys.models import AuditEvent, Response, Survey
from tests.estimation.runs.model_data import model_survey, parts, store

pytestmark = pytest.mark.django_db

N = 400


@pytest.fixture
def survey(owner):
    return model_survey(owner)


@pytest.fixture
def answered(survey):
    return survey, store(survey, N, seed=18)


def request(survey, django_capture_on_commit_callbacks, **changes):
    outcome, _, age, city = parts(survey)
    fields = {
        "outcome": outcome.pk,
        "covariates": [
            {"question": age.pk, "reference": 0},
            {"question": city.pk, "reference": 0},
        ],
        "level": 0.95,
        **changes,
    }
    with django_capture_on_commit_callbacks(execute=False):
        return scheduling.model_fit_request(survey=survey, **fields)


# -- validation ----------------------------------------------------------------


def refusal(survey, **changes) -> dict[str, list[str]]:
    outcome, _, age, _ = parts(survey)
    fields = {
        "outcome": outcome.pk,
        "covariates": [{"question": age.pk, "reference": 0}],
        "level": 0.95,
        **changes,
    }
    with pytest.raises(ValidationError) as caught:
        model_request_validate(survey=survey, **fields)
    return caught.value.message_dict


def test_the_outcome_must_be_a_randomized_yes_no_question(survey):
    _, multiple, age, _ = parts(survey)
    for bad in (multiple.pk, age.pk, 10**9, "first", None, True):
        errors = refusal(survey, outcome=bad)
        assert list(errors) == ["outcome"], bad
        assert "randomized yes/no" in errors["outcome"][0]


def test_covariates_are_one_to_four_distinct_direct_questions(survey):
    outcome, multiple, age, city = parts(survey)
    cases = {
        "empty": [],
        "not a list": {"question": age.pk},
        "not an object": [age.pk],
        "sensitive": [{"question": multiple.pk, "reference": 0}],
        "the outcome": [{"question": outcome.pk, "reference": 0}],
        "twice": [{"question": age.pk}, {"question": age.pk}],
        "five": [{"question": age.pk}] * 5,
    }
    for name, covariates in cases.items():
        errors = refusal(survey, covariates=covariates)
        assert list(errors) == ["covariates"], name
    assert "twice" in refusal(survey, covariates=cases["twice"])["covariates"][0]
    assert "At most 4" in refusal(survey, covariates=cases["five"])["covariates"][0]


def test_each_reference_is_an_option_code_of_its_question(survey):
    _, _, age, city = parts(survey)
    for bad in (4, -1, "old", 1.5, None):
        errors = refusal(survey, covariates=[{"question": age.pk, "reference": bad}])
        assert "option code from 0 to 3" in errors["covariates"][0], bad
    # "No answer" (the optional question's level 2 in the strata) is no level.
    errors = refusal(survey, covariates=[{"question": city.pk, "reference": 2}])
    assert "from 0 to 1" in errors["covariates"][0]
    fine = model_request_validate(
        survey=survey,
        outcome=parts(survey)[0].pk,
        covariates=[{"question": str(age.pk), "reference": "3"}],
    )
    assert fine.covariates == ((age, 3),)


def test_the_level_is_one_the_estimate_runs_accept(survey):
    for bad in (0.3, 1.0, 95, "high", None, True):
        errors = refusal(survey, level=bad)
        assert list(errors) == ["level"], bad


def test_a_refused_request_saves_nothing_and_logs_nothing(survey):
    before = AuditEvent.objects.count()
    with pytest.raises(ValidationError):
        scheduling.model_fit_request(survey=survey, outcome=None, covariates=[])
    assert not ModelFit.objects.exists()
    assert AuditEvent.objects.count() == before


# -- counting ------------------------------------------------------------------


def brute_force(stored, with_city=True):
    """Per response: its pattern and report, counted one by one."""
    table = Counter()
    dropped = 0
    for age, city, report in zip(stored.age, stored.city, stored.outcome, strict=True):
        if with_city and city is None:
            dropped += 1
            continue
        pattern = (age, city) if with_city else (age,)
        table[(pattern, report)] += 1
    return table, dropped


def test_the_patterns_are_those_of_the_responses_one_by_one(
    answered, django_assert_num_queries
):
    survey, stored = answered
    outcome, _, age, city = parts(survey)
    with django_assert_num_queries(2) as captured:  # the questions, the answers
        counts = model_counts(survey, outcome, [age, city])
    answer_queries = [q["sql"] for q in captured if "surveys_answer" in q["sql"]]
    assert len(answer_queries) == 1
    assert 'JOIN "surveys_answer"' not in answer_queries[0]
    expected, dropped = brute_force(stored)
    got = Counter()
    for pattern, reports in zip(counts.patterns, counts.reports, strict=True):
        for report in (0, 1):
            if reports[report]:
                got[(tuple(int(v) for v in pattern), report)] = int(reports[report])
    assert got == expected
    assert counts.dropped == dropped > 0
    assert counts.n == N - dropped


def test_a_required_covariate_drops_nothing_and_order_follows_the_request(answered):
    survey, stored = answered
    outcome, _, age, city = parts(survey)
    counts = model_counts(survey, outcome, [age])
    expected, dropped = brute_force(stored, with_city=False)
    assert dropped == counts.dropped == 0
    assert counts.n == N
    assert counts.reports.sum(axis=0).tolist() == [
        sum(c for (_, r), c in expected.items() if r == report) for report in (0, 1)
    ]
    swapped = model_counts(survey, outcome, [city, age])
    straight = model_counts(survey, outcome, [age, city])
    as_dict = {
        tuple(p[::-1]): r.tolist()
        for p, r in zip(swapped.patterns, swapped.reports, strict=True)
    }
    assert as_dict == {
        tuple(p): r.tolist()
        for p, r in zip(straight.patterns, straight.reports, strict=True)
    }


def test_rows_with_no_answer_to_an_optional_covariate_are_dropped():
    # Two direct questions: a required one with 3 options, an optional one with
    # 2 (3 levels, the last "no answer"). Stratum = first + 3 * second.
    rows = [(1, 0 + 3 * 0, 5), (0, 2 + 3 * 1, 4), (1, 1 + 3 * 2, 7), (0, 1, 2)]
    counts = patterns_from_rows(rows, sizes=[3, 3], chosen=[1, 0], options=[2, 3])
    assert counts.patterns.tolist() == [[0, 0], [0, 1], [1, 2]]
    assert counts.reports.tolist() == [[0, 5], [2, 0], [4, 0]]
    assert counts.dropped == 7


# -- fitting -------------------------------------------------------------------


def test_a_fit_through_the_service_is_the_cores_fit_of_the_same_answers(
    answered, django_capture_on_commit_callbacks, settings
):
    settings.DASHBOARD_MIN_GROUP_SIZE = 1  # nothing withheld: the whole result
    survey, stored = answered
    outcome, _, age, city = parts(survey)
    fit = request(survey, django_capture_on_commit_callbacks)
    assert fit.status == ModelFit.Status.QUEUED
    done = model_fit_execute(fit_id=fit.pk)
    assert done.status == ModelFit.Status.FINISHED, done.error
    assert done.steps_done == done.steps_total == len(STEPS)
    expected, dropped = brute_force(stored)
    patterns = sorted({p for p, _ in expected})
    direct = fit_logistic(
        design=outcome.get_design(),
        factors=[
            Factor("q3", tuple(age.options), 0),
            Factor("q4", tuple(city.options), 0),
        ],
        patterns=np.array(patterns),
        reports=np.array([[expected[(p, r)] for r in (0, 1)] for p in patterns]),
        level=0.95,
    ).to_dict()
    saved = done.result
    assert (done.n, done.dropped, done.withheld) == (N - dropped, dropped, 0)
    # The same counts through the same deterministic code: equal numbers.
    for key in ("coefficients", "lr_tests", "model_test", "predicted", "warnings"):
        assert saved[key] == direct[key], key
    assert saved["n"] == direct["n"] == N - dropped
    names = [c["name"] for c in saved["coefficients"]]
    assert names == ["(Intercept)", "q3=30-44", "q3=45-64", "q3=65 or over", "q4=Yes"]


def test_the_reference_levels_chosen_are_the_fits(
    answered, django_capture_on_commit_callbacks
):
    survey, _ = answered
    _, _, age, city = parts(survey)
    fit = request(
        survey,
        django_capture_on_commit_callbacks,
        covariates=[{"question": age.pk, "reference": 1}],
    )
    done = model_fit_execute(fit_id=fit.pk)
    names = [c["name"] for c in done.result["coefficients"]]
    assert names == ["(Intercept)", "q3=18-29", "q3=45-64", "q3=65 or over"]
    assert done.dropped == 0
    assert done.covariates == [{"question": age.pk, "reference": 1}]


def test_predictions_for_small_patterns_are_withheld_and_counted(
    answered, django_capture_on_commit_callbacks, settings
):
    settings.DASHBOARD_MIN_GROUP_SIZE = 25
    survey, stored = answered
    fit = request(survey, django_capture_on_commit_callbacks)
    done = model_fit_execute(fit_id=fit.pk)
    expected, _ = brute_force(stored)
    sizes = Counter()
    for (pattern, _), count in expected.items():
        sizes[pattern] += count
    small = sum(1 for size in sizes.values() if size < 25)
    assert small > 0  # the rare oldest group makes small cells
    assert done.withheld == small
    assert done.result["small_cells"] == {"min_group_size": 25, "withheld": small}
    assert len(done.result["predicted"]) == len(sizes) - small
    assert all(p["n"] >= 25 for p in done.result["predicted"])
    # The coefficients use every answer.
    assert len(done.result["coefficients"]) == 5
    assert done.result["n"] == sum(sizes.values())


def test_withholding_keeps_every_other_part_of_the_result():
    result = {
        "coefficients": [{"name": "(Intercept)"}],
        "predicted": [{"n": 3}, {"n": 20}, {"n": 19}],
    }
    kept, withheld = withhold_small_patterns(result, 20)
    assert withheld == 2
    assert kept["predicted"] == [{"n": 20}]
    assert kept["coefficients"] == result["coefficients"]


def test_the_request_is_logged_with_the_model(
    answered, owner, django_capture_on_commit_callbacks
):
    survey, _ = answered
    outcome, _, age, city = parts(survey)
    with django_capture_on_commit_callbacks(execute=False):
        fit = scheduling.model_fit_request(
            survey=survey,
            outcome=outcome.pk,
            covariates=[{"question": city.pk, "reference": 1}, {"question": age.pk}],
            actor=owner,
        )
    event = AuditEvent.objects.filter(survey=survey).latest("at", "id")
    assert event.action == "model.fit"
    assert event.actor_name == "owner"
    assert event.detail == {
        "fit": fit.pk,
        "outcome": outcome.pk,
        "covariates": [city.pk, age.pk],
        "level": 0.95,
        "formula": "q1 ~ q4 + q3",
    }


def test_a_fit_with_nothing_to_fit_fails_with_a_reason(
    survey, django_capture_on_commit_callbacks
):
    fit = request(survey, django_capture_on_commit_callbacks)
    done = model_fit_execute(fit_id=fit.pk)
    assert done.status == ModelFit.Status.FAILED
    assert "No answers to the outcome" in done.error
    assert done.result is None
    assert model_fit_execute(fit_id=fit.pk) is None  # not run again


def test_the_cores_refusal_is_the_failed_fits_reason(
    survey, django_capture_on_commit_callbacks
):
    store(survey, 60, seed=3)
    _, _, age, _ = parts(survey)
    # Nobody left is 65 or over: the reference level has no respondents.
    Response.objects.filter(answers__question=age, answers__report=3).delete()
    assert Response.objects.filter(survey=survey).count() >= 40
    fit = request(
        survey,
        django_capture_on_commit_callbacks,
        covariates=[{"question": age.pk, "reference": 3}],
    )
    done = model_fit_execute(fit_id=fit.pk)
    assert done.status == ModelFit.Status.FAILED
    assert "has no respondents; choose another reference" in done.error


def test_running_a_fit_twice_saves_it_once(
    answered, django_capture_on_commit_callbacks
):
    survey, _ = answered
    fit = request(survey, django_capture_on_commit_callbacks)
    first = model_fit_execute(fit_id=fit.pk)
    assert model_fit_execute(fit_id=fit.pk) is None
    assert ModelFit.objects.get(pk=fit.pk).finished_at == first.finished_at


def test_a_survey_keeps_its_latest_fits(survey):
    outcome, _, age, _ = parts(survey)
    for _ in range(KEEP_FITS + 3):
        ModelFit.objects.create(
            survey=survey,
            outcome=outcome,
            covariates=[{"question": age.pk, "reference": 0}],
            level=0.95,
            status=ModelFit.Status.FINISHED,
        )
    running = ModelFit.objects.create(
        survey=survey, outcome=outcome, covariates=[], level=0.95
    )
    newest = list(ModelFit.objects.filter(survey=survey).values_list("pk", flat=True))
    assert model_fits_prune(survey=survey) == 3
    left = list(ModelFit.objects.filter(survey=survey).values_list("pk", flat=True))
    assert left == newest[: KEEP_FITS + 1]
    assert running.pk in left


def test_an_invitation_survey_keeps_only_its_latest_fit(
    answered, django_capture_on_commit_callbacks
):
    survey, _ = answered
    Survey.objects.filter(pk=survey.pk).update(access_mode=Survey.AccessMode.INVITATION)
    survey.refresh_from_db()
    first = request(survey, django_capture_on_commit_callbacks)
    model_fit_execute(fit_id=first.pk)
    second = request(survey, django_capture_on_commit_callbacks)
    model_fit_execute(fit_id=second.pk)
    first.refresh_from_db()
    assert first.status == ModelFit.Status.FINISHED
    assert first.result is None
    assert ModelFit.objects.get(pk=second.pk).result is not None


def test_the_sweep_sends_fits_left_queued_again(
    answered, django_capture_on_commit_callbacks, monkeypatch, settings
):
    survey, _ = answered
    fit = request(survey, django_capture_on_commit_callbacks)
    fresh = request(survey, django_capture_on_commit_callbacks)
    sent = []
    monkeypatch.setattr(
        scheduling, "_dispatch", lambda task, _fn, pk, _delay: sent.append((task, pk))
    )
    old = timezone.now() - timedelta(seconds=10 * settings.ESTIMATE_DELAY_SECONDS)
    ModelFit.objects.filter(pk=fit.pk).update(created_at=old)
    assert scheduling.queued_fits_enqueue() == 1
    assert sent == [(scheduling.MODEL_FIT_TASK, fit.pk)]
    assert fresh.pk not in [pk for _, pk in sent]
