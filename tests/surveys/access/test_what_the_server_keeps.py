"""What a respondent leaves on the server, read as someone who has the whole
database or the server's logs would read it (docs/security.md): no
participant id, address or user agent in any table, no clock but the
documented ones, and log lines that are the same whatever the answers."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from types import SimpleNamespace

import pytest
from django.db import connection

from estimation.runs import scheduling
from estimation.runs.models import EstimateRun
from surveys.models import Answer, Response
from tests.conftest import skip_or_fail
from tests.deploy.test_logs import log_lines  # noqa: F401  (the fixture)
from tests.surveys.access.conftest import answers_for, new_key, post

pytestmark = pytest.mark.django_db

PARTICIPANT = "pid-5f1a9c-threat-model"
ADDRESS = "203.0.113.99"
FORWARDED = "198.51.100.99"
AGENT = "ThreatModelProbe/3.2 (distinctive)"
HEADERS = {
    "REMOTE_ADDR": ADDRESS,
    "HTTP_X_FORWARDED_FOR": FORWARDED,
    "HTTP_USER_AGENT": AGENT,
}
TIME_TYPES = ("timestamp without time zone", "timestamp with time zone", "time")
# Clocks a submission may move, each documented in docs/methodology.md
# ("Invitations, panels and quotas", residuals "Saved estimate runs"): when
# the first response after the last estimate run came (cleared by the next
# run), and the times of the run that the submission brings about.
DOCUMENTED_CLOCKS = {
    ("surveys_survey", "estimates_stale_since"),
    ("estimation_estimaterun", "created_at"),
    ("estimation_estimaterun", "started_at"),
    ("estimation_estimaterun", "finished_at"),
}


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("the whole-database reads use PostgreSQL's row-to-text")


def every_row_as_text() -> str:
    """Every row of every table of the database, as PostgreSQL prints it."""
    texts = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            name = connection.ops.quote_name(table)
            cursor.execute(f"SELECT t::text FROM {name} t")  # noqa: S608 (own tables)
            texts.extend(row[0] for row in cursor.fetchall())
    return "\n".join(texts)


def clock_columns() -> list[tuple[str, str]]:
    """Every (table, column) of the platform's schema holding a time of day."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND data_type = ANY(%s)",
            [list(TIME_TYPES)],
        )
        return sorted(cursor.fetchall())


def clock_values() -> Counter[tuple[str, str, str]]:
    """Every time of day stored anywhere, as (table, column, value)."""
    values: Counter[tuple[str, str, str]] = Counter()
    with connection.cursor() as cursor:
        for table, column in clock_columns():
            name = connection.ops.quote_name(column)
            cursor.execute(
                f"SELECT {name}::text FROM {connection.ops.quote_name(table)} "  # noqa: S608
                f"WHERE {name} IS NOT NULL"
            )
            values.update((table, column, value) for (value,) in cursor.fetchall())
    return values


def test_no_table_holds_a_participant_id_address_or_user_agent(
    client, panel_survey, settings
):
    # Trust the proxy header, so the forwarded address is really read.
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    key = new_key()
    access = f"/api/v1/public/surveys/{panel_survey.slug}/access/"
    page = client.get(f"/s/{panel_survey.slug}/?PROLIFIC_PID={PARTICIPANT}", **HEADERS)
    check = client.post(
        access, json.dumps({"participant": PARTICIPANT}), "application/json", **HEADERS
    )
    payload = {
        "respondent_key": key,
        "answers": answers_for(panel_survey),
        "participant": PARTICIPANT,
    }
    stored = client.post(
        f"/api/v1/public/surveys/{panel_survey.slug}/responses/",
        json.dumps(payload),
        "application/json",
        **HEADERS,
    )
    assert (page.status_code, check.status_code, stored.status_code) == (200, 200, 201)

    database = every_row_as_text()
    assert key in database  # the read sees the response it looks through
    for secret in (PARTICIPANT, ADDRESS, FORWARDED, AGENT, "ThreatModelProbe"):
        assert secret not in database, secret


def test_a_response_keeps_its_date_and_no_time_of_day(client, open_survey):
    for model in (Response, Answer):
        table = model._meta.db_table
        assert not [c for t, c in clock_columns() if t == table], table
    assert post(client, open_survey, _body(open_survey)).status_code == 201
    (received_on,) = Response.objects.values_list("received_on", flat=True)
    assert type(received_on).__name__ == "date"


def test_a_submission_moves_no_clock_but_the_documented_one(client, open_survey):
    before = clock_values()
    for report in (0, 1, 1):
        assert post(client, open_survey, _body(open_survey, report)).status_code == 201
    added = clock_values() - before
    assert {(table, column) for table, column, _ in added} <= DOCUMENTED_CLOCKS


def test_a_submissions_job_message_names_a_run_and_nothing_else(
    client, open_survey, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """What Redis holds for a submission: the id of the estimate run it brings
    about, never an answer or anything of the respondent."""
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # never reached: send_task is replaced
    sent: list[tuple[str, dict]] = []

    def send_task(task: str, **options: object) -> None:
        sent.append((task, options))

    monkeypatch.setattr(scheduling, "current_app", SimpleNamespace(send_task=send_task))
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, open_survey, _body(open_survey)).status_code == 201
    ((task, options),) = sent
    run = EstimateRun.objects.get(survey=open_survey)
    assert options["args"] == [run.pk]
    assert set(options) == {"args", "countdown", "retry"}


def test_a_submissions_log_lines_are_the_same_whatever_the_answers(
    client,
    open_survey,
    log_lines,  # noqa: F811  (the fixture imported above)
):
    seen = []
    for report in (0, 1):
        log_lines.clear()
        assert post(client, open_survey, _body(open_survey, report)).status_code == 201
        lines = [json.loads(line) for line in log_lines]
        for line in lines:
            line.pop("time")
            line.pop("duration_ms", None)
        seen.append(lines)
    assert seen[0], "the submission was logged"
    assert seen[0] == seen[1]


def test_every_panel_participant_is_served_the_same_page(client, panel_survey):
    pages = [
        client.get(
            f"/s/{panel_survey.slug}/?PROLIFIC_PID={participant}",
            HTTP_USER_AGENT=agent,
        )
        for participant, agent in ((PARTICIPANT, AGENT), ("other-id-77", "Other/1.0"))
    ]
    assert pages[0].content == pages[1].content
    assert PARTICIPANT.encode() not in pages[0].content


def test_the_respondent_page_carries_no_token_and_sets_no_cookie(client, panel_survey):
    """Nothing secret sits beside the page's text, so compressing it gives a
    compression attack (BREACH) nothing to recover."""
    page = client.get(
        f"/s/{panel_survey.slug}/?PROLIFIC_PID={PARTICIPANT}",
        headers={"accept-encoding": "gzip"},
    )
    assert page.status_code == 200
    assert page["Content-Encoding"] == "gzip"
    assert not page.cookies
    assert "csrf" not in gzip.decompress(page.content).decode().lower()


def _body(survey, report: int = 1) -> dict:
    return {"respondent_key": new_key(), "answers": answers_for(survey, report)}
