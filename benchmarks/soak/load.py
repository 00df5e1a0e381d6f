"""The soak's simulated people, run headless through Locust's library API in a
process of their own (Locust patches the standard library for gevent, which
the orchestrator and the tests must not inherit).

Respondents do what a browser on the survey page does (static/js/survey.js):
open the page, fetch the scripts it references, randomize a true answer per
question with the page's own specs, and POST ``respondent_key`` and the
reports. On any error or timeout they send the same key and the same reports
again, as the page's retry button does, until the server acknowledges them
(201 stored, 200 already stored); a refusal (another 4xx) ends the attempt,
as it does on the page. Each simulated person keeps a ledger of its own: one
JSON line per respondent it played, with the key, the reports and the outcome
of every try.

Researchers sign in through the login form, read the results page and
download exports, and sign in again if their session is gone.

    python -m benchmarks.soak.load CONFIG.json

CONFIG names the web nodes, the survey, the researcher's account, the number
of people and the run's length; results go to its ``output`` directory:
``requests.csv`` (every request: start time, name, status, milliseconds,
error) and ``ledger/<person>.jsonl``.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import csv  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
import numpy as np  # noqa: E402
from locust import events, task  # noqa: E402
from locust.contrib.fasthttp import FastHttpUser  # noqa: E402
from locust.env import Environment  # noqa: E402
from locust.exception import StopUser  # noqa: E402

from benchmarks.respondent import (  # noqa: E402
    CONFIG,
    PROXY_HEADERS,
    SurveyPage,
    random_answers,  # noqa: E402
)

SCRIPTS = re.compile(r'(?:src|href)="(/static/[^"]+\.js)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# Back-off between tries of one request, as a person pressing "retry" would.
RETRY_DELAYS = (0.5, 1, 2, 4, 8)
TIMEOUT = 10.0

SETTINGS: dict[str, Any] = {}
STOPPING = gevent.event.Event()
PEOPLE = itertools.count(1)


class Person(FastHttpUser):
    """One simulated person on one web node (the nodes share the load as a
    balancer in front would spread it)."""

    abstract = True
    network_timeout = TIMEOUT
    connection_timeout = TIMEOUT
    # No retries hidden in the client: every try is the person's own.
    max_retries = 0
    host = "http://127.0.0.1"

    def __init__(self, environment: Environment) -> None:
        self.number = next(PEOPLE)
        urls = SETTINGS["base_urls"]
        self.host = urls[self.number % len(urls)]
        super().__init__(environment)
        self.rng = np.random.default_rng(SETTINGS["seed"] + self.number)
        self.netloc = self.host.split("://", 1)[1]

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {**PROXY_HEADERS, **(extra or {})}

    def get(
        self, path: str, name: str, ok: tuple[int, ...] = (200,), **kwargs: Any
    ) -> Any:
        """A GET tried until it succeeds; None once the run is stopping."""
        headers = self.headers(kwargs.pop("headers", None))
        for delay in itertools.chain(RETRY_DELAYS, itertools.repeat(RETRY_DELAYS[-1])):
            with self.client.get(
                path,
                name=name,
                headers=headers,
                allow_redirects=False,
                catch_response=True,
                **kwargs,
            ) as reply:
                if reply.status_code in ok:
                    return reply
                reply.failure(f"status {reply.status_code}")
            if STOPPING.is_set():
                return None
            gevent.sleep(delay)
        return None


class Respondent(Person):
    def wait_time(self) -> float:
        """The pause before the same device brings the next respondent."""
        return float(self.rng.uniform(*SETTINGS["respondent_pause"]))

    def on_start(self) -> None:
        ledger = Path(SETTINGS["output"]) / "ledger" / f"{self.number}.jsonl"
        self.ledger = ledger.open("a", buffering=1)

    def on_stop(self) -> None:
        self.ledger.close()

    @task
    def answer(self) -> None:
        if STOPPING.is_set():
            raise StopUser()
        page = self.get(f"/s/{SETTINGS['slug']}/", "page")
        if page is None:
            raise StopUser()
        config = json.loads(CONFIG.search(page.text)[1])  # type: ignore[index]
        for script in dict.fromkeys(SCRIPTS.findall(page.text)):
            self.get(script, "script")
        gevent.sleep(self.rng.uniform(*SETTINGS["reading_seconds"]))
        answers = random_answers(SurveyPage(self.host, config), self.rng)
        # Distinct across people by construction: their number ends the key.
        key = f"{int(self.rng.integers(0, 2**63)):024x}{self.number:08x}"
        self.submit(config, key, answers)

    def submit(self, config: dict[str, Any], key: str, answers: list[Any]) -> None:
        """POST until acknowledged (or refused), logging every try."""
        body = json.dumps({"respondent_key": key, "answers": answers})
        headers = self.headers(
            {
                "Content-Type": "application/json",
                "Referer": f"https://{self.netloc}/s/{config['slug']}/",
                "Accept-Language": config.get("language", "en"),
            }
        )
        entry: dict[str, Any] = {"key": key, "answers": answers, "tries": []}
        delays = itertools.chain(RETRY_DELAYS, itertools.repeat(RETRY_DELAYS[-1]))
        give_up = None
        try:
            for delay in delays:
                started = time.time()
                with self.client.post(
                    config["submitUrl"],
                    data=body,
                    headers=headers,
                    name="submit",
                    catch_response=True,
                ) as reply:
                    status = int(reply.status_code or 0)
                    failure = getattr(reply, "error", None)
                    error = "" if failure is None else type(failure).__name__
                    entry["tries"].append(
                        {"t": round(started, 3), "status": status, "error": error}
                    )
                    if status in (200, 201):
                        entry["outcome"] = "stored" if status == 201 else "already"
                        return
                    reply.failure(error or f"status {status}")
                if 400 <= status < 500 and status != 429:
                    entry["outcome"] = "refused"
                    return
                # Once the run stops, a person still retrying gets a while
                # to be acknowledged before being counted as unfinished.
                if STOPPING.is_set():
                    give_up = give_up or time.time() + SETTINGS["grace_seconds"]
                    if time.time() > give_up:
                        entry["outcome"] = "unfinished"
                        return
                gevent.sleep(delay)
        finally:
            entry.setdefault("outcome", "unfinished")
            self.ledger.write(json.dumps(entry) + "\n")


class Researcher(Person):
    fixed_count = 0

    def wait_time(self) -> float:
        return float(self.rng.uniform(*SETTINGS["researcher_pause"]))

    def on_start(self) -> None:
        self.cookies = ""
        self.sign_in()

    def sign_in(self) -> None:
        self.client.cookiejar.clear()
        form = self.get("/accounts/login/", "login page")
        if form is None:
            raise StopUser()
        token = CSRF.search(form.text)[1]  # type: ignore[index]
        csrf = self.jar().get("csrftoken", "")
        self.client.post(
            "/accounts/login/",
            data={
                "username": SETTINGS["username"],
                "password": SETTINGS["password"],
                "csrfmiddlewaretoken": token,
            },
            headers=self.headers(
                {
                    "Cookie": f"csrftoken={csrf}",
                    "Referer": f"https://{self.netloc}/accounts/login/",
                }
            ),
            name="sign in",
            allow_redirects=False,
        )
        # The cookies are Secure and this hop is plain HTTP behind the
        # "proxy" (X-Forwarded-Proto): send them by hand.
        self.cookies = "; ".join(f"{k}={v}" for k, v in self.jar().items())
        print("signed in with cookies", sorted(self.jar()), flush=True)

    def jar(self) -> dict[str, str]:
        return {c.name: c.value or "" for c in self.client.cookiejar}

    @task
    def read(self) -> None:
        if STOPPING.is_set():
            raise StopUser()
        for name, path in [("results", SETTINGS["results_path"])] + [
            ("export", path) for path in SETTINGS["export_paths"]
        ]:
            reply = self.get(path, name, (200, 302), headers={"Cookie": self.cookies})
            if reply is None:
                return
            if reply.status_code == 302:
                # The session is gone: say where the page sent us, sign in again.
                print(
                    f"{name} redirected to {reply.headers.get('Location')}", flush=True
                )
                self.sign_in()
                return


def request_log(output: Path) -> Any:
    """Every request, as one CSV row, from Locust's request event."""
    file = (output / "requests.csv").open("w", newline="", buffering=1)
    writer = csv.writer(file)
    writer.writerow(["start", "name", "status", "ms", "error"])

    def on_request(
        name: str,
        response_time: float,
        response: Any = None,
        exception: Any = None,
        start_time: float | None = None,
        **_: Any,
    ) -> None:
        status = getattr(response, "status_code", 0) or 0
        error = "" if exception is None else type(exception).__name__
        started = start_time if start_time is not None else time.time()
        writer.writerow([f"{started:.3f}", name, status, f"{response_time:.1f}", error])

    events.request.add_listener(on_request)
    return file


def main(argv: list[str]) -> int:
    SETTINGS.update(json.loads(Path(argv[0]).read_text()))
    output = Path(SETTINGS["output"])
    (output / "ledger").mkdir(parents=True, exist_ok=True)
    log = request_log(output)
    Researcher.fixed_count = SETTINGS["researchers"]
    env = Environment(user_classes=[Respondent, Researcher], events=events)
    runner = env.create_local_runner()
    people = SETTINGS["respondents"] + SETTINGS["researchers"]
    runner.start(people, spawn_rate=SETTINGS["spawn_rate"])
    gevent.sleep(SETTINGS["seconds"])
    STOPPING.set()
    deadline = time.time() + SETTINGS["grace_seconds"] + 30
    while runner.user_count and time.time() < deadline:
        gevent.sleep(0.5)
    runner.quit()
    log.close()
    (output / "load.done").write_text(json.dumps({"people": people}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
