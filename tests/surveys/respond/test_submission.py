"""The public submission endpoint: validation, idempotency, nothing identifying."""

import json
import time

import psycopg
import pytest
from django.utils import timezone

from surveys.builder.demo import DEMO_QUESTIONS
from surveys.builder.questions import question_create
from surveys.builder.services import (
    survey_close,
    survey_create,
    survey_delete,
    survey_publish,
    survey_reopen,
)
from surveys.models import Answer, Response, Survey

pytestmark = pytest.mark.django_db

KEY = "0123456789abcdef0123456789abcdef"


def answers_for(survey, reports=None):
    questions = list(survey.questions.all())
    reports = reports or [1, 0, 2, 3]
    return [
        {"question": q.pk, "report": r, "spec_version": q.spec_version}
        for q, r in zip(questions, reports, strict=True)
    ]


def post(client, survey, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(
        f"/api/v1/public/surveys/{survey.slug}/responses/",
        data=data,
        content_type="application/json",
        **extra,
    )


def test_a_valid_submission_is_stored_with_its_spec_versions(client, open_survey):
    reply = post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
    )
    assert reply.status_code == 201
    response = Response.objects.get()
    assert response.received_on == timezone.localdate()
    stored = list(response.answers.order_by("question__position"))
    assert [a.report for a in stored] == [1, 0, 2, 3]
    assert all(a.spec_version == a.question.spec_version for a in stored)
    receipt = reply.json()
    assert [a["label"] for a in receipt["answers"]] == [
        "Yes",
        "No",
        "A few times",
        "65 or over",
    ]


def test_a_second_submission_with_the_same_key_returns_the_first_and_stores_nothing(
    client, open_survey
):
    first = post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
    )
    again = post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey, [0, 1, 0, 0])},
    )
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Response.objects.count() == 1
    assert Answer.objects.count() == 4


def test_nothing_identifying_is_stored_with_a_response(client, open_survey):
    post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
        HTTP_USER_AGENT="Secret-Agent/1.0",
        REMOTE_ADDR="203.0.113.7",
    )
    fields = {f.name for f in Response._meta.get_fields()} | {
        f.name for f in Answer._meta.get_fields()
    }
    # "counted": whether the saved counts hold it yet (docs/methodology.md);
    # "number": a number typed to a question asked plainly, as typed;
    # "text": words typed to a free-text question, as typed (not protected,
    # and the page says so).
    assert fields == {
        "id", "survey", "respondent_key", "received_on", "counted", "answers",
        "response", "question", "report", "spec_version", "stratum", "number",
        "text",
    }  # fmt: skip
    row = json.dumps(
        list(Response.objects.values()) + list(Answer.objects.values()), default=str
    )
    assert "203.0.113.7" not in row
    assert "Secret-Agent" not in row


@pytest.mark.parametrize(
    ("mutate", "status", "message"),
    [
        (lambda a: a[:-1], 400, "missing"),
        (lambda a: [*a, {**a[0]}], 400, "answered twice"),
        (lambda a: [{**a[0], "question": 99999}, *a[1:]], 400, "no such question"),
        (lambda a: [{**a[0], "report": 2}, *a[1:]], 400, "from 0 to 1"),
        (lambda a: [{**a[0], "report": -1}, *a[1:]], 400, "from 0 to 1"),
        (lambda a: [{**a[0], "report": "1"}, *a[1:]], 400, "whole number"),
        (lambda a: [{**a[0], "report": True}, *a[1:]], 400, "whole number"),
        (lambda a: [{**a[0], "report": 1.0}, *a[1:]], 400, "whole number"),
        (lambda a: [{**a[0], "truth": 1}, *a[1:]], 400, "exactly question, report"),
        (lambda a: [{**a[0], "spec_version": "stale"}, *a[1:]], 409, "Reload the page"),
        (lambda a: {"1": 1}, 400, "must be a list"),
    ],
)
def test_a_bad_answer_is_refused_with_a_clear_message_and_nothing_is_stored(
    client, open_survey, mutate, status, message
):
    body = {"respondent_key": KEY, "answers": mutate(answers_for(open_survey))}
    reply = post(client, open_survey, body)
    assert reply.status_code == status
    assert message in reply.json()["error"]
    assert Response.objects.count() == 0
    assert Answer.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ("{not json", 400, "not valid JSON"),
        (b"\xff\xfe", 400, "not valid JSON"),
        ("[1, 2]", 400, "JSON object"),
        (json.dumps({"respondent_key": "short", "answers": []}), 400, "respondent_key"),
        (
            json.dumps({"respondent_key": KEY.upper(), "answers": []}),
            400,
            "respondent_key",
        ),
        (
            json.dumps({"respondent_key": KEY, "answers": [], "ip": "x"}),
            400,
            "Unknown field",
        ),
        (
            json.dumps({"respondent_key": KEY, "answers": ["x" * 20000]}),
            413,
            "larger than",
        ),
    ],
)
def test_a_malformed_or_oversized_body_is_a_4xx(
    client, open_survey, body, status, message
):
    reply = post(client, open_survey, body)
    assert reply.status_code == status
    assert message in reply.json()["error"]
    assert Response.objects.count() == 0


def test_a_form_encoded_post_is_refused(client, open_survey):
    reply = client.post(
        f"/api/v1/public/surveys/{open_survey.slug}/responses/", {"respondent_key": KEY}
    )
    assert reply.status_code == 415


def test_a_draft_survey_takes_no_answers(client, draft_survey):
    reply = post(client, draft_survey, {"respondent_key": KEY, "answers": []})
    assert reply.status_code == 404
    assert client.get(f"/s/{draft_survey.slug}/").status_code == 404


def test_a_closed_survey_takes_no_answers(client, open_survey):
    survey_close(survey=open_survey)
    reply = post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
    )
    assert reply.status_code == 409
    assert "not accepting responses" in reply.json()["error"]
    assert Response.objects.count() == 0


def test_a_survey_outside_its_dates_takes_no_answers(client, open_survey):
    Survey.objects.filter(pk=open_survey.pk).update(
        opens_at=timezone.now() + timezone.timedelta(days=1)
    )
    reply = post(
        client,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
    )
    assert reply.status_code == 409


def test_the_old_page_relative_address_is_gone(client, open_survey):
    reply = client.post(
        f"/s/{open_survey.slug}/responses", data="{}", content_type="application/json"
    )
    assert reply.status_code in (404, 405)


def test_the_endpoint_needs_no_session_or_csrf_token(open_survey):
    """Anonymous and cookie-less: a forged cross-site request gains nothing, and a
    plain HTML form cannot send application/json (see the 415 test above)."""
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    reply = post(
        strict,
        open_survey,
        {"respondent_key": KEY, "answers": answers_for(open_survey)},
    )
    assert reply.status_code == 201


def test_the_page_hands_the_browser_specs_as_data_and_no_named_answer_fields(
    client, open_survey
):
    page = client.get(f"/s/{open_survey.slug}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="survey-config"' in html
    assert "name=" not in html.split("<main", 1)[1].split("survey-config")[0]
    config = json.loads(
        html.split('id="survey-config" type="application/json">')[1].split("</script>")[
            0
        ]
    )
    assert config["questions"][0]["spec"]["design"] == "warner"
    assert "<noscript>" in html


def test_question_text_is_escaped_on_the_respondent_page(client, owner):
    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish

    survey = survey_create(
        owner=owner, title="<b>Title</b>", introduction="<i>intro</i>\nline"
    )
    question_create(survey=survey, text="<script>alert(1)</script>?", kind="yes_no",
                    design={"name": "warner", "p": 0.75})  # fmt: skip
    survey_publish(survey=survey)
    html = client.get(f"/s/{survey.slug}/").content.decode()
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;i&gt;intro&lt;/i&gt;<br>line" in html


# -- the open surveys a process remembers -------------------------------------


def test_a_survey_closed_after_it_was_remembered_takes_no_answers(client, open_survey):
    body = {"respondent_key": KEY, "answers": answers_for(open_survey)}
    assert post(client, open_survey, body).status_code == 201
    survey_close(survey=open_survey)
    other = {"respondent_key": "f" * 32, "answers": answers_for(open_survey)}
    reply = post(client, open_survey, other)
    assert reply.status_code == 409
    # A retry of the response stored while it was open still gets its receipt.
    assert post(client, open_survey, body).status_code == 200
    survey_reopen(survey=open_survey)
    assert post(client, open_survey, other).status_code == 201
    assert Response.objects.count() == 2


def test_a_remembered_survey_whose_close_was_postponed_takes_answers(
    client, open_survey
):
    closes_at = timezone.now() + timezone.timedelta(seconds=0.5)
    Survey.objects.filter(pk=open_survey.pk).update(closes_at=closes_at)
    first = {"respondent_key": KEY, "answers": answers_for(open_survey)}
    assert post(client, open_survey, first).status_code == 201  # remembered
    Survey.objects.filter(pk=open_survey.pk).update(
        closes_at=closes_at + timezone.timedelta(days=1)
    )
    time.sleep(max(0.0, (closes_at - timezone.now()).total_seconds()) + 0.05)
    second = {"respondent_key": "f" * 32, "answers": answers_for(open_survey)}
    assert post(client, open_survey, second).status_code == 201


def test_a_slug_that_now_names_another_survey_stores_into_that_one(
    client, open_survey, owner
):
    slug = open_survey.slug
    assert (
        post(client, open_survey, {"respondent_key": KEY, "answers": []}).status_code
        == 400
    )  # remembered, nothing stored
    survey_delete(survey=open_survey)
    successor = survey_create(owner=owner, title="Successor")
    for question in DEMO_QUESTIONS:
        question_create(survey=successor, **question)
    Survey.objects.filter(pk=successor.pk).update(slug=slug)
    successor = survey_publish(survey=Survey.objects.get(pk=successor.pk))
    reply = post(
        client, successor, {"respondent_key": KEY, "answers": answers_for(successor)}
    )
    assert reply.status_code == 201
    assert Response.objects.get().survey_id == successor.pk


@pytest.mark.django_db(transaction=True)
def test_a_dropped_database_connection_costs_no_submission(client, open_survey):
    """The store has no per-request health check: it reconnects and runs again."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL to end a session from outside")
    first = {"respondent_key": KEY, "answers": answers_for(open_survey)}
    second = {"respondent_key": "f" * 32, "answers": answers_for(open_survey)}
    assert post(client, open_survey, first).status_code == 201
    connection.ensure_connection()
    backend_pid = connection.connection.info.backend_pid
    params = connection.settings_dict
    with psycopg.connect(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"],
        password=params["PASSWORD"] or None,
        dbname=params["NAME"],
        autocommit=True,
    ) as admin:
        assert admin.execute(
            "SELECT pg_terminate_backend(%s)", [backend_pid]
        ).fetchone()[0]
    assert post(client, open_survey, second).status_code == 201
    assert connection.connection.info.backend_pid != backend_pid
    assert sorted(Response.objects.values_list("respondent_key", flat=True)) == [
        KEY,
        "f" * 32,
    ]
