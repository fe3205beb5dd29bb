"""What anonymous readers may take: a share of each web process, and a scraper's rate.

The audience of a tournament is in the hall: every phone on the club's Wi-Fi (and many on one
mobile carrier) reaches Luza from one public address, so no per-address budget that a hall can
reach is allowed here (it refused a hall of 60 phones). Two things protect the scorers instead:

- **a concurrency limit** (AnonymousConcurrencyMiddleware): at most LUZA_ANON_CONCURRENCY
  anonymous requests run at once in a web process (its threads less one by default); the others
  wait their turn (a queue, not a refusal; past LUZA_ANON_WAIT_SECONDS a 503 with Retry-After),
  so a logged-in referee's or organiser's request always finds a thread. In production nginx
  also sends logged-in traffic (a session cookie or a token) to web instances of its own
  (docs/deployment.md), which the audience cannot reach;
- **a scraper's rate** (LUZA_SCRAPER_RATE, "12000/min" by default, empty to switch it off): a
  per-address budget far above any hall (60 phones polling every 2 s are 1,800 a minute),
  counted per client address (config.client_ip) in fixed 10-second windows, one Redis INCR a
  request; only a client hammering the site meets it.

Public pages cost little to serve anyway (ETags and 304s, fragments cached once for everyone,
and the live pages are pushed, not polled: tournaments.web.stream). Logged-in users are not
limited here, nor anybody's writes, nor the login forms (django-axes limits logins). Static
files (whitenoise, before this middleware) and /healthz are not counted.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
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
        raise ValueError(f"LUZA_SCRAPER_RATE: {text!r} is not like 12000/min") from None


def _count(key: str, timeout: int) -> int:
    try:
        return int(cache.incr(key))
    except ValueError:  # the window's first request
        if cache.add(key, 1, timeout):
            return 1
        return int(cache.incr(key))


def anonymous_wait(request: Any) -> int | None:
    """Seconds the anonymous client of `request` must wait, or None if it may go on."""
    rate = parse_rate(settings.LUZA_SCRAPER_RATE)
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


def _anonymous_read(request: HttpRequest) -> bool:
    if request.method not in READS or request.path.startswith(EXEMPT_PATHS):
        return False
    if "HTTP_AUTHORIZATION" in request.META:  # an API token: DRF checks it, a bad one is a 401
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def busy_message(seconds: int) -> str:
    return _("The site is busy. Try again in %(seconds)s s.") % {"seconds": seconds}


class AnonymousConcurrencyMiddleware:
    """At most LUZA_ANON_CONCURRENCY anonymous reads run at once in this process; the others
    wait for a turn, so that the audience never holds every thread a scorer needs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.turns = threading.BoundedSemaphore(max(1, settings.LUZA_ANON_CONCURRENCY))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _anonymous_read(request):
            return self.get_response(request)
        if not self.turns.acquire(timeout=settings.LUZA_ANON_WAIT_SECONDS):
            logger.warning(
                "anonymous reads waited %s s for a turn", settings.LUZA_ANON_WAIT_SECONDS
            )
            wait = 2
            if request.path.startswith("/api/"):
                response: HttpResponse = JsonResponse(
                    {"code": "busy", "message": busy_message(wait), "params": {"wait": wait}},
                    status=503,
                )
            else:
                response = HttpResponse(
                    busy_message(wait), status=503, content_type="text/plain; charset=utf-8"
                )
            response["Retry-After"] = str(wait)
            return response
        try:
            return self.get_response(request)
        finally:
            self.turns.release()


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
