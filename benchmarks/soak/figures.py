"""Requests per second and latency percentiles before, during and after each
fault, from the load's request log; and what respondents saw go wrong."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

KINDS = ("page", "submit")


def read_requests(output: Path) -> list[tuple[float, str, int, float, str]]:
    with (output / "requests.csv").open() as file:
        return [
            (float(r["start"]), r["name"], int(r["status"]), float(r["ms"]), r["error"])
            for r in csv.DictReader(file)
        ]


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def window(
    requests: list[tuple[float, str, int, float, str]], start: float, end: float
) -> dict[str, Any]:
    """All requests started in [start, end): their rate, and per kind the
    latency percentiles (ms) and the count that failed."""
    inside = [r for r in requests if start <= r[0] < end]
    seconds = max(end - start, 1e-9)
    figures: dict[str, Any] = {
        "seconds": round(end - start, 1),
        "rps": round(len(inside) / seconds, 1),
        "failed_by_name": dict(
            Counter(r[1] for r in inside if r[2] == 0 or r[2] >= 500)
        ),
    }
    for kind in KINDS:
        rows = [r for r in inside if r[1] == kind]
        ordered = sorted(r[3] for r in rows)
        figures[kind] = {
            "n": len(rows),
            "p50": round(percentile(ordered, 0.50)),
            "p95": round(percentile(ordered, 0.95)),
            "p99": round(percentile(ordered, 0.99)),
            "failed": sum(1 for r in rows if r[2] not in (200, 201)),
        }
    return figures


def fault_windows(
    requests: list[tuple[float, str, int, float, str]],
    faults: list[dict[str, Any]],
    span: float,
) -> list[dict[str, Any]]:
    """Per fault: ``span`` seconds before it, the fault itself (at least
    ``span`` long, for the instant ones), and ``span`` seconds after."""
    rows = []
    for fault in faults:
        during_end = max(fault["end"], fault["start"] + span)
        rows.append(
            {
                "fault": fault["name"],
                "before": window(requests, fault["start"] - span, fault["start"]),
                "during": window(requests, fault["start"], during_end),
                "after": window(requests, during_end, during_end + span),
            }
        )
    return rows


def respondent_errors(
    entries: list[dict[str, Any]], faults: list[dict[str, Any]], span: float
) -> dict[str, Any]:
    """Failed submission tries by what failed and by fault, and how many of
    the respondents who saw one were then acknowledged on a retry."""
    seen = [
        e for e in entries if any(t["status"] not in (200, 201) for t in e["tries"])
    ]
    kinds: Counter[str] = Counter()
    by_fault: Counter[str] = Counter()
    for entry in seen:
        for attempt in entry["tries"]:
            if attempt["status"] in (200, 201):
                continue
            kinds[attempt["error"] or str(attempt["status"])] += 1
            by_fault[fault_at(attempt["t"], faults, span)] += 1
    return {
        "respondents_who_saw_an_error": len(seen),
        "of_them_acknowledged_after_retry": sum(
            1 for e in seen if e["outcome"] in ("stored", "already")
        ),
        "acknowledged_as_already_stored": sum(
            1 for e in seen if e["outcome"] == "already"
        ),
        "failed_tries_by_error": dict(kinds),
        "failed_tries_by_fault": dict(by_fault),
        "most_tries": max((len(e["tries"]) for e in entries), default=0),
    }


def fault_at(moment: float, faults: list[dict[str, Any]], span: float) -> str:
    """The fault under way (or just over) at ``moment``."""
    for fault in reversed(faults):
        # A try that started a little before the fault can meet it.
        if fault["start"] - 10 <= moment <= max(fault["end"], fault["start"]) + span:
            return str(fault["name"])
    return "no fault"


def table(rows: list[dict[str, Any]]) -> str:
    """The fault windows as a Markdown table (docs/reliability.md)."""
    lines = [
        "| fault | phase | req/s | page p50/p95/p99 ms | submit p50/p95/p99 ms "
        "| page failed | submit failed |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        for phase in ("before", "during", "after"):
            w = row[phase]
            p, s = w["page"], w["submit"]
            lines.append(
                f"| {row['fault'] if phase == 'before' else ''} | {phase} "
                f"({w['seconds']:.0f} s) | {w['rps']} "
                f"| {p['p50']}/{p['p95']}/{p['p99']} "
                f"| {s['p50']}/{s['p95']}/{s['p99']} "
                f"| {p['failed']}/{p['n']} | {s['failed']}/{s['n']} |"
            )
    return "\n".join(lines)
