"""The statements of a scored ball stay within what psycopg keeps converted: past
MAX_CACHED_STATEMENT_LENGTH bytes (4096) or MAX_CACHED_STATEMENT_PARAMS parameters (50), a
statement is converted again on every run (psycopg/_queries.py), and the SQL built once by
matches/querycache.py would be parsed again on every ball."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

from matches import selectors
from matches.services import locks, match_clock_expire
from tests.matches.conftest import post_event
from tests.matches.test_clock import clock, overdue
from tournaments.selectors.tournament import _TOURNAMENT

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
SHOT_B = {"type": "shot", "player": "b", "pocketed": 1}


@contextmanager
def statements():
    seen: list[tuple[str, int]] = []

    def record(execute, sql, params, many, context):
        seen.append((sql, len(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def too_big(seen: list[tuple[str, int]]) -> list[str]:
    return [
        f"{len(sql.encode())} bytes, {count} parameters: {sql[:120]}"
        for sql, count in seen
        if len(sql.encode()) > MAX_CACHED_STATEMENT_LENGTH or count > MAX_CACHED_STATEMENT_PARAMS
    ]


def test_the_limits_are_the_ones_this_test_was_written_for() -> None:
    """A psycopg release that moves them: re-measure the statements below against the new ones."""
    assert (MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS) == (4096, 50)


@pytest.mark.parametrize(
    "compiled",
    [
        locks._LOCKED_MATCH,
        locks._LOCKED_MATCH_AND_ROLE,
        locks._LOCKED_ROW,
        selectors._MATCH,
        _TOURNAMENT,
    ],
    ids=["lock", "lock_and_role", "row_lock", "match_read", "tournament_read"],
)
def test_every_compiled_query_stays_within_the_limits(compiled) -> None:
    plan = compiled._plan("default")
    assert len(plan.sql.encode()) <= MAX_CACHED_STATEMENT_LENGTH
    assert len(plan.slots) <= MAX_CACHED_STATEMENT_PARAMS


def test_every_statement_of_a_ball_an_undo_and_an_expiry_stays_within_the_limits(
    scorer, match
) -> None:
    """The writes go as one WITH statement on PostgreSQL (WriteBatch): its parameters are the
    sum of its rows'. The first ball starts play (the clock too), later ones are the steady
    state; the undo and the clock's expiry batch their rows as well."""
    assert clock(scorer, match, "start").status_code == 200
    assert post_event(scorer, match, BREAK).status_code == 201
    with statements() as seen:
        assert post_event(scorer, match, SHOT_B).status_code == 201
        response = scorer.post(
            f"/api/v1/matches/{match.pk}/undo/",
            {"expected_version": 2, "idempotency_key": "u1"},
            format="json",
        )
        assert response.status_code == 201, response.content
        overdue(match)
        assert match_clock_expire(match_id=match.pk) is True
    if connection.vendor == "postgresql":
        assert any(sql.startswith("WITH w0 AS (INSERT") for sql, _ in seen)  # the batches ran
    assert too_big(seen) == []
