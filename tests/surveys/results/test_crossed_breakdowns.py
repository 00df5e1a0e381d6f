"""Two direct questions crossed: every cell estimated from the saved counts,
small cells withheld with their complements, the same numbers on the page, in
the crossed CSV, the JSON export and the API, and a chart for every
breakdown."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from types import SimpleNamespace

import numpy as np
import pytest
from django.urls import reverse

from estimation.results import estimate_question
from estimation.runs.breakdowns import DISTRIBUTION_NOTICES, subgroup_notices
from estimation.runs.crossed import (
    COMPLEMENTARY,
    SMALL,
    survey_crossing,
    withheld_cells,
)
from estimation.runs.models import EstimateRun
from estimation.runs.services import estimate_run_execute, estimate_run_now
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.models import Answer, Question
from surveys.respond.submissions import response_record
from tests.surveys.respond.multiselect import add_multiselect
from tests.surveys.respond.responses import randomized_codes

pytestmark = pytest.mark.django_db

PLACES = ["North", "South", "Online"]
ROLES = ["Staff", "Student"]
# Responses per (place, role); role 2 is "No answer" (the role is optional).
# Online staff are few: withheld, and so are three cells around it.
PLAN = {
    (0, 0): 40,
    (0, 1): 40,
    (0, 2): 25,
    (1, 0): 40,
    (1, 1): 40,
    (1, 2): 25,
    (2, 0): 5,
    (2, 1): 40,
    (2, 2): 25,
}


# -- the small-cell rule, on its own ------------------------------------------


def lines_of(rows, columns):
    return [[(a, b) for b in range(columns)] for a in range(rows)] + [
        [(a, b) for a in range(rows)] for b in range(columns)
    ]


def test_a_lone_small_cell_takes_the_smallest_beside_it_in_its_row_and_column():
    n = {(0, 0): 5, (0, 1): 30, (0, 2): 40, (1, 0): 50, (1, 1): 60, (1, 2): 70}
    withheld = withheld_cells(n, 2, 3, 20)
    assert withheld[(0, 0)] == SMALL
    assert withheld[(0, 1)] == COMPLEMENTARY
    # Column 0 and column 1 each had one: both closed by row 1.
    assert withheld[(1, 0)] == COMPLEMENTARY
    assert withheld[(1, 1)] == COMPLEMENTARY
    assert (0, 2) not in withheld
    assert (1, 2) not in withheld


def test_no_cell_is_withheld_when_every_cell_is_large_enough():
    assert (
        withheld_cells({(a, b): 20 for a in range(3) for b in range(2)}, 3, 2, 20) == {}
    )


def test_an_empty_cell_is_shown_and_needs_no_complement():
    # A zero singles no one out: its row's margin minus the others gives 0.
    withheld = withheld_cells({(0, 0): 0, (0, 1): 30, (1, 0): 30, (1, 1): 30}, 2, 2, 20)
    assert withheld == {}


def test_a_cell_of_one_response_is_withheld_with_its_complements():
    withheld = withheld_cells({(0, 0): 1, (0, 1): 30, (1, 0): 30, (1, 1): 30}, 2, 2, 20)
    assert withheld == {
        (0, 0): SMALL,
        (0, 1): COMPLEMENTARY,
        (1, 0): COMPLEMENTARY,
        (1, 1): COMPLEMENTARY,
    }


@pytest.mark.parametrize("seed", range(40))
def test_no_withheld_cell_is_alone_in_its_row_or_column(seed):
    rng = np.random.default_rng(seed)
    rows, columns = int(rng.integers(2, 6)), int(rng.integers(2, 6))
    n = {
        (a, b): int(rng.choice([0, 3, 12, 19, 20, 25, 60]))
        for a in range(rows)
        for b in range(columns)
    }
    withheld = withheld_cells(n, rows, columns, 20)
    assert {c for c, v in n.items() if 0 < v < 20} <= set(withheld)
    # An empty cell needs no protection, though it may be one's complement.
    assert all(withheld.get(c) != SMALL for c, v in n.items() if v == 0)
    for line in lines_of(rows, columns):
        assert sum(1 for cell in line if cell in withheld) != 1


# -- a survey ---------------------------------------------------------------------


@pytest.fixture
def survey(owner):
    return crossed_survey(owner)


def crossed_survey(owner):
    """Three sensitive kinds by two direct questions, answered and estimated."""
    survey = survey_create(owner=owner, title="Crossed", planned_responses=300)
    question_create(
        survey=survey,
        text="Have you ever cheated on an exam?",
        kind=Question.Kind.YES_NO,
        design={"name": "warner", "p": 0.75},
    )
    question_create(
        survey=survey,
        text="How many times did you do it last month?",
        kind=Question.Kind.COUNT,
        options=["0", "4"],
        design={"name": "geometric", "m": 4, "epsilon": 2.0},
    )
    question_create(
        survey=survey,
        text="Where do you study?",
        kind=Question.Kind.DIRECT,
        options=PLACES,
        design={"name": "direct", "k": 3},
    )
    question_create(
        survey=survey,
        text="Your role?",
        kind=Question.Kind.DIRECT,
        options=ROLES,
        design={"name": "direct", "k": 2},
        optional=True,
    )
    survey = survey_publish(survey=survey)
    add_multiselect(survey, ["Item A", "Item B"])
    rng = np.random.default_rng(31)
    place, role = direct_questions(survey)
    for (a, b), count in PLAN.items():
        for _ in range(count):
            answers = []
            for q in survey.questions.all():
                if q.pk == place.pk:
                    report = a
                elif q.pk == role.pk:
                    if b == 2:
                        continue
                    report = b
                else:
                    report = int(rng.integers(0, randomized_codes(q)))
                answers.append(
                    {"question": q.pk, "report": report, "spec_version": q.spec_version}
                )
            key = "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))
            response_record(
                survey=survey, payload={"respondent_key": key, "answers": answers}
            )
    run = EstimateRun.objects.filter(survey=survey).first()
    estimate_run_execute(run_id=run.pk)
    return survey


def direct_questions(survey):
    direct = [q for q in survey.questions.all() if not q.is_sensitive]
    return direct[0], direct[1]


def sensitive(survey, kind):
    return next(q for q in survey.questions.all() if q.kind == kind)


def crossing(survey, min_size=20):
    run = EstimateRun.objects.filter(
        survey=survey, status=EstimateRun.Status.FINISHED
    ).first()
    return survey_crossing(survey, run, direct_questions(survey), min_size=min_size)


def query(survey):
    place, role = direct_questions(survey)
    return {"cross_rows": place.pk, "cross_columns": role.pk}


def answer_counts(survey, question):
    """Each cell's report counts read from the answers themselves, not from
    the saved counts: an independent tally."""
    place, role = direct_questions(survey)
    by_response = {}
    for response_id, question_id, report in Answer.objects.filter(
        question__survey=survey
    ).values_list("response_id", "question_id", "report"):
        by_response.setdefault(response_id, {})[question_id] = report
    cells = {}
    for answers in by_response.values():
        if question.pk not in answers:
            continue
        cell = (answers[place.pk], answers.get(role.pk, 2))
        cells.setdefault(cell, {}).setdefault(answers[question.pk], 0)
        cells[cell][answers[question.pk]] += 1
    return cells


def test_each_cell_is_the_estimator_on_that_cells_counts(survey):
    question = sensitive(survey, Question.Kind.YES_NO)
    run = EstimateRun.objects.filter(survey=survey).first()
    table = crossing(survey).by_question[question.pk]
    counts = answer_counts(survey, question)
    for cell in table.shown:
        by_report = counts[(cell.row, cell.column)]
        vector = [by_report.get(r, 0) for r in range(2)]
        expected = estimate_question(
            vector, question.get_design(), level=run.level, ci_method=run.ci_method
        )
        assert cell.estimate.n == sum(vector) == PLAN[(cell.row, cell.column)]
        assert [o.estimate for o in cell.estimate.options] == pytest.approx(
            expected.estimate, abs=1e-12
        )
        assert [o.ci_lower for o in cell.estimate.options] == pytest.approx(
            expected.ci_lower, abs=1e-12
        )
        assert [o.ci_upper for o in cell.estimate.options] == pytest.approx(
            expected.ci_upper, abs=1e-12
        )


def test_the_cells_add_up_to_the_one_way_breakdowns_saved_by_the_run(survey):
    question = sensitive(survey, Question.Kind.YES_NO)
    place, _ = direct_questions(survey)
    table = crossing(survey, min_size=0).by_question[question.pk]
    run = EstimateRun.objects.filter(survey=survey).first()
    for a in range(3):
        saved = run.question_estimates.get(
            question=question, group_question=place, group_option=a
        )
        cells = [c for c in table.cells if c.row == a]
        assert sum(c.estimate.n for c in cells) == saved.n
        reported = [sum(c.estimate.options[r].reported for c in cells) for r in (0, 1)]
        assert reported == [o.reported for o in saved.options.order_by("option")]


def test_the_small_cell_and_its_complements_are_withheld_with_their_reasons(survey):
    table = crossing(survey).by_question[sensitive(survey, Question.Kind.YES_NO).pk]
    withheld = {(c.row, c.column): c.withheld for c in table.cells if c.withheld}
    assert withheld[(2, 0)] == SMALL
    assert sorted(c for c, why in withheld.items() if why == COMPLEMENTARY) == [
        (0, 0),
        (0, 2),
        (2, 2),
    ]
    for line in lines_of(3, 3):
        assert sum(1 for cell in line if cell in withheld) in (0, 2, 3)
    assert all(
        c.estimate is None and c.saved is None for c in table.cells if c.withheld
    )


def test_counts_and_check_all_that_apply_are_crossed_too(survey):
    found = crossing(survey).by_question
    count = found[sensitive(survey, Question.Kind.COUNT).pk]
    assert all(c.estimate.mean is not None for c in count.shown)
    multi = found[sensitive(survey, Question.Kind.MULTI_SELECT).pk]
    assert all(len(c.estimate.options) == 2 for c in multi.shown)
    assert all(c.estimate.items for c in multi.shown)


def test_no_cell_is_shown_once_the_counts_have_moved_past_the_run(survey):
    from estimation.runs.counting import counts_recount

    counts_recount(survey)
    found = crossing(survey)
    assert found.unavailable
    assert not found.by_question


# -- the page, the exports and the API --------------------------------------------


def results(client, survey, **params):
    return client.get(reverse("surveys:results", args=[survey.pk]), params)


def article(html, question):
    return html.split(f'id="result-{question.pk}"')[1].split("</article>")[0]


def crossed_block(html, question):
    return article(html, question).split(f'id="crossed-{question.pk}"')[1]


def test_the_page_offers_the_form_and_shows_every_cell(as_owner, survey):
    html = results(as_owner, survey).content.decode()
    assert 'name="cross_rows"' in html
    assert 'name="cross_columns"' in html
    question = sensitive(survey, Question.Kind.YES_NO)
    assert f'id="crossed-{question.pk}"' not in html
    html = results(as_owner, survey, **query(survey)).content.decode()
    block = crossed_block(html, question)
    table = crossing(survey).by_question[question.pk]
    for cell in table.shown:
        yes = cell.estimate.options[1]
        assert f"{yes.interval_short}" in block
    assert block.count("withheld: fewer than 20 responses") >= 1
    assert "withheld: it could be worked out from the cells beside it" in block
    assert "4 cells are withheld" in block


def svg_of(block, chart_id):
    return re.search(rf'<svg[^>]*id="{chart_id}".*?</svg>', block, re.S).group(0)


def test_every_breakdown_has_a_chart_with_a_mark_per_shown_group(as_owner, survey):
    html = results(as_owner, survey, **query(survey)).content.decode()
    question = sensitive(survey, Question.Kind.YES_NO)
    place, role = direct_questions(survey)
    one_way = svg_of(article(html, question), f"chart-{question.pk}-{place.pk}")
    assert 'role="img"' in one_way
    assert "<title" in one_way
    assert "<desc" in one_way
    # Yes only for a yes/no question: one point per place.
    assert one_way.count("<circle") == 3
    crossed = svg_of(article(html, question), f"chart-crossed-{question.pk}")
    assert crossed.count("<circle") == 5  # 9 cells, 4 withheld
    assert crossed.count('class="interval withheld"') == 4
    for svg in (one_way, crossed):
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
        xs = [float(x) for x in re.findall(r' (?:cx|x1|x2)="([-\d.]+)"', svg)]
        assert xs
        assert all(0 <= x <= width for x in xs)
        shares = [float(p) for p in re.findall(r"([-\d.]+)%", svg)]
        assert shares
        assert all(0 <= p <= 100 for p in shares)
        assert ">0%<" in svg
        assert ">100%<" in svg
    count = sensitive(survey, Question.Kind.COUNT)
    means = svg_of(article(html, count), f"chart-crossed-{count.pk}")
    assert means.count("<circle") == 5
    assert "Mean count, 0–4" in means


def test_a_wrong_choice_is_said_beside_the_form_not_a_crash(as_owner, survey):
    place, _ = direct_questions(survey)
    yes_no = sensitive(survey, Question.Kind.YES_NO)
    page = results(as_owner, survey, cross_rows=place.pk, cross_columns=yes_no.pk)
    assert page.status_code == 200
    assert "is not one of this survey&#x27;s questions asked plainly" in (
        page.content.decode()
    )
    page = results(as_owner, survey, cross_rows=place.pk, cross_columns=place.pk)
    assert "Choose two different questions to cross." in page.content.decode()


def crossed_csv_rows(client, survey, url_name):
    url = reverse(url_name, args=[survey.pk])
    response = client.get(url, query(survey))
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_page_csv_json_and_api_give_the_same_cells(as_owner, survey):
    question = sensitive(survey, Question.Kind.YES_NO)
    rows = crossed_csv_rows(as_owner, survey, "surveys:export_estimates_csv")
    api = as_owner.get(reverse("api:estimates", args=[survey.pk]), query(survey)).json()
    download = as_owner.get(
        reverse("surveys:export_estimates_json", args=[survey.pk]), query(survey)
    )
    exported = json.loads(b"".join(download.streaming_content))
    assert exported["crossed"] == api["crossed"]
    cells = next(q for q in api["questions"] if q["question_id"] == question.pk)[
        "crossed"
    ]["cells"]
    assert (
        cells
        == next(q for q in exported["questions"] if q["question_id"] == question.pk)[
            "crossed"
        ]["cells"]
    )
    table = crossing(survey).by_question[question.pk]
    for cell, served in zip(table.cells, cells, strict=True):
        assert served["withheld"] == (cell.withheld or None)
        mine = [
            r
            for r in rows
            if r["question_id"] == str(question.pk)
            and r["group_option_code"] == str(cell.row)
            and r["group2_option_code"] == str(cell.column)
        ]
        if cell.withheld:
            assert served["n"] is None
            assert served["options"] == []
            assert [r["withheld"] for r in mine] == [cell.withheld]
            assert mine[0]["n"] == ""
            assert mine[0]["estimate"] == ""
            continue
        assert served["n"] == cell.estimate.n
        for option, csv_row, view in zip(
            served["options"], mine, cell.estimate.options, strict=True
        ):
            assert option["estimate"] == view.estimate
            assert float(csv_row["estimate"]) == view.estimate
            assert float(csv_row["ci_lower"]) == view.ci_lower
            assert csv_row["flags"] == ";".join(option["flags"])


def test_the_api_and_the_download_refuse_a_wrong_choice_with_a_400(as_owner, survey):
    place, _ = direct_questions(survey)
    response = as_owner.get(
        reverse("api:estimates", args=[survey.pk]),
        {"cross_rows": place.pk, "cross_columns": "nope"},
    )
    assert response.status_code == 400
    assert "cross_columns" in json.dumps(response.json())
    response = as_owner.get(
        reverse("surveys:export_estimates_csv", args=[survey.pk]),
        {"cross_rows": place.pk},
    )
    assert response.status_code == 400
    assert b"cross_columns" in response.content


def test_without_a_crossing_the_exports_are_as_before(as_owner, survey):
    api = as_owner.get(reverse("api:estimates", args=[survey.pk])).json()
    assert "crossed" not in api
    assert all("crossed" not in q for q in api["questions"])


def test_subgroup_notices_are_on_the_card_as_in_the_export(as_owner, survey):
    html = results(as_owner, survey).content.decode()
    api = as_owner.get(reverse("api:estimates", args=[survey.pk])).json()
    said = left = 0
    for question in api["questions"]:
        for group in question["subgroups"]:
            for warning in group["warnings"]:
                # Left to the caution that flag carries, and, for single
                # counts (a group's row gives its mean), to the export.
                if warning["code"] in ("few_responses", "beyond_design"):
                    continue
                message = warning["message"].replace("'", "&#x27;")
                if warning["code"] in DISTRIBUTION_NOTICES:
                    assert message not in html
                    left += 1
                    continue
                said += 1
                label = group["group_option_label"]
                assert f"“{label}”: {message}" in html.replace("&quot;", '"')
    assert said + left, "the fixture should give some subgroup a notice of its own"


def test_a_groups_own_notices_pass_and_those_said_elsewhere_do_not():
    def notice(code):
        return SimpleNamespace(code=code, message=code)

    codes = ["at_boundary", "few_responses", "distribution_not_identified"]
    group = SimpleNamespace(warnings=[notice(c) for c in codes])
    kept = subgroup_notices([("North", group)])
    assert [(label, n.code) for label, n in kept] == [("North", "at_boundary")]


def test_a_new_run_makes_the_cells_available_again(survey):
    from estimation.runs.counting import counts_recount

    counts_recount(survey)
    estimate_run_now(survey=survey)
    assert crossing(survey).by_question


def test_the_cells_cover_every_pair_in_order(survey):
    table = crossing(survey).by_question[sensitive(survey, Question.Kind.YES_NO).pk]
    assert [(c.row, c.column) for c in table.cells] == list(
        itertools.product(range(3), range(3))
    )
    assert table.cells[2].column_label == "No answer"


# -- display logic and the comprehension check keep working ----------------------


@pytest.fixture
def filtered(owner):
    from tests.surveys.display_logic.data import filtered_survey

    draft, worked, stolen = filtered_survey(owner)
    place = question_create(
        survey=draft,
        text="Where do you study?",
        kind=Question.Kind.DIRECT,
        options=PLACES[:2],
        design={"name": "direct", "k": 2},
    )
    draft.comprehension_check, draft.comprehension_pass = place, 0
    draft.save()
    survey = survey_publish(survey=draft)
    rng = np.random.default_rng(7)
    for i in range(200):
        shown, at = i % 4 != 0, int(rng.integers(0, 2))
        answers = [
            {"question": worked.pk, "report": int(shown), "spec_version": "x"},
            {"question": place.pk, "report": at, "spec_version": "x"},
        ]
        if shown:
            answers.append({"question": stolen.pk, "report": int(rng.integers(0, 2))})
        for answer in answers:
            answer["spec_version"] = Question.objects.get(
                pk=answer["question"]
            ).spec_version
        response_record(
            survey=survey, payload={"respondent_key": f"{i:032x}", "answers": answers}
        )
    estimate_run_now(survey=survey)
    return survey, worked, stolen, place


def test_a_conditional_question_is_crossed_among_those_shown_it(as_owner, filtered):
    survey, worked, stolen, place = filtered
    run = EstimateRun.objects.filter(survey=survey).first()
    found = survey_crossing(survey, run, (worked, place), min_size=20)
    table = found.by_question[stolen.pk]
    # Those who never worked were not shown it: no answers, shown as empty,
    # and withholding nothing beside them.
    assert [c.empty for c in table.cells if c.row == 0] == [True, True]
    shown = [c for c in table.cells if c.row == 1]
    assert all(not c.withheld for c in shown)
    saved = run.question_estimates.get(question=stolen, group_question__isnull=True)
    assert sum(c.estimate.n for c in shown) == saved.n == 150
    page = results(
        as_owner, survey, cross_rows=worked.pk, cross_columns=place.pk
    ).content.decode()
    card = article(page, stolen)
    assert f'id="shown-to-{stolen.pk}"' in card
    assert f'id="crossed-{stolen.pk}"' in card
    assert card.count("no responses") >= 2
    # The comprehension check's reading is still there.
    assert 'id="passed-reading"' in page
