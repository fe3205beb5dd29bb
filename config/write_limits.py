"""Budgets of the anonymous writes: sign-up, the claim (sign-up with a slip's code) and the
password reset, each counted per client address (config.client_ip) and per target (the login
name asked for, the code tried, the e-mail address), with django-ratelimit's counters in the
shared cache. Reads are never counted here (a hall of phones behind one address reads under
config.throttle's rules alone), nor logins (django-axes).

LUZA_WRITE_RATES names the budgets: `{action: (per address, per target)}`, django-ratelimit's
rates ("20/h", "1/15m"); an action missing, or None, is not limited. A cache outage lets the
write through (RATELIMIT_FAIL_OPEN), like the readers' limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from config.client_ip import client_ip


def _key(value: str) -> Any:
    return lambda group, request: value


@dataclass(frozen=True)
class Spent:
    wait: int  # seconds until every spent budget has room again
    scopes: frozenset[str]  # "address", "target"


def write_spend(request: HttpRequest, *, action: str, target: str = "") -> Spent | None:
    """Counts this write against the action's budgets; what is spent, else None."""
    rates = settings.LUZA_WRITE_RATES.get(action)
    if not rates:
        return None
    per_address, per_target = rates
    waits: list[int] = []
    scopes: set[str] = set()
    for scope, rate, value in (
        ("address", per_address, client_ip(request)),
        ("target", per_target, target),
    ):
        if not rate or not value:
            continue
        usage = get_usage(
            request,
            group=f"luza.write.{action}.{scope}",
            key=_key(value),
            rate=rate,
            method=["POST"],
            increment=True,
        )
        if usage is not None and usage["should_limit"]:
            waits.append(max(1, int(usage["time_left"])))
            scopes.add(scope)
    return Spent(wait=max(waits), scopes=frozenset(scopes)) if waits else None


def wait_text(seconds: int) -> str:
    minutes = max(1, (seconds + 59) // 60)
    return _("Too many tries from your address or for this name. Try again in %(minutes)s min.") % {
        "minutes": minutes
    }


def limited_response(request: HttpRequest, seconds: int) -> HttpResponse:
    """The page again would invite another try: a short 429 page with the wait."""
    response = render(
        request,
        "registration/write_limited.html",
        {"message": wait_text(seconds)},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response
