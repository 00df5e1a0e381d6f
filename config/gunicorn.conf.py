"""gunicorn's settings for the production layout (docker/serve.sh).

No access log: the request-logging middleware writes one JSON line per
request without the client's address or user agent, which gunicorn's access
log format would carry. gunicorn's own messages use the same JSON lines.
"""

import os
import time

from gunicorn.glogging import Logger


class NoAccessLog(Logger):
    """gunicorn's logger without its access log. With ``logconfig_dict`` set,
    gunicorn would build every request's access-log fields only for the
    handler-less logger below to drop them."""

    def access(self, resp, req, environ, request_time) -> None:  # noqa: ANN001
        return None


bind = os.environ.get("BIND", "127.0.0.1:8000")
# About two workers per core plus one: requests are short and database-bound
# (docs/deploy.md has the measured figures).
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1) + 1))
# Threads let a worker take another request while one waits on PostgreSQL's
# commit.
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# gthread, not sync, even with one thread: sync workers close every
# connection, so a phone pays a new connection (a round trip, two with TLS)
# for the page's scripts and again for its submission. gthread keeps an idle
# connection in its poller, costing a file descriptor and no thread, up to
# worker_connections (1000) per worker.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
# Longer than a load balancer's usual idle timeout (60 s), so that the
# balancer closes an idle connection first and never sends a request on one
# gunicorn is closing; and long enough to span reading a short page.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
# The proxy in front terminates TLS; trust its X-Forwarded-Proto only from
# the addresses listed (gunicorn's own default is 127.0.0.1).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = None
logger_class = NoAccessLog


def post_worker_init(worker) -> None:  # noqa: ANN001
    """Before the worker accepts a connection: import the views, fill the
    URL resolver, read the translations and compile the project's templates,
    then keep all of it out of the garbage collector's sight
    (config/warmup.py), so that no visitor's first request pays for it. The
    time it takes is the worker's start; it is logged."""
    from config.warmup import worker_ready

    started = time.perf_counter()
    spent = worker_ready()
    worker.log.info(
        "worker ready in %.2f s (%s)",
        time.perf_counter() - started,
        ", ".join(f"{step} {value:g}" for step, value in spent.items()),
    )


# No control socket: its default path is shared by every gunicorn of the user.
control_socket_disable = True
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logging.JsonFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "json"},
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": loglevel.upper()},
        "gunicorn.access": {"handlers": [], "propagate": False},
    },
}
