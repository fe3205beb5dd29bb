"""A property: extreme numbers and lists thrown at every write endpoint (and the numeric query
parameters of reads) are refused with a 4xx in the one error shape; never a 5xx, and nothing
stored. The values are beyond what any column or rule of the product holds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match
from tests.api.conftest import dump_tables, token_client
from tests.world import World

pytestmark = pytest.mark.django_db

HUGE_INTS = st.one_of(
    st.integers(min_value=2**31, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-(2**31)),
)
HUGE_DECIMALS = st.one_of(
    HUGE_INTS.map(str),
    st.sampled_from(["1e400", "-1e400", "100000000000", "99999999999.999", "-0.01", "1E+30"]),
    st.integers(min_value=9, max_value=400).map(lambda n: "9" * n + ".99"),
)
BEYOND_BIGINT = st.one_of(
    st.integers(min_value=2**63, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-1),
)
LONG_LISTS = st.integers(min_value=5001, max_value=6000).map(lambda n: ["0.02"] * n)


@dataclass
class Write:
    name: str
    method: str
    url: Callable[[World], str]
    # field -> what to put there; the value is a JSON leaf or a list
    fields: dict[str, st.SearchStrategy[Any]]
    base: Callable[[World], dict[str, Any]] = lambda w: {}


def _t(w: World) -> str:
    return f"/api/v1/tournaments/{w.tournament.pk}/"


def _open(w: World) -> str:
    return f"/api/v1/tournaments/{w.extra['open'].pk}/"


def _event_base(w: World) -> dict[str, Any]:
    match = Match.objects.get(pk=w.running.pk)
    event = {"type": "shot", "player": match.state["turn"], "pocketed": 0}
    return {"event": event, "expected_version": match.version}


SETTINGS_FIELDS = {
    "entry_fee": HUGE_DECIMALS,
    "added_money": HUGE_DECIMALS,
    "prize_unit": HUGE_DECIMALS,
    "pool_percent": HUGE_DECIMALS,
    "max_players": HUGE_INTS,
    "elo_k": HUGE_INTS,
    "time_limit_minutes": HUGE_INTS,
    "playoff_size": HUGE_INTS,
    "group_size": HUGE_INTS,
    "group_advance": HUGE_INTS,
    "place_shares": st.one_of(LONG_LISTS, HUGE_DECIMALS.map(lambda v: [v])),
    "fee_bands": st.one_of(
        HUGE_DECIMALS.map(lambda v: [{"fee": v}]),
        HUGE_INTS.map(lambda v: [{"min_rating": v, "fee": "100"}]),
        st.integers(min_value=51, max_value=200).map(lambda n: [{"fee": "1"}] * n),
    ),
    "ruleset": HUGE_INTS.map(lambda v: {"balls_to_win": v}),
    "stage_rules": HUGE_INTS.map(lambda v: {"upper": {"time_limit_minutes": v}}),
}

WRITES = [
    Write(
        "player-create",
        "post",
        lambda w: "/api/v1/players/",
        {"rating": HUGE_INTS, "user": BEYOND_BIGINT},
        lambda w: {"name": "Икс"},
    ),
    Write(
        "player-update",
        "patch",
        lambda w: f"/api/v1/players/{w.registrations[0].player_id}/",
        {"rating": HUGE_INTS},
    ),
    Write(
        "tournament-create",
        "post",
        lambda w: "/api/v1/tournaments/",
        SETTINGS_FIELDS,
        lambda w: {"name": "Кубок", "date": "2026-12-01"},
    ),
    Write("tournament-update", "patch", _open, SETTINGS_FIELDS),
    Write(
        "register-existing",
        "post",
        lambda w: f"{_open(w)}registrations/",
        {"player_id": st.one_of(HUGE_INTS, BEYOND_BIGINT)},
    ),
    Write(
        "register-new",
        "post",
        lambda w: f"{_open(w)}registrations/",
        {"player": HUGE_INTS.map(lambda v: {"name": "Икс", "rating": v})},
    ),
    Write(
        "draw-random",
        "post",
        lambda w: f"{_open(w)}draw/",
        {"random_seed": BEYOND_BIGINT},
        lambda w: {"method": "random"},
    ),
    Write(
        "draw-manual",
        "post",
        lambda w: f"{_open(w)}draw/",
        {
            "order": st.one_of(
                BEYOND_BIGINT.map(lambda v: [v]),
                st.integers(min_value=1100, max_value=3000).map(lambda n: list(range(1, n))),
            )
        },
        lambda w: {"method": "manual"},
    ),
    Write(
        "handicap",
        "post",
        lambda w: f"{_t(w)}matches/{w.ready.pk}/handicap/",
        {"head_start": HUGE_INTS.map(lambda v: {"a": v, "b": 0}), "balls_to_win": HUGE_INTS},
        lambda w: {"head_start": {"a": 0, "b": 2}},
    ),
    Write(
        "correct",
        "post",
        lambda w: f"{_t(w)}matches/{w.finished.pk}/correct/",
        {"score_a": HUGE_INTS, "score_b": HUGE_INTS},
        lambda w: {"winner": "a", "score_a": 2, "score_b": 0},
    ),
    Write("tables", "post", lambda w: f"{_t(w)}tables/", {"count": HUGE_INTS}),
    Write(
        "event",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/events/",
        {
            "expected_version": HUGE_INTS,
            "event": HUGE_INTS.map(lambda v: {"type": "shot", "player": "a", "pocketed": v}),
        },
        _event_base,
    ),
    Write(
        "undo",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/undo/",
        {"expected_version": HUGE_INTS},
    ),
    Write(
        "clock",
        "post",
        lambda w: f"/api/v1/matches/{w.running.pk}/clock/",
        {"remaining_seconds": HUGE_INTS},
        lambda w: {"action": "adjust"},
    ),
    Write(
        "match-table",
        "post",
        lambda w: f"/api/v1/matches/{w.ready.pk}/table/",
        {"table": HUGE_INTS},
    ),
]

READS = [
    ("events-after", lambda w: f"/api/v1/matches/{w.running.pk}/events/", "after"),
    ("audit-match", lambda w: f"{_t(w)}audit/", "match"),
    ("draw-preview-seed", lambda w: f"{_open(w)}draw-preview/", "random_seed"),
    ("audit-limit", lambda w: f"{_t(w)}audit/", "limit"),
    ("audit-offset", lambda w: f"{_t(w)}audit/", "offset"),
]

PROPERTY = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _assert_refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.content[:300]
    body = response.json()
    assert {"code", "message", "params"} <= set(body), body


@pytest.mark.parametrize("write", WRITES, ids=lambda w: w.name)
def test_extreme_values_are_refused_and_change_nothing(world: World, write: Write) -> None:
    @PROPERTY
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        field = data.draw(st.sampled_from(sorted(write.fields)), label="field")
        value = data.draw(write.fields[field], label="value")
        with transaction.atomic():
            before = dump_tables()
            body = {**write.base(world), field: value}
            response = getattr(token_client(world), write.method)(write.url(world), body)
            _assert_refused(response)
            assert dump_tables() == before
            transaction.set_rollback(True)

    check()


@pytest.mark.parametrize(("name", "url", "param"), READS, ids=[r[0] for r in READS])
def test_extreme_query_numbers_are_refused_or_bounded(
    world: World, name: str, url: Callable[[World], str], param: str
) -> None:
    @PROPERTY
    @given(value=HUGE_INTS)
    def check(value: int) -> None:
        response = token_client(world).get(url(world), {param: str(value)})
        assert response.status_code < 500, response.content[:300]
        if response.status_code >= 400:
            _assert_refused(response)

    check()
