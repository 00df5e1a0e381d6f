"""List experiments from the builder to the stored answers, the estimate run,
the results page, the API and the exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.exceptions import ValidationError

from estimation.kinds.listexperiment.designs import ListExperiment
from estimation.kinds.listexperiment.estimate import estimate
from estimation.runs.services import estimate_run_now
from surveys.builder.design_forms import DesignForm
from surveys.builder.questions import question_create
from surveys.builder.services import survey_create, survey_publish
from surveys.kinds import kind_module
from surveys.models import Question
from surveys.respond.selectors import respondent_questions, whole_response
from surveys.respond.submissions import response_record
from surveys.results import exports
from surveys.results.codebook import question_entry
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db
TEXT = "How many of these have you done in the last year?"
CONTROL = ["Gone to a concert", "Bought a new phone", "Voted in a local election"]
SENSITIVE = "Paid a bribe to an official"
DESIGN = {"name": "list_experiment", "items": 3, "treatment_share": 0.5}


def make_survey(owner, **fields):
    survey = survey_create(owner=owner, title="Habits")
    question_create(
        survey=survey,
        text=TEXT,
        kind="list_experiment",
        options=[*CONTROL, SENSITIVE],
        design=DESIGN,
        **fields,
    )
    return survey


def published(owner):
    return survey_publish(survey=make_survey(owner), confirm_unbounded=True)


def store_counts(survey, counts):
    """One response per code in ``counts`` (``c``, or ``J + 1 + c``)."""
    question = survey.questions.get()
    index = 0
    for report, count in enumerate(counts):
        for _ in range(count):
            index += 1
            response_record(
                survey=survey,
                payload={
                    "respondent_key": f"{index:032x}",
                    "answers": [
                        {
                            "question": question.pk,
                            "report": report,
                            "spec_version": question.spec_version,
                        }
                    ],
                },
            )


# -- the builder ---------------------------------------------------------------


def form(**data):
    return DesignForm(
        {
            "kind": "list_experiment",
            "options": "\n".join(CONTROL),
            "sensitive_item": SENSITIVE,
            **data,
        }
    )


def test_the_form_builds_the_design_from_the_items_and_the_share():
    built = form(treatment_share="0.4")
    assert built.is_valid(), built.errors
    assert built.cleaned_data["design"] == {**DESIGN, "treatment_share": 0.4}
    assert built.cleaned_data["labels"] == [*CONTROL, SENSITIVE]
    default = form()
    assert default.is_valid(), default.errors
    assert default.cleaned_data["design"]["treatment_share"] == 0.5


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"options": "Only one"}, "options", "2 to 10 control items"),
        (
            {"options": "\n".join(f"Item {i}" for i in range(11))},
            "options",
            "2 to 10 control items",
        ),
        ({"sensitive_item": ""}, "sensitive_item", "Give the sensitive item"),
        ({"sensitive_item": CONTROL[0]}, "options", "must be different"),
        ({"treatment_share": "1"}, "treatment_share", "between 0 and 1"),
        ({"treatment_share": "0"}, "treatment_share", "between 0 and 1"),
    ],
)
def test_the_form_says_what_is_wrong(data, field, message):
    refused = form(**data)
    assert not refused.is_valid()
    assert message in str(refused.errors[field])


def test_the_service_refuses_a_list_that_does_not_fit_its_design(owner):
    survey = survey_create(owner=owner, title="Habits")
    with pytest.raises(ValidationError, match="3 control items but the question"):
        question_create(
            survey=survey,
            text=TEXT,
            kind="list_experiment",
            options=[*CONTROL, "Another", SENSITIVE],
            design=DESIGN,
        )
    with pytest.raises(ValidationError, match="sensitive item last"):
        question_create(
            survey=survey,
            text=TEXT,
            kind="list_experiment",
            options=[SENSITIVE],
            design=DESIGN,
        )
    with pytest.raises(ValidationError, match="cannot be optional"):
        make_survey(owner, optional=True)


def test_the_preview_explains_the_assumptions_and_gives_no_epsilon():
    built = form()
    assert built.is_valid()
    text = kind_module("list_experiment", "text")
    summary = text.summary(built.cleaned_data["built"], [*CONTROL, SENSITIVE], 500)
    assert summary["epsilon"] is None
    assert "no design effect" in summary["sentence"]
    assert "no liars" in summary["sentence"]
    assert "No epsilon" in summary["observer"]
    assert "reports 0" in summary["observer"]
    assert "inf" not in summary["epsilon_text"]
    assert text.epsilon_text(built.cleaned_data["built"]).startswith("no epsilon")
    # z * sqrt(Var(DiM) / n): J = 3 items at 1/2 (v_C = 3/4), p = 0.1
    # (v_T = 3/4 + 0.09), half treated: Var = 2 (v_T + v_C) per response.
    variance = 2 * (0.75 + 0.09) + 2 * 0.75
    points = 100 * 1.959963984540054 * (variance / 500) ** 0.5
    assert summary["prevalence"] == pytest.approx(0.1)
    assert f"about ±{points:.1f} percentage points" in summary["precision"]


def test_a_site_that_refuses_unbounded_designs_says_so_in_the_preview(settings):
    settings.ALLOW_UNBOUNDED_DESIGNS = False
    text = kind_module("list_experiment", "text")
    summary = text.summary(ListExperiment(3), [*CONTROL, SENSITIVE], None)
    assert "cannot be published here" in summary["warning"]


# -- the respondent page and the answers -----------------------------------------


def test_respondents_read_what_is_protected_and_what_is_not(owner, client):
    survey = published(owner)
    (item,) = respondent_questions(survey)
    assert item["options"] == ["0", "1", "2", "3", "4"]
    assert item["list_items"] == CONTROL
    assert item["sensitive_item"] == SENSITIVE
    assert item["epsilon"] is None
    assert item["spec"] == DESIGN
    overview = whole_response(survey.questions.all())
    assert overview is not None
    assert overview["epsilon"] is None
    page = client.get(f"/s/{survey.slug}/").content.decode()
    assert "we learn how many, not which" in page
    assert "if all or none of the items apply to you" in page
    assert "js/kinds/listexperiment/page.js" in page
    assert "not bounded, because a list experiment has no epsilon" in page
    assert "inf" not in item["epsilon_text"]
    transparency = client.get(f"/s/{survey.slug}/transparency/").content.decode()
    assert "no local differential privacy guarantee" in transparency
    assert SENSITIVE in transparency


@pytest.mark.parametrize("report", [0, 3, 4, 8])
def test_every_code_from_0_to_2J_plus_2_is_stored(owner, client, report):
    survey = published(owner)
    question = survey.questions.get()
    assert question.code_count == 9
    reply = client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        {
            "respondent_key": "a" * 32,
            "answers": [
                {
                    "question": question.pk,
                    "report": report,
                    "spec_version": question.spec_version,
                }
            ],
        },
        content_type="application/json",
    )
    assert reply.status_code == 201, reply.content
    (receipt,) = reply.json()["answers"]
    list_name = "Shorter" if report <= 3 else "Longer"
    assert receipt["label"].startswith(list_name)


@pytest.mark.parametrize("report", [-1, 9, 2.5, "3", None])
def test_a_report_outside_the_codes_is_a_400(owner, client, report):
    survey = published(owner)
    question = survey.questions.get()
    reply = client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        {
            "respondent_key": "a" * 32,
            "answers": [
                {
                    "question": question.pk,
                    "report": report,
                    "spec_version": question.spec_version,
                }
            ],
        },
        content_type="application/json",
    )
    assert reply.status_code == 400
    assert "report must be" in reply.json()["error"]


# -- the run, the results page, the API and the exports -------------------------

# Control counts 0..3, then treatment counts 0..4: 200 in each list, means
# 1.5 and 2.0, so the difference in means is 0.5; 10 + 10 treatment
# respondents at the floor and the ceiling.
COUNTS = [20, 80, 80, 20, 10, 50, 80, 50, 10]


def test_the_run_saves_both_estimators_and_the_results_page_shows_them(owner, client):
    survey = published(owner)
    store_counts(survey, COUNTS)
    run = estimate_run_now(survey=survey)
    assert run is not None
    assert run.status == "finished"
    saved = run.question_estimates.get()
    expected = estimate(COUNTS, ListExperiment(3), confidence=run.level)
    assert saved.n == 400
    assert saved.epsilon is None
    assert saved.compliance["reported"] == COUNTS
    dim, ml = saved.compliance["parameters"]
    assert dim["name"] == "dim"
    assert ml["name"] == "ml"
    assert dim["estimate"] == pytest.approx(0.5, abs=1e-12)
    assert dim["ci_lower"] == pytest.approx(
        expected.difference_in_means.ci_lower, abs=1e-12
    )
    assert expected.ml is not None
    assert ml["estimate"] == pytest.approx(expected.ml.estimate, abs=1e-12)
    assert saved.compliance["design_effect_p"] == pytest.approx(
        expected.design_effect.p_value, abs=1e-12
    )
    assert (saved.compliance["floor"], saved.compliance["ceiling"]) == (10, 10)
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/results/").content.decode()
    assert "difference in means" in page
    assert "maximum likelihood (Imai 2011)" in page
    assert "Test of a design effect (Blair and Imai 2012)" in page
    assert (
        "20 respondents shown the longer list (10%) answered 0 or 4, which "
        "reveals their answer to the sensitive item" in page
    )
    assert "50%" in page
    assert ">inf<" not in page
    # The privacy table and the whole response: a statement, never a number.
    assert "no epsilon: a list experiment gives no local DP guarantee" in page
    assert "Not bounded: a question above gives no local differential" in page
    assert "unbounded; a Yes" not in page


def test_one_list_without_answers_saves_no_estimate_and_says_why(owner):
    survey = published(owner)
    store_counts(survey, [5, 5, 5, 5])
    run = estimate_run_now(survey=survey)
    saved = run.question_estimates.get()
    assert "parameters" not in saved.compliance
    assert saved.warnings[0]["code"] == "one_list_empty"


def test_the_api_and_the_exports_carry_the_estimates_and_the_codes(owner):
    survey = published(owner)
    store_counts(survey, COUNTS)
    estimate_run_now(survey=survey)
    api = token_client(owner)
    body = api.get(f"/api/v1/surveys/{survey.pk}/estimates/").json()
    (question,) = body["questions"]
    assert question["kind"] == "list_experiment"
    assert question["epsilon"] is None
    parameters = question["compliance"]["parameters"]
    assert [p["name"] for p in parameters] == ["dim", "ml"]
    assert all(p["flags"] == [] for p in parameters)
    assert parameters[0]["estimate"] == pytest.approx(0.5, abs=1e-12)
    assert question["reported_labels"][4] == "Longer list, count 0"
    assert body["run"]["survey_epsilon"] is None
    codebook = api.get(f"/api/v1/surveys/{survey.pk}/codebook/").json()
    (entry,) = codebook["questions"]
    assert entry["epsilon"] is None
    assert entry["sensitive_item"] == SENSITIVE
    assert entry["control_items"] == CONTROL
    labels = {c["code"]: c["label"] for c in entry["report_codes"]}
    assert labels[0] == "Shorter list, count 0"
    assert labels[8] == "Longer list, count 4"
    assert len(labels) == 9
    assert "no local DP" in entry["privacy"] or "no epsilon" in entry["privacy"]
    assert codebook["survey"]["epsilon"] is None
    assert "no local differential privacy" in codebook["survey"]["epsilon_note"]
    rows = list(
        csv.DictReader(io.StringIO(b"".join(exports.answers_csv(survey)).decode()))
    )
    assert sorted(int(r["q1"]) for r in rows) == sorted(
        code for code, count in enumerate(COUNTS) for _ in range(count)
    )
    # The list shown and the count, decoded beside the code.
    for row in rows:
        longer = int(row["q1"]) >= 4
        assert int(row["q1_longer"]) == int(longer)
        assert int(row["q1_count"]) == int(row["q1"]) - 4 * longer
    lines = b"".join(exports.answers_jsonl(survey)).decode().splitlines()
    assert {"q1", "q1_longer", "q1_count"} <= set(json.loads(lines[0]))
    layout = {c["name"]: c["meaning"] for c in codebook["layout"]["columns"]}
    assert "1 if the longer list was shown" in layout["q1_longer"]
    assert "the count the respondent gave" in layout["q1_count"]
    assert [c["column"] for c in entry["decoded_columns"]] == ["q1_longer", "q1_count"]
    entry_direct = question_entry("q1", survey.questions.get())
    assert entry_direct["design"] == DESIGN
    assert json.dumps(entry_direct)  # plain data throughout


def test_the_publish_page_states_no_epsilon_instead_of_a_number(owner, client):
    survey = make_survey(owner)
    client.force_login(owner)
    page = client.get(f"/surveys/{survey.pk}/publish/").content.decode()
    assert "no epsilon: a list experiment gives no local DP guarantee" in page
    assert "unbounded: a list experiment gives no local differential" in page
    assert "question 1 gives no local differential privacy guarantee" in page
    assert "a No to question 1 is not protected" not in page
    assert Question.objects.get().kind == "list_experiment"


def test_the_builder_page_adds_one_explains_it_and_reopens_it(owner, client):
    from tests.surveys.builder.pages import add, form_errors, preview, url

    client.force_login(owner)
    survey = survey_create(owner=owner, title="Habits")
    fields = {
        "kind": "list_experiment",
        "options": "\n".join(CONTROL),
        "sensitive_item": SENSITIVE,
    }
    form_page = client.get(url("question_create", survey.pk)).content.decode()
    assert "List experiment: how many of these apply (item count)" in form_page
    assert "few respondents have all or none of them true" in form_page
    response = add(client, survey, **fields, treatment_share="0.5")
    assert response.status_code == 302
    question = survey.questions.get()
    assert question.options == [*CONTROL, SENSITIVE]
    assert question.design == DESIGN
    page = client.get(url("question_edit", survey.pk, question.pk)).content.decode()
    assert f'value="{SENSITIVE}"' in page
    bad = add(client, survey, **{**fields, "options": "Only one"})
    assert "2 to 10 control items" in " ".join(form_errors(bad, "options"))
    shown = preview(client, **fields, n="500").json()
    assert shown["epsilon"] is None
    assert "no design effect" in shown["sentence"]
    assert "No epsilon" in shown["observer"]
    assert shown["epsilon_statement"].startswith("no epsilon")
    detail = client.get(f"/surveys/{survey.pk}/").content.decode()
    assert SENSITIVE in detail
    # The saved question's preview says it has no epsilon, not "not private".
    edit = client.get(url("question_edit", survey.pk, question.pk)).content.decode()
    assert "no epsilon: a list experiment gives no local DP guarantee" in edit


@pytest.mark.parametrize("file_format", ["sav", "dta"])
def test_spss_and_stata_label_every_code_as_the_respondent_saw_it(
    owner, tmp_path, file_format
):
    import pyreadstat

    from surveys.results import stat_files

    survey = published(owner)
    store_counts(survey, COUNTS)
    write = {"sav": stat_files.answers_sav, "dta": stat_files.answers_dta}
    path = tmp_path / f"answers.{file_format}"
    path.write_bytes(b"".join(write[file_format](survey)))
    read = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta}
    frame, meta = read[file_format](path)
    labels = meta.variable_value_labels["q1"]
    assert labels[2] == "Shorter list, count 2"
    assert labels[8] == "Longer list, count 4"
    assert meta.variable_value_labels["q1_longer"] == {
        0: "Shorter list",
        1: "Longer list",
    }
    longer = frame["q1"].astype(int) >= 4
    assert (frame["q1_longer"].astype(int) == longer.astype(int)).all()
    assert (frame["q1_count"].astype(int) == frame["q1"].astype(int) - 4 * longer).all()
    assert sorted(frame["q1"].astype(int)) == sorted(
        code for code, count in enumerate(COUNTS) for _ in range(count)
    )
    if file_format == "sav":
        notes = " ".join(meta.notes)
        assert "list_experiment(items=3" in notes
        assert "no local DP guarantee" in notes


def test_the_analysis_bundle_reproduces_the_dashboard_and_decodes_in_r(owner, tmp_path):
    from surveys.results import bundle
    from tests.surveys.results.test_bundle import run_script, unpack

    survey = published(owner)
    store_counts(survey, COUNTS)
    estimate_run_now(survey=survey)
    _, folder = unpack(survey, b"".join(bundle.bundle_zip(survey)), tmp_path)
    script = (folder / "analysis.R").read_text()
    assert "q1_treat <- as.integer(q1 > 3)" in script
    assert "q1_y <- q1 - 4 * q1_treat" in script
    assert '"dashboard", 0.5' in script
    # The Python script re-estimates the export with the pure core and finds
    # the dashboard's difference in means and ML estimate.
    ran = run_script(folder)
    assert ran.returncode == 0, ran.stderr
    assert "dim: 0.5" in ran.stdout
    assert "Largest difference from the dashboard" in ran.stdout


def test_the_api_creates_one_and_states_no_epsilon_as_null(owner):
    survey = survey_create(owner=owner, title="Habits")
    api = token_client(owner)
    reply = api.post(
        f"/api/v1/surveys/{survey.pk}/questions/",
        {
            "text": TEXT,
            "kind": "list_experiment",
            "options": [*CONTROL, SENSITIVE],
            "design": DESIGN,
        },
        format="json",
    )
    assert reply.status_code == 201, reply.content
    body = reply.content.decode()
    assert "Infinity" not in body
    assert "inf" not in json.dumps(reply.json().get("epsilon"))
    assert reply.json()["epsilon"] is None
    refused = api.post(
        f"/api/v1/surveys/{survey.pk}/questions/",
        {
            "text": TEXT,
            "kind": "list_experiment",
            "options": [SENSITIVE],
            "design": DESIGN,
        },
        format="json",
    )
    assert refused.status_code == 400
    assert "sensitive item last" in refused.content.decode()
    listed = api.get(f"/api/v1/surveys/{survey.pk}/").content.decode()
    assert "Infinity" not in listed


def test_a_site_that_refuses_unbounded_designs_refuses_to_publish_it(owner, settings):
    from surveys.builder.services import SurveyStateError

    settings.ALLOW_UNBOUNDED_DESIGNS = False
    survey = make_survey(owner)
    with pytest.raises(SurveyStateError, match="gives no local differential privacy"):
        survey_publish(survey=survey, confirm_unbounded=True)
