"""One small rate limiter for the public endpoints and the login.

Fixed windows counted in Django's cache: with ``REDIS_URL`` set that is Redis,
shared by every web process and host; otherwise the process's own memory.
Clients are told apart by a keyed hash of their address, which lives only in
the cache, for one window: no address is stored in the database or logged.
If the cache is unreachable the limiter lets requests through, because losing
a respondent's answers is worse than a short while without throttling.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import math
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.http import HttpRequest
from django.utils.translation import ngettext

from config.cache import RedisCache

logger = logging.getLogger(__name__)

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(
    r"^\s*(?P<count>\d+)\s*/\s*(?P<n>\d*)\s*"
    r"(?P<unit>s|sec|second|m|min|minute|h|hour|d|day)s?\s*$"
)


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int  # seconds until the window ends; 0 when allowed


@functools.lru_cache(maxsize=64)
def parse_rate(text: str) -> Rate:
    """``"60/minute"`` as DRF writes it, or with a multiple: ``"5/15minutes"``.
    Cached: the same few settings are parsed on every throttled request."""
    match = RATE.match(text)
    if match is None:
        raise ValueError(f"not a rate: {text!r} (write e.g. '60/minute')")
    multiple = int(match["n"] or 1)
    return Rate(int(match["count"]), multiple * UNITS[match["unit"][0]])


def client_identity(request: HttpRequest) -> str:
    """The client's address: a proxy's header only when settings trust it."""
    header = settings.CLIENT_IP_HEADER
    if header:
        value = request.headers.get(header, "")
        # A proxy appends the address it saw; the last entry is the one ours
        # wrote, anything before it the client could have made up.
        last = value.split(",")[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR", ""))


def keyed_digest(text: str) -> str:
    """A hash of ``text`` keyed with the secret key: stands for an address or
    a username wherever the value itself must not be kept."""
    return hmac.new(
        settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256
    ).hexdigest()[:32]


def _key(scope: str, identity: str, window: int) -> str:
    return f"rl:{scope}:{keyed_digest(identity)}:{window}"


def _window(rate: Rate, now: float) -> tuple[int, int]:
    """The current window's number and the seconds until it ends."""
    window = int(now // rate.seconds)
    return window, max(1, math.ceil((window + 1) * rate.seconds - now))


def rate_hit(*, scope: str, identity: str, rate: str) -> Decision:
    """Count one event; refuse it if the window already holds ``rate.count``."""
    parsed = parse_rate(rate)
    window, remaining = _window(parsed, time.time())
    key = _key(scope, identity, window)
    try:
        count = _increment(key, parsed.seconds + 1)
    except Exception:  # any cache backend's connection error
        logger.warning("rate limit %s not checked: cache unavailable", scope)
        return Decision(True, 0)
    if count > parsed.count:
        return Decision(False, remaining)
    return Decision(True, 0)


def _increment(key: str, timeout: int) -> int:
    """Add one to the counter; one round trip when the cache is Redis (Django's
    own add-then-incr takes three, and submissions are the hot path)."""
    backend = caches["default"]  # ``cache`` is a proxy: isinstance needs this
    if isinstance(backend, RedisCache):
        return backend.count(key, timeout)
    cache.add(key, 0, timeout=timeout)
    return int(cache.incr(key))


def rate_check(*, scope: str, identity: str, rate: str) -> Decision:
    """Whether the window is already full, without counting an event."""
    parsed = parse_rate(rate)
    window, remaining = _window(parsed, time.time())
    try:
        count = cache.get(_key(scope, identity, window), 0)
    except Exception:
        logger.warning("rate limit %s not checked: cache unavailable", scope)
        return Decision(True, 0)
    return Decision(count < parsed.count, 0 if count < parsed.count else remaining)


def rate_reset(*, scope: str, identity: str, rate: str) -> None:
    """Forget the current window's count, e.g. after a successful login."""
    window, _ = _window(parse_rate(rate), time.time())
    try:
        cache.delete(_key(scope, identity, window))
    except Exception:
        logger.warning("rate limit %s not reset: cache unavailable", scope)


def wait_text(seconds: int) -> str:
    """``retry_after`` in words for a person."""
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {
            "count": seconds
        }
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {
        "count": minutes
    }
