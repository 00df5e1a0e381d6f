"""Estimates of a conditional question are estimates among those shown it.

Simulated respondents answer a direct filter question; only those who answer
Yes are shown a randomized question, whose true answer depends on the filter.
Through the real pipeline (submissions, counting, the estimate run), the
estimate must agree with the share computed directly from the simulated
truth among those shown, within the tolerance its own standard error gives:
a hidden question simply has no answer row, so counting by (question, report,
stratum) never mixes those not shown in.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from estimation import simulate_reports
from estimation.runs.models import QuestionEstimate
from estimation.runs.services import estimate_run_now
from surveys.builder.services import survey_publish
from surveys.respond.submissions import response_record
from tests.surveys.display_logic.data import filtered_survey

pytestmark = pytest.mark.django_db

N = 2000
SHOWN_SHARE = 0.6
# P(true Yes) among those shown it, and among those not shown (who, asked,
# would answer quite differently: mixing them in would show).
YES_IF_SHOWN, YES_IF_NOT_SHOWN = 0.3, 0.9
# Two-sided, for a false alarm once in ten thousand seeds.
Z = float(stats.norm.ppf(1 - 1e-4 / 2))


def test_the_estimate_is_among_those_shown(owner):
    survey, _, _ = filtered_survey(owner)
    survey = survey_publish(survey=survey)
    worked, stolen = survey.questions.all()
    rng = np.random.default_rng(30)
    shown = rng.random(N) < SHOWN_SHARE
    truth = rng.random(N) < np.where(shown, YES_IF_SHOWN, YES_IF_NOT_SHOWN)
    reports = simulate_reports(stolen.get_design(), truth.astype(int), rng)
    for i in range(N):
        answers = [
            {
                "question": worked.pk,
                "report": int(shown[i]),
                "spec_version": worked.spec_version,
            }
        ]
        if shown[i]:
            answers.append(
                {
                    "question": stolen.pk,
                    "report": int(reports[i]),
                    "spec_version": stolen.spec_version,
                }
            )
        response_record(
            survey=survey, payload={"respondent_key": f"{i:032x}", "answers": answers}
        )
    run = estimate_run_now(survey=survey)
    assert run is not None
    row = QuestionEstimate.objects.get(
        run=run, question=stolen, group_question__isnull=True
    )
    assert row.n == shown.sum()
    yes = row.options.get(option=1)
    among_shown = truth[shown].mean()
    assert abs(yes.estimate - among_shown) <= Z * yes.std_error
    # Among everyone (those not shown included) it would be far off.
    assert abs(yes.estimate - truth.mean()) > Z * yes.std_error


SHOWN_TO = (
    "among respondents shown this question: those who answered “Yes” to question 1"
)


def test_the_results_exports_and_codebook_say_so(owner, client):
    from surveys.results.estimate_exports import estimates_csv, estimates_export

    survey, worked, stolen = filtered_survey(owner)
    survey = survey_publish(survey=survey)
    worked, stolen = survey.questions.all()
    for i, (filter_answer, answer) in enumerate([(1, 1), (0, None), (1, 0)] * 10):
        answers = [
            {
                "question": worked.pk,
                "report": filter_answer,
                "spec_version": worked.spec_version,
            }
        ]
        if answer is not None:
            answers.append(
                {
                    "question": stolen.pk,
                    "report": answer,
                    "spec_version": stolen.spec_version,
                }
            )
        response_record(
            survey=survey, payload={"respondent_key": f"{i:032x}", "answers": answers}
        )
    estimate_run_now(survey=survey)
    by_id = {q["question_id"]: q for q in estimates_export(survey)["questions"]}
    assert (by_id[worked.pk]["shown_to"], by_id[stolen.pk]["shown_to"]) == (
        "",
        SHOWN_TO,
    )
    lines = "".join(estimates_csv(survey)).splitlines()
    assert lines[0].endswith(",flags,shown_to")
    assert any(
        line.startswith(f"q2,{stolen.pk},") and line.endswith(SHOWN_TO)
        for line in lines
    )
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/results/").content.decode()
    assert f"the estimate is {SHOWN_TO}" in page
    assert "did not answer or were not shown it" in page
    codebook = client.get(f"/surveys/{survey.pk}/export/codebook/").content.decode()
    assert f"answers and estimates are {SHOWN_TO}" in codebook
    assert "when the question was not shown (display logic)" in codebook
