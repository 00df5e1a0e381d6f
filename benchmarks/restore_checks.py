"""What a restored backup must hold, checked on the restored database.

Each check returns a :class:`Check`: its name, whether it passed and what it
found. They read through Django's default connection, which the drill points
at the restored database, and change nothing: the estimates are recomputed
inside a transaction that is rolled back. The saved counts are compared with a
fresh count by the project's own :func:`estimation.runs.counting.counts_check`,
the comparison ``manage.py recount --check`` and the daily check make.


The SQL is built from the models' table names only; every value is bound.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from unittest import mock

from django.db import DatabaseError, connection, transaction

# The tables whose keys, indexes and triggers a restore must bring back.
SCHEMA_SQL = """
SELECT 'constraint', conrelid::regclass::text, conname FROM pg_constraint
WHERE connamespace = 'public'::regnamespace
UNION ALL
SELECT 'index', tablename, indexname FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT 'trigger', tgrelid::regclass::text, tgname FROM pg_trigger
WHERE NOT tgisinternal
"""


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class Ledger:
    """What the load generator knows of the submissions around the dump:
    respondent keys acknowledged (201) before ``pg_dump`` started, which the
    backup must hold, and keys first sent after it finished, which it cannot."""

    acknowledged_before: Sequence[str]
    sent_after: Sequence[str]


def schema_facts() -> list[tuple[str, str, str]]:
    """Every constraint, index and trigger of the database, sorted."""
    with connection.cursor() as cursor:
        cursor.execute(SCHEMA_SQL)
        return sorted(cursor.fetchall())


def audit_digest() -> tuple[int, str]:
    """How many audit events there are and a SHA-256 of all of them, in id order."""
    from surveys.models import AuditEvent

    rows = AuditEvent.objects.order_by("pk").values_list(
        "pk", "at", "actor_id", "actor_name", "survey_id", "survey_title", "action"
    )
    details = AuditEvent.objects.order_by("pk").values_list("detail", flat=True)
    digest = hashlib.sha256()
    count = 0
    for row, detail in zip(rows, details, strict=True):
        digest.update(json.dumps([*map(str, row), detail], sort_keys=True).encode())
        count += 1
    return count, digest.hexdigest()


def _one(sql: str, params: Sequence[Any] = ()) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def _tables() -> dict[str, str]:
    from estimation.runs.models import DayCount
    from surveys.models import Answer, AuditEvent, Question, Response, Survey

    models = {
        "survey": Survey,
        "question": Question,
        "response": Response,
        "answer": Answer,
        "day": DayCount,
        "audit": AuditEvent,
    }
    return {key: model._meta.db_table for key, model in models.items()}


# -- the checks ------------------------------------------------------------------


def check_schema(expected: Sequence[tuple[str, str, str]]) -> Check:
    missing = sorted(set(map(tuple, expected)) - set(schema_facts()))
    return Check(
        "schema",
        not missing,
        f"{len(expected)} constraints, indexes and triggers; "
        + (f"missing {missing[:5]}" if missing else "all restored"),
    )


def check_no_orphans() -> Check:
    """Every response's survey, every answer's response and question exist,
    whatever the constraints say (a restore that failed to add one would not)."""
    t = _tables()
    orphans = {
        "responses without their survey": f"""
            SELECT count(*) FROM {t["response"]} r
            WHERE NOT EXISTS (SELECT 1 FROM {t["survey"]} s WHERE s.id = r.survey_id)
        """,
        "answers without their response": f"""
            SELECT count(*) FROM {t["answer"]} a
            WHERE NOT EXISTS (SELECT 1 FROM {t["response"]} r WHERE r.id = a.response_id)
        """,
        "answers without their question": f"""
            SELECT count(*) FROM {t["answer"]} a
            WHERE NOT EXISTS (SELECT 1 FROM {t["question"]} q WHERE q.id = a.question_id)
        """,
    }  # our tables
    found = {what: _one(sql) for what, sql in orphans.items()}
    return Check(
        "no orphans",
        not any(found.values()),
        ", ".join(f"{n} {what}" for what, n in found.items()),
    )


def check_whole_responses(survey_id: int) -> Check:
    """A submission is one statement: a response with fewer answers than the
    survey's questions (none hidden by display logic here), or answers that
    disagree on its stratum, is half-written."""
    t = _tables()
    questions = _one(
        f"SELECT count(*) FROM {t['question']} WHERE survey_id = %s",
        [survey_id],
    )
    partial = _one(
        f"""
        SELECT count(*) FROM (
            SELECT r.id FROM {t["response"]} r
            LEFT JOIN {t["answer"]} a ON a.response_id = r.id
            WHERE r.survey_id = %s
            GROUP BY r.id
            HAVING count(a.id) <> %s OR count(DISTINCT a.stratum) > 1
        ) AS broken
        """,  # our tables; values bound
        [survey_id, questions],
    )
    responses = _one(
        f"SELECT count(*) FROM {t['response']} WHERE survey_id = %s",
        [survey_id],
    )
    return Check(
        "whole responses",
        partial == 0,
        f"{responses} responses of {questions} answers each; {partial} partial",
    )


def check_counts(survey_id: int) -> Check:
    """The saved table against a fresh count (the project's own comparison),
    and the saved responses per day against the counted responses."""
    from estimation.runs.counting import counts_check
    from surveys.models import Survey

    survey = Survey.objects.get(pk=survey_id)
    check = counts_check(survey)
    t = _tables()
    days_off = _one(
        f"""
        SELECT count(*) FROM (
            SELECT received_on AS day, count(*) AS n FROM {t["response"]}
            WHERE survey_id = %(s)s AND counted GROUP BY received_on
        ) fresh FULL JOIN (
            SELECT day, count AS n FROM {t["day"]} WHERE survey_id = %(s)s
        ) saved USING (day)
        WHERE fresh.n IS DISTINCT FROM saved.n
        """,  # our tables; values bound
        {"s": survey_id},
    )
    waiting = _one(
        f"SELECT count(*) FROM {t['response']} WHERE survey_id = %s AND NOT counted",
        [survey_id],
    )
    return Check(
        "saved counts",
        check.agrees and days_off == 0,
        f"{check.cells} cells, {len(check.differences)} differ from the recount; "
        f"responses {check.responses_saved} saved, {check.responses_fresh} "
        f"counted; {days_off} days differ; {waiting} not yet counted",
    )


def check_estimates(survey_id: int) -> Check:
    """The latest finished run's estimates are those of the saved counts: it
    read every response they hold, and estimating again from them (inside a
    transaction that is rolled back, with no catch-up) gives the same rows."""
    from estimation.runs.counting import saved_days
    from estimation.runs.models import EstimateRun, SurveyCounts
    from estimation.runs.services import estimate_run_execute
    from surveys.models import Survey

    latest = (
        EstimateRun.objects.filter(
            survey_id=survey_id, status=EstimateRun.Status.FINISHED
        )
        .order_by("-finished_at", "-id")
        .first()
    )
    if latest is None:
        return Check("estimates", False, "no finished estimate run")
    saved_n = SurveyCounts.objects.get(survey_id=survey_id).responses
    days = saved_days(Survey.objects.get(pk=survey_id))
    if latest.n != saved_n or latest.responses_per_day != days:
        return Check(
            "estimates",
            False,
            f"run {latest.pk} read {latest.n} responses, counts hold {saved_n}"
            + ("" if latest.responses_per_day == days else "; days differ"),
        )
    with transaction.atomic():
        again = EstimateRun.objects.create(
            survey_id=survey_id,
            trigger=latest.trigger,
            ci_method=latest.ci_method,
            level=latest.level,
        )
        with mock.patch("estimation.runs.services.counts_catch_up", return_value=0):
            estimate_run_execute(run_id=again.pk)
        saved, fresh = _estimate_rows(latest.pk), _estimate_rows(again.pk)
        transaction.set_rollback(True)
    differing = sum(not _same(a, b) for a, b in zip(saved, fresh, strict=False))
    differing += abs(len(saved) - len(fresh))
    return Check(
        "estimates",
        bool(saved) and differing == 0,
        f"run {latest.pk} ({latest.n} responses): {len(saved)} option rows, "
        f"{differing} differ from estimating the saved counts again",
    )


def check_audit_log(expected: tuple[int, str]) -> Check:
    """The events as they were read before the dump, and the trigger that
    keeps them append-only still refusing a change."""
    count, digest = audit_digest()
    t = _tables()
    refused = False
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {t['audit']} SET action = action")
            transaction.set_rollback(True)
    except DatabaseError:
        refused = True
    same = (count, digest) == tuple(expected)
    return Check(
        "audit log",
        same and refused,
        f"{count} events ({expected[0]} before the dump), "
        + ("identical" if same else "different")
        + "; an update "
        + ("refused" if refused else "ALLOWED"),
    )


def check_ledger(survey_id: int, ledger: Ledger) -> Check:
    """Every submission acknowledged before the dump began is in it; none
    first sent after it ended is."""
    t = _tables()
    sql = (
        f"SELECT count(*) FROM {t['response']} "  # our table
        "WHERE survey_id = %s AND respondent_key = ANY(%s)"
    )
    before = _one(sql, [survey_id, list(ledger.acknowledged_before)])
    after = _one(sql, [survey_id, list(ledger.sent_after)])
    expected = len(ledger.acknowledged_before)
    return Check(
        "submissions around the dump",
        before == expected and after == 0,
        f"{before} of {expected} acknowledged before the dump restored; "
        f"{after} of {len(ledger.sent_after)} sent after it",
    )


def run_checks(
    *,
    survey_id: int,
    schema: Sequence[tuple[str, str, str]],
    audit: tuple[int, str],
    ledger: Ledger,
) -> list[Check]:
    return [
        check_schema(schema),
        check_no_orphans(),
        check_whole_responses(survey_id),
        check_counts(survey_id),
        check_estimates(survey_id),
        check_audit_log(audit),
        check_ledger(survey_id, ledger),
    ]


# -- comparing estimates -----------------------------------------------------------


def _estimate_rows(run_id: int) -> list[tuple[Any, ...]]:
    from estimation.runs.models import OptionEstimate

    return list(
        OptionEstimate.objects.filter(question_estimate__run_id=run_id)
        .order_by(
            "question_estimate__question_id",
            "question_estimate__group_question_id",
            "question_estimate__group_option",
            "option",
        )
        .values_list(
            "question_estimate__question_id",
            "question_estimate__group_question_id",
            "question_estimate__group_option",
            "question_estimate__n",
            "option",
            "reported",
            "estimate",
            "unbiased",
            "std_error",
            "ci_lower",
            "ci_upper",
        )
    )


def _same(a: Iterable[Any], b: Iterable[Any]) -> bool:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, float) and isinstance(y, float):
            both_nan = math.isnan(x) and math.isnan(y)
            if not (both_nan or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)):
                return False
        elif x != y:
            return False
    return True
