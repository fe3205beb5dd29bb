"""A per-address limit for anonymous readers, pages and API sharing one budget.

Anonymous readers are phones in the hall: one polls a page every 2 seconds (30 requests a
minute). A client that asks far more often is a scraper or a page reloaded in a loop, and it
must not take the web processes from the referees. The budget (LUZA_ANON_RATE, "120/min" by
default, empty to switch it off) counts per client address (config.client_ip: behind the
declared proxy, the address the proxy saw) in fixed 10-second windows (120/min: 20 per 10 s),
one Redis INCR a request. Logged-in
users are not limited here (their writes are the tables' work), nor anybody's writes, nor the
login forms (django-axes limits logins). Static files (whitenoise, before this middleware) and
/healthz are not counted.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from rest_framework.throttling import BaseThrottle

from config.client_ip import client_ip

logger = logging.getLogger(__name__)

PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600}
# The login forms have their own limit (django-axes, per address and username): counted here
# too, an attacker's tries would lock the login page of everyone behind his address.
EXEMPT_PATHS = ("/healthz", "/accounts/login/", "/admin/login/")
READS = ("GET", "HEAD", "OPTIONS")
WINDOW_SECONDS = 10


@dataclass(frozen=True)
class Rate:
    requests: int
    seconds: int


def parse_rate(text: str | None) -> Rate | None:
    """ "120/min" -> Rate(120, 60); empty -> None (no limit)."""
    if not text:
        return None
    count, _slash, period = text.strip().partition("/")
    try:
        return Rate(int(count), PERIODS[period.strip().lower()])
    except (ValueError, KeyError):
        raise ValueError(f"LUZA_ANON_RATE: {text!r} is not like 120/min") from None


def _count(key: str, timeout: int) -> int:
    try:
        return int(cache.incr(key))
    except ValueError:  # the window's first request
        if cache.add(key, 1, timeout):
            return 1
        return int(cache.incr(key))


def anonymous_wait(request: Any) -> int | None:
    """Seconds the anonymous client of `request` must wait, or None if it may go on."""
    rate = parse_rate(settings.LUZA_ANON_RATE)
    if rate is None or request.method not in READS:  # anonymous writes are refused anyway
        return None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    # Counted in windows of at most WINDOW_SECONDS, the rate spread evenly over them: 120/min
    # is 20 per 10 s, so that a client cannot spend a minute's budget in a burst of seconds.
    seconds = min(rate.seconds, WINDOW_SECONDS)
    allowed = math.ceil(rate.requests * seconds / rate.seconds)
    now = time.time()
    window = int(now // seconds)
    key = f"anon-rate:{client_ip(request)}:{seconds}:{window}"
    try:
        count = _count(key, seconds + 1)
    except Exception:  # a cache outage must not take the pages down with it
        logger.warning("anonymous rate limit unavailable", exc_info=True)
        return None
    if count <= allowed:
        return None
    return max(1, math.ceil((window + 1) * seconds - now))


def wait_message(seconds: int) -> str:
    return _("Too many requests from your address. Try again in %(seconds)s s.") % {
        "seconds": seconds
    }


class AnonymousReadThrottle(BaseThrottle):
    """DRF's side of the limit (REST_FRAMEWORK DEFAULT_THROTTLE_CLASSES)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait = anonymous_wait(request)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class AnonymousPageThrottleMiddleware:
    """The pages' side of the limit; the API's answer comes from DRF (same budget)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/") and not request.path.startswith(EXEMPT_PATHS):
            wait = anonymous_wait(request)
            if wait is not None:
                response = HttpResponse(
                    wait_message(wait), status=429, content_type="text/plain; charset=utf-8"
                )
                response["Retry-After"] = str(wait)
                return response
        return self.get_response(request)


class TokenExchangeThrottle(BaseThrottle):
    """POST /api/v1/auth/token/ with a password: LUZA_TOKEN_RATE per client address, so that
    nobody guesses passwords through the API faster than through the login page (django-axes
    counts the failures per address and name besides)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        self.wait_seconds: int | None = None
        rate = parse_rate(settings.LUZA_TOKEN_RATE)
        if rate is None or request.method != "POST":
            return True
        window = int(time.time() // rate.seconds)
        key = f"throttle:token:{client_ip(request)}:{window}"
        if _count(key, rate.seconds + 1) <= rate.requests:
            return True
        self.wait_seconds = max(1, math.ceil((window + 1) * rate.seconds - time.time()))
        return False

    def wait(self) -> float | None:
        return self.wait_seconds
