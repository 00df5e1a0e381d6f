"""Numbers and rating scales on the results page: a number's plain summary of
the numbers as typed beside the share in each range; a scale's points in
their order; breakdowns by a number's ranges."""

from __future__ import annotations

import re
import statistics

import numpy as np
import pytest
from django.urls import reverse

from estimation.runs.services import estimate_run_now
from tests.surveys.typed.data import AGREEMENT, answers_for, post, typed_survey

pytestmark = pytest.mark.django_db

AGES = [17, 22, 29, 30, 38, 44, 51, 64, 65, 80, 99, 41]


@pytest.fixture
def answered(client, owner):
    survey = typed_survey(owner)
    for i, age in enumerate(AGES):
        reply = post(
            client, survey, answers_for(survey, cheated=i % 2, age=age, point=i % 5)
        )
        assert reply.status_code == 201, reply.content
    assert estimate_run_now(survey=survey) is not None
    return survey


def cells(html: str, question_pk: int) -> list[str]:
    section = html.split(f'aria-labelledby="summary-{question_pk}"')[1].split(
        "</section>"
    )[0]
    return re.findall(r'class="num">([^<]*)</td>', section)


def test_a_number_is_summarised_as_typed(as_owner, answered):
    number = answered.questions.get(kind="numeric")
    html = as_owner.get(reverse("surveys:results", args=[answered.pk])).content.decode()
    q1, median, q3 = np.quantile(AGES, [0.25, 0.5, 0.75])
    assert cells(html, number.pk) == [
        str(len(AGES)),
        f"{statistics.mean(AGES):.2f}".rstrip("0").rstrip("."),
        f"{statistics.stdev(AGES):.2f}".rstrip("0").rstrip("."),
        "17",
        f"{q1:g}",
        f"{median:g}",
        f"{q3:g}",
        "99",
    ]
    assert "Numbers as typed, in years" in html
    # The ranges breakdowns use are named.
    assert "; ".join(number.options) in html


def test_a_scale_shows_its_points_in_order_and_breaks_down_by_a_numbers_range(
    as_owner, answered
):
    html = as_owner.get(reverse("surveys:results", args=[answered.pk])).content.decode()
    scale = answered.questions.get(kind="rating_scale")
    section = html.split(f'aria-labelledby="summary-{scale.pk}"')[1].split(
        "</section>"
    )[0]
    rows = re.findall(
        r'<th scope="row" data-label="Point">([^<]*)</th><td data-label="Answers" class="num">(\d+)</td>',
        section,
    )
    # Points i % 5 over the twelve responses: 3, 3, 2, 2, 2.
    assert rows == [
        (p, str(n)) for p, n in zip(AGREEMENT, [3, 3, 2, 2, 2], strict=True)
    ]
    yes_no = answered.questions.get(kind="yes_no")
    cheated = html.split(f'id="result-{yes_no.pk}"')[1].split("</article>")[0]
    assert "How old are you?" in cheated


def test_the_summary_escapes_nothing_it_did_not_get_and_shows_no_single_number(
    as_owner, answered
):
    html = as_owner.get(reverse("surveys:results", args=[answered.pk])).content.decode()
    number = answered.questions.get(kind="numeric")
    # 38 is an answer that is neither a quartile nor a bound: never shown.
    assert "38" not in cells(html, number.pk)
