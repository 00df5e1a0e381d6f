"""Two web processes and two Celery workers on one database and one Redis
(docker/serve.sh cluster, `make cluster`): submissions through both web
processes at once are each stored once, and runs requested at once for one
survey, which both workers take up, never overlap."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from benchmarks.layout import ProductionLayout
from benchmarks.respondent import (
    PROXY_HEADERS,
    open_survey_page,
    request,
    submission,
    submit,
)
from estimation.runs import counting
from estimation.runs.models import EstimateRun
from surveys.accounts.tokens import api_token_replace
from surveys.builder.demo import demo_seed
from surveys.models import Response
from tests.deploy.conftest import running_layout
from tests.estimation.runs.conftest import (  # noqa: F401  (fixtures)
    postgres_only,
    redis_server,
)

pytestmark = pytest.mark.usefixtures("transactional_db")

PER_THREAD = 15
THREADS = 4
RUNS = 6


@pytest.fixture(scope="module")
def cluster(
    postgres_only,  # noqa: F811
    redis_server,  # noqa: F811
    django_db_setup,
    runtime_python,
    tmp_path_factory,
) -> Iterator[ProductionLayout]:
    yield from running_layout(
        redis_server.url,
        runtime_python,
        tmp_path_factory.mktemp("cluster"),
        timeout=180,
        mode="cluster",
        web=2,
        WORKERS="2",
        # Every request comes from this one address: the limit shared through
        # Redis by both web processes would otherwise refuse most of them.
        THROTTLE_SUBMISSIONS="100000/minute",
    )


def request_run(base_url: str, survey_id: int, token: str, problems: list) -> None:
    status, _, body = request(
        base_url,
        "POST",
        f"/api/v1/surveys/{survey_id}/runs/",
        body=json.dumps({"ci_method": "wilson"}).encode(),
        headers={
            **PROXY_HEADERS,
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
        },
    )
    if status != 202:
        problems.append(f"run request: {status} {body[:200]!r}")


def test_submissions_through_both_web_processes_are_each_stored_once(cluster):
    survey, _ = demo_seed(password="demo-password-42", respondents=0)
    pages = [open_survey_page(url) for url in cluster.base_urls]
    sent: list[str] = []
    problems: list[str] = []
    lock = threading.Lock()

    def respondent_stream(index: int) -> None:
        rng = np.random.default_rng(100 + index)
        for i in range(PER_THREAD):
            page = pages[(index + i) % len(pages)]
            key, body = submission(page, rng)
            status, reply = submit(page, body)
            # The same respondent again, through the other web process.
            again, _ = submit(pages[(index + i + 1) % len(pages)], body)
            with lock:
                sent.append(key)
                if status != 201 or again != 200:
                    problems.append(f"{status}/{again}: {reply[:200]}")

    threads = [
        threading.Thread(target=respondent_stream, args=(i,)) for i in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    stored = list(
        Response.objects.filter(survey=survey).values_list("respondent_key", flat=True)
    )
    assert sorted(stored) == sorted(sent)
    assert len(set(stored)) == THREADS * PER_THREAD

    # Both web processes answer for the whole: the same health, one database.
    for url in cluster.base_urls:
        assert cluster.health(url)["database"] == "ok"

    # Runs requested at once through both web processes go to both workers,
    # and run one at a time.
    token = api_token_replace(user=survey.owner).key
    requests = [
        threading.Thread(target=request_run, args=(url, survey.pk, token, problems))
        for url in cluster.base_urls * (RUNS // 2)
    ]
    for thread in requests:
        thread.start()
    for thread in requests:
        thread.join()
    assert problems == []
    runs = EstimateRun.objects.filter(survey=survey)
    deadline = time.monotonic() + 120
    while (
        runs.exclude(status=EstimateRun.Status.FINISHED).exists() or runs.count() < RUNS
    ):
        assert time.monotonic() < deadline, cluster.log()[-6000:]
        time.sleep(0.5)
    spans = sorted(runs.values_list("started_at", "finished_at"))
    for (_, finished), (started, _) in zip(spans, spans[1:], strict=False):
        assert started >= finished, "two runs of one survey overlapped"
    requested = runs.filter(trigger=EstimateRun.Trigger.RESEARCHER)
    assert requested.count() == RUNS
    assert set(requested.values_list("n", flat=True)) == {THREADS * PER_THREAD}
    assert counting.counts_check(survey).agrees
    log = cluster.log()
    for worker in ("worker1@", "worker2@"):
        assert f"{worker}" in log, f"{worker} did not start:\n{log[-3000:]}"
