"""Every write of the API and of the panel's forms, fuzzed: the body that succeeds for someone
allowed (the permission matrix's) with its values replaced by extreme dates, numbers, sizes,
Unicode and shapes, sent by someone allowed. Never a 5xx, and no row of another organiser's
tournament (nor any login) changes.

The examples are derived deterministically (a few per endpoint: the run stays short and the
same on every machine); a new write endpoint in the matrix is fuzzed without being listed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match
from tests.security.test_permissions_matrix import (
    EXPECT,
    OK,
    ROLES,
    SPECS,
    world_client,
    worlds,  # noqa: F401 - the module's world, built once (the matrix's fixture)
)
from tests.world import World
from tournaments.models import IssuedLogin, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

EXAMPLES_PER_ENDPOINT = 3
WRITES = ("POST", "PATCH", "PUT")
# Who sends the body: the first of these the matrix lets through.
SENDERS = ("organiser", "superuser", "player", "anonymous")

DATES = [
    "0001-01-01T00:00",
    "0001-01-01",
    "0001-01-01T00:00:00+03:00",
    "9999-12-31T23:59:59-12:00",
    "10000-01-01",
    "-infinity",
    "infinity",
    "2026-02-30",
    "2026-12-05T25:61:00Z",
    "2026-12-05T10:00:00+25:00",
    "1999-12-31T23:59:59Z",
    "2101-01-01",
]
NUMBERS: list[Any] = [2**63, -(2**63) - 1, 10**100, -1, 0, 1e308, "NaN", "Infinity", "1e9999", True]
TEXTS = [
    "",
    " ",
    "\x00",
    "\ud800",  # a lone surrogate: PostgreSQL cannot store it
    "\u202eRTL\u202c",
    "ＯＲＧＢ",
    "e\u0301" * 50,
    "😀" * 40,
    "<img src=x onerror=alert(1)>",
    "x" * 100_000,
    "ё" * 20_000,
]
SHAPES: list[Any] = [None, [], {}, [1] * 500, {"a": {"b": {"c": [None]}}}]
HOSTILE = st.sampled_from(DATES + NUMBERS + TEXTS + SHAPES) | st.text(max_size=40)
DATE_KEYS = ("date", "entry_opens_at", "entry_closes_at", "expires")


def _sender(kind: str) -> str:
    row = EXPECT[kind][0]
    allowed = {role for role, expected in zip(ROLES, row, strict=True) if expected == OK}
    return next(role for role in SENDERS if role in allowed)


def _cases() -> list[Any]:
    cases = []
    for name, spec in SPECS.items():
        for method in spec.calls:
            if method in WRITES:
                cases.append(pytest.param(name, method, id=f"{name}-{method}"))
    return cases


def _others(world: World, sender: Any) -> Any:
    """Rows no write of this tournament may touch: the other organiser's tournament, its
    entries, matches and players, and every login but the sender's own and those issued for
    this tournament (a referee's new password is a write of it)."""
    other = world.other
    issued = IssuedLogin.objects.filter(tournament=world.tournament).values("user")
    return (
        list(Tournament.objects.filter(pk=other.pk).values()),
        list(Registration.objects.filter(tournament=other).order_by("pk").values()),
        list(Match.objects.filter(tournament=other).order_by("pk").values()),
        list(Player.objects.filter(registrations__tournament=other).order_by("pk").values()),
        list(
            get_user_model()
            .objects.exclude(pk__in=issued)
            .exclude(pk=getattr(sender, "pk", None))
            .order_by("pk")
            .values("pk", "username", "password", "is_superuser", "is_staff", "is_active")
        ),
    )


def _as_form(value: Any) -> Any:
    """A form post carries text (or a list of texts); what UTF-8 cannot carry (a lone
    surrogate) arrives as a browser sends it, replaced."""
    if isinstance(value, list):
        return [_as_form(v) for v in value[:50]]
    text = "" if value is None else str(value)
    return text.encode("utf-8", "replace").decode("utf-8")


@pytest.mark.parametrize(("name", "method"), _cases())
@settings(
    max_examples=EXAMPLES_PER_ENDPOINT,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_fuzzed_writes_answer_without_5xx_and_touch_no_other_rows(
    worlds: dict[str, World],  # noqa: F811 - the matrix's fixture, imported above
    name: str,
    method: str,
    data: Any,
) -> None:
    world = worlds["public"]
    spec = SPECS[name]
    call = spec.calls[method]
    good = call.body(world) if callable(call.body) else (call.body or {})
    keys = sorted({*good, *DATE_KEYS})
    changed = data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique=True))
    body = dict(good)
    for key in changed:
        body[key] = data.draw(HOSTILE, label=key)
    url = reverse(name, kwargs=spec.kwargs(world))
    role = _sender(call.kind)
    sender = world.users()[role]
    with world_client(world, role, api_client=spec.api) as client, transaction.atomic():
        before = _others(world, sender)
        if spec.api:
            response = client.generic(
                method, url, data=json.dumps(body), content_type="application/json"
            )
        else:
            response = client.post(url, {k: _as_form(v) for k, v in body.items()})
        after = _others(world, sender)
        transaction.set_rollback(True)
    assert response.status_code < 500, (method, url, body, response.content[:500])
    assert after == before, (method, url, body)
