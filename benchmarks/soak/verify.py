"""The end checks: every respondent in the ledgers stored exactly once with the
reports it sent, and the saved estimates equal to a fresh recount."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

from benchmarks.soak.nodes import Layout

ACKNOWLEDGED = {"stored", "already"}


def ledger_entries(output: Path) -> list[dict[str, Any]]:
    entries = []
    for path in sorted((output / "ledger").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                entries.append(json.loads(line))
    return entries


def ledger_check(
    entries: list[dict[str, Any]], database_url: str, survey_id: int
) -> dict[str, Any]:
    """Each acknowledged key stored once with exactly its reports; none twice;
    nothing stored that no respondent sent (beyond the seeded answers)."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT r.respondent_key, a.question_id, a.report FROM surveys_response r "
            "LEFT JOIN surveys_answer a ON a.response_id = r.id "
            "WHERE r.survey_id = %s",
            [survey_id],
        ).fetchall()
        per_key = Counter(
            key
            for (key,) in conn.execute(
                "SELECT respondent_key FROM surveys_response WHERE survey_id = %s",
                [survey_id],
            )
        )
    stored: dict[str, dict[int, int]] = {}
    for key, question, report in rows:
        stored.setdefault(key, {})[question] = report
    outcomes = Counter(entry["outcome"] for entry in entries)
    sent_keys = Counter(entry["key"] for entry in entries)
    lost, wrong, unfinished_stored = [], [], 0
    for entry in entries:
        key = entry["key"]
        sent = {a["question"]: a["report"] for a in entry["answers"]}
        if entry["outcome"] in ACKNOWLEDGED:
            if key not in stored:
                lost.append(key)
            elif stored[key] != sent:
                wrong.append(key)
        elif entry["outcome"] == "unfinished" and key in stored:
            unfinished_stored += 1
    return {
        "respondents": len(entries),
        "outcomes": dict(outcomes),
        "acknowledged": sum(outcomes[o] for o in ACKNOWLEDGED),
        "lost": len(lost),
        "stored_twice": sum(1 for n in per_key.values() if n > 1),
        "stored_with_other_reports": len(wrong),
        "keys_reused_by_generator": sum(1 for n in sent_keys.values() if n > 1),
        "unfinished_but_stored": unfinished_stored,
        "responses_in_database": sum(per_key.values()),
        "stored_not_in_ledger": len(set(per_key) - set(sent_keys)),
        "examples_lost": lost[:5],
    }


# Run by manage.py shell: saved counts against a fresh count of every answer
# (the daily check's own comparison), the latest saved run's reported counts
# against the answers table, and a fresh run's estimates against the saved.
RECOUNT = """
import json
from django.db.models import Count
from estimation.runs.counting import counts_check
from estimation.runs.models import EstimateRun, OptionEstimate
from estimation.runs.services import estimate_run_now
from surveys.models import Answer, Survey

survey = Survey.objects.get(pk={survey_id})
check = counts_check(survey)
saved = EstimateRun.objects.filter(survey=survey, status="finished").latest("pk")
def overall(run):
    rows = OptionEstimate.objects.filter(
        question_estimate__run=run, question_estimate__group_question=None
    ).values_list("question_estimate__question_id", "option", "reported", "estimate",
                  "ci_lower", "ci_upper")
    return {{(q, o): (r, e, lo, hi) for q, o, r, e, lo, hi in rows}}
raw = {{
    (row["question_id"], row["report"]): row["n"]
    for row in Answer.objects.filter(response__survey=survey)
    .values("question_id", "report").annotate(n=Count("id"))
}}
before = overall(saved)
fresh_run = estimate_run_now(survey=survey)
fresh = overall(fresh_run)
reported_mismatch = [
    str(cell) for cell, value in before.items() if value[0] != raw.get(cell, 0)
]
estimate_mismatch = [
    str(cell) for cell in set(before) | set(fresh)
    if cell not in before or cell not in fresh
    or max(abs(a - b) for a, b in zip(before[cell], fresh[cell])) > 1e-9
]
print(json.dumps({{
    "saved_counts_agree": check.agrees,
    "responses": survey.responses.count(),
    "saved_run": saved.pk,
    "saved_run_n": saved.n,
    "fresh_run_n": fresh_run.n,
    "cells": len(before),
    "runs_by_status": dict(
        EstimateRun.objects.filter(survey=survey).values_list("status")
        .annotate(n=Count("id")).values_list("status", "n")
    ),
    "reported_differs_from_answers": reported_mismatch,
    "estimates_differ_from_fresh_run": estimate_mismatch,
}}))
"""


def recount_check(layout: Layout, survey_id: int) -> dict[str, Any]:
    output = layout.manage(
        "shell", "--verbosity", "0", "-c", RECOUNT.format(survey_id=survey_id)
    )
    result = json.loads(output.strip().splitlines()[-1])
    result["equal"] = (
        result["saved_counts_agree"]
        and result["saved_run_n"] == result["responses"]
        and not result["reported_differs_from_answers"]
        and not result["estimates_differ_from_fresh_run"]
    )
    return result
