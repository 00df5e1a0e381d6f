"""Surveys of a million responses in seconds: the benchmark surveys' ten
questions, and a loader that COPYs (binary) simulated reports straight into
``surveys_response`` and ``surveys_answer``, rebuilds their keys and indexes and
runs VACUUM ANALYZE. Used by the estimate-run and export benchmarks."""

from __future__ import annotations

import struct
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

import numpy as np

CHUNK = 100_000  # responses generated and copied at a time

SEED = 20261122  # the loader's reports, and the timing rounds' order


# (text, kind, options or None, design, true answer shares)
QUESTIONS: tuple[
    tuple[str, str, list[str] | None, dict[str, Any], list[float]], ...
] = (
    (
        "Used a banned substance?",
        "yes_no",
        None,
        {"name": "warner", "p": 0.75},
        [0.8, 0.2],
    ),
    (
        "Cheated on a test?",
        "yes_no",
        None,
        {"name": "forced_response", "p_truth": 0.75, "p_forced": [0.125, 0.125]},
        [0.7, 0.3],
    ),
    (
        "Evaded taxes?",
        "yes_no",
        None,
        {"name": "unrelated_question", "p": 0.7, "q": 0.3},
        [0.9, 0.1],
    ),
    (
        "Drinks per week?",
        "multiple_choice",
        ["0", "1-7", "8+"],
        {"name": "krr", "k": 3, "epsilon": 1.5},
        [0.4, 0.45, 0.15],
    ),
    (
        "Hours online per day?",
        "multiple_choice",
        ["<1", "1-3", "3-6", "6+"],
        {"name": "krr", "k": 4, "epsilon": 2.0},
        [0.1, 0.4, 0.35, 0.15],
    ),
    (
        "Times late this month?",
        "multiple_choice",
        ["0", "1", "2", "3", "4+"],
        {"name": "krr", "k": 5, "epsilon": 1.0},
        [0.5, 0.2, 0.15, 0.1, 0.05],
    ),
    (
        "Political leaning?",
        "multiple_choice",
        ["far left", "left", "centre", "right", "far right"],
        {"name": "krr", "k": 5, "epsilon": 2.0},
        [0.05, 0.3, 0.35, 0.25, 0.05],
    ),
    (
        "Sick days taken while well?",
        "multiple_choice",
        ["0", "1-2", "3-5", "6+"],
        {"name": "forced_response", "p_truth": 0.6, "p_forced": [0.1, 0.1, 0.1, 0.1]},
        [0.6, 0.25, 0.1, 0.05],
    ),
    (
        "Age group?",
        "direct",
        ["18-29", "30-44", "45-64", "65+"],
        {"name": "direct", "k": 4},
        [0.2, 0.3, 0.35, 0.15],
    ),
    (
        "Region?",
        "direct",
        ["north", "south", "east", "west", "abroad"],
        {"name": "direct", "k": 5},
        [0.25, 0.25, 0.2, 0.2, 0.1],
    ),
)


# Binary COPY rows: a field count, then (length, value) per field, big-endian.
ANSWER_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("id_len", ">i4"),
        ("id", ">i8"),
        ("response_len", ">i4"),
        ("response_id", ">i8"),
        ("question_len", ">i4"),
        ("question_id", ">i8"),
        ("report_len", ">i4"),
        ("report", ">i4"),
        ("spec_len", ">i4"),
        ("spec_version", "S16"),
        ("stratum_len", ">i4"),
        ("stratum", ">i4"),
    ]
)

RESPONSE_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("id_len", ">i4"),
        ("id", ">i8"),
        ("survey_len", ">i4"),
        ("survey_id", ">i8"),
        ("key_len", ">i4"),
        ("respondent_key", "S32"),
        ("date_len", ">i4"),
        ("received_on", ">i4"),
    ]
)

ANSWER_COLUMNS = {
    "id": "bigint",
    "response_id": "bigint",
    "question_id": "bigint",
    "report": "integer",
    "spec_version": "character varying",
    "stratum": "integer",
    # Not copied: the typed value of a number or free-text question, null for
    # the loader's questions, as for any other kind's answer.
    "number": "double precision",
    "text": "text",
}

RESPONSE_COLUMNS = {
    "id": "bigint",
    "survey_id": "bigint",
    "respondent_key": "character varying",
    "received_on": "date",
    # Not copied: its database default (false) marks every loaded response as
    # not yet in the saved counts, as a submission does.
    "counted": "boolean",
}

COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)

COPY_TRAILER = struct.pack(">h", -1)

PG_EPOCH = date(2000, 1, 1)

FIRST_DAY = (date(2026, 9, 1) - PG_EPOCH).days

HEX = np.frombuffer(b"0123456789abcdef", dtype="S1")


# The ten questions' epsilons add up to 13.7, above the site's default limit
# of 10 per survey: a privacy policy, not something these benchmarks measure.
SURVEY_EPSILON_LIMIT = 20.0


def create_survey(owner: Any, n: int) -> Any:
    from django.test import override_settings

    from surveys.builder.questions import question_create
    from surveys.builder.services import survey_create, survey_publish

    survey = survey_create(owner=owner, title=f"Benchmark n={n}", planned_responses=n)
    for text, kind, options, design, _ in QUESTIONS:
        question_create(
            survey=survey, text=text, kind=kind, design=design, options=options
        )
    with override_settings(MAX_SURVEY_EPSILON=SURVEY_EPSILON_LIMIT):
        return survey_publish(survey=survey)


def _check_columns(cur: Any, table: str, expected: dict[str, str]) -> None:
    cur.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = %s",
        [table],
    )
    actual = dict(cur.fetchall())
    if actual != expected:
        raise RuntimeError(f"{table} is {actual}, the loader expects {expected}")


def _keys_and_indexes(cur: Any) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Constraints (primary, unique, foreign) and plain indexes of the two tables."""
    tables = ("surveys_answer", "surveys_response")
    cur.execute(
        """
        SELECT conrelid::regclass::text, conname, contype,
               pg_get_constraintdef(oid)
        FROM pg_constraint
        WHERE contype IN ('p', 'u', 'f')
          AND (conrelid = ANY(%(t)s::regclass[]) OR confrelid = ANY(%(t)s::regclass[]))
        """,
        {"t": list(tables)},
    )
    constraints = cur.fetchall()
    cur.execute(
        """
        SELECT pg_get_indexdef(i.indexrelid)
        FROM pg_index i
        WHERE i.indrelid = ANY(%(t)s::regclass[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
        """,
        {"t": list(tables)},
    )
    return constraints, [row[0] for row in cur.fetchall()]


def _answers_block(
    rng: np.random.Generator,
    designs: Sequence[Any],
    questions: Sequence[Any],
    first_response: int,
    first_answer: int,
    m: int,
) -> bytes:
    from estimation.simulate import simulate_reports

    q = len(questions)
    rows = np.zeros((m, q), dtype=ANSWER_ROW)
    rows["fields"], rows["id_len"], rows["response_len"] = 6, 8, 8
    rows["question_len"], rows["report_len"], rows["spec_len"] = 8, 4, 16
    rows["stratum_len"] = 4
    rows["id"] = (first_answer + np.arange(m * q)).reshape(m, q)
    rows["response_id"] = (first_response + np.arange(m))[:, None]
    for j, (question, design) in enumerate(zip(questions, designs, strict=True)):
        shares = QUESTIONS[j][4]
        truths = rng.choice(design.k, size=m, p=shares)
        rows["question_id"][:, j] = question.pk
        rows["report"][:, j] = simulate_reports(design, truths, rng)
        rows["spec_version"][:, j] = question.spec_version.encode()
    # Each answer carries its response's direct answers, as the app stores them
    # (surveys/respond/strata.py: mixed radix over the direct questions in order).
    stratum, scale = np.zeros(m, dtype=np.int64), 1
    for j, question in enumerate(questions):
        if question.in_strata:
            stratum += rows["report"][:, j].astype(np.int64) * scale
            scale *= len(question.options)
    rows["stratum"] = stratum[:, None]
    return rows.tobytes()


def _responses_block(
    rng: np.random.Generator, survey_id: int, first_response: int, m: int
) -> bytes:
    rows = np.zeros(m, dtype=RESPONSE_ROW)
    rows["fields"], rows["id_len"], rows["survey_len"] = 4, 8, 8
    rows["key_len"], rows["date_len"] = 32, 4
    rows["id"] = first_response + np.arange(m)
    rows["survey_id"] = survey_id
    digits = HEX[rng.integers(0, 16, size=(m, 32))]
    rows["respondent_key"] = np.ascontiguousarray(digits).view("S32").ravel()
    rows["received_on"] = FIRST_DAY + rng.integers(0, 60, size=m)
    return rows.tobytes()


def load(database_url: str, surveys: Sequence[tuple[Any, int]]) -> dict[str, Any]:
    """COPY every survey's responses and answers, rebuild keys, VACUUM ANALYZE."""
    import psycopg

    # Read the questions before the loader's DDL locks their table.
    plans = [(survey, n, list(survey.questions.all())) for survey, n in surveys]
    timings: dict[str, float] = {}
    started = time.perf_counter()
    with psycopg.connect(database_url) as conn:
        cur = conn.cursor()
        _check_columns(cur, "surveys_answer", ANSWER_COLUMNS)
        _check_columns(cur, "surveys_response", RESPONSE_COLUMNS)
        constraints, indexes = _keys_and_indexes(cur)
        foreign = [c for c in constraints if c[2] == "f"]
        unique = [c for c in constraints if c[2] != "f"]
        for table, name, _, _ in foreign + unique:
            cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for definition in indexes:
            name = definition.split(" INDEX ", 1)[1].split(" ON ", 1)[0]
            cur.execute(f"DROP INDEX {name}")
        next_response, next_answer = 1, 1
        for index, (survey, n, questions) in enumerate(plans):
            designs = [q.get_design() for q in questions]
            with cur.copy(
                "COPY surveys_response (id, survey_id, respondent_key, received_on)"
                " FROM STDIN (FORMAT BINARY)"
            ) as responses:
                responses.write(COPY_HEADER)
                for start in range(0, n, CHUNK):
                    m = min(CHUNK, n - start)
                    rng = np.random.default_rng([SEED, index, start, 1])
                    responses.write(
                        _responses_block(rng, survey.pk, next_response + start, m)
                    )
                responses.write(COPY_TRAILER)
            with cur.copy(
                "COPY surveys_answer (id, response_id, question_id, report, "
                "spec_version, stratum) FROM STDIN (FORMAT BINARY)"
            ) as answers:
                answers.write(COPY_HEADER)
                for start in range(0, n, CHUNK):
                    m = min(CHUNK, n - start)
                    rng = np.random.default_rng([SEED, index, start, 2])
                    answers.write(
                        _answers_block(
                            rng,
                            designs,
                            questions,
                            next_response + start,
                            next_answer + start * len(questions),
                            m,
                        )
                    )
                answers.write(COPY_TRAILER)
            next_response += n
            next_answer += n * len(questions)
        conn.commit()
        timings["copy_s"] = time.perf_counter() - started
        mark = time.perf_counter()
        cur.execute("SET maintenance_work_mem = '512MB'")
        for table, name, _, definition in unique:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for definition in indexes:
            cur.execute(definition)
        for table, name, _, definition in foreign:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        for table in ("surveys_response", "surveys_answer"):
            cur.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        conn.commit()
        timings["keys_and_indexes_s"] = time.perf_counter() - mark
        mark = time.perf_counter()
        conn.autocommit = True
        cur.execute("VACUUM (ANALYZE) surveys_response, surveys_answer")
        # Every table: autovacuum may never analyze a small one like
        # surveys_question, and without statistics the planner guesses badly.
        cur.execute("ANALYZE")
        timings["vacuum_analyze_s"] = time.perf_counter() - mark
        cur.execute(
            "SELECT relname, pg_total_relation_size(oid), pg_relation_size(oid) "
            "FROM pg_class WHERE relname IN ('surveys_answer', 'surveys_response')"
        )
        sizes = {
            name: {"total_mb": total / 2**20, "heap_mb": heap / 2**20}
            for name, total, heap in cur.fetchall()
        }
    timings["total_s"] = time.perf_counter() - started
    return {
        "timings": timings,
        "sizes": sizes,
        "keys_rebuilt": [c[1] for c in constraints],
        "indexes_rebuilt": indexes,
    }
