"""The net match clock through the API and its services (the Celery side is simulated here by
calling the task's service; test_clock_worker.py runs a real worker)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

import rules
from audit.models import AuditEntry
from matches.models import Match, MatchEvent
from matches.services import match_clock_expire, match_clock_sweep
from tests.matches.conftest import b_pockets, play
from tests.matches.factories import MatchFactory

pytestmark = pytest.mark.django_db

BREAK_2 = {"type": "break", "player": "a", "legal": True, "pocketed": 2}


def clock(client, match, action: str, **extra):
    return client.post(
        f"/api/v1/matches/{match.pk}/clock/", {"action": action, **extra}, format="json"
    )


def overdue(match: Match, seconds: float = 0.5) -> None:
    """Move the running clock's deadline into the past, as if the time had run out."""
    match.refresh_from_db()
    assert match.clock_running_since is not None
    past = timezone.now() - dt.timedelta(seconds=seconds)
    Match.objects.filter(pk=match.pk).update(
        clock_running_since=past - dt.timedelta(seconds=match.clock_limit_seconds),
        clock_deadline=past,
    )


def test_start_pause_resume(scorer, match, tournament) -> None:
    response = clock(scorer, match, "start")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "running" and body["started_at"]
    assert body["clock"]["running"] and body["clock"]["deadline"]
    tournament.refresh_from_db()
    assert tournament.public_version >= 1  # a match starting changes the public pages

    body = clock(scorer, match, "pause").json()
    assert body["status"] == "paused"
    assert body["clock"]["paused"] and not body["clock"]["running"]
    assert body["clock"]["deadline"] is None

    body = clock(scorer, match, "resume").json()
    assert body["status"] == "running" and body["clock"]["running"]
    actions = list(
        AuditEntry.objects.filter(match=match, action__startswith="match.clock_")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["match.clock_start", "match.clock_pause", "match.clock_resume"]


@pytest.mark.parametrize(
    ("steps", "action", "code"),
    [
        ([], "pause", "clock_not_started"),
        ([], "resume", "clock_not_started"),
        (["start"], "start", "clock_already_started"),
        (["start"], "resume", "clock_not_paused"),
        (["start", "pause"], "pause", "clock_not_running"),
    ],
)
def test_clock_actions_out_of_order_are_conflicts(scorer, match, steps, action, code) -> None:
    for step in steps:
        assert clock(scorer, match, step).status_code == 200
    response = clock(scorer, match, action, idempotency_key="c-1")
    assert response.status_code == 409
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert response.json()["match"]["id"] == match.pk


def test_an_unknown_clock_action_is_a_field_error(scorer, match) -> None:
    response = clock(scorer, match, "stop")
    assert response.status_code == 400 and "action" in response.json()["fields"]


def test_pause_makes_the_scheduled_expiry_stale(scorer, match) -> None:
    clock(scorer, match, "start")
    match.refresh_from_db()
    generation = match.clock_generation
    clock(scorer, match, "pause")

    assert match_clock_expire(match_id=match.pk, generation=generation) is False
    match.refresh_from_db()
    assert match.clock_expired_at is None and match.version == 0


def test_the_warning_flag_shows_the_last_ten_minutes(scorer, match, api) -> None:
    Match.objects.filter(pk=match.pk).update(clock_limit_seconds=9 * 60)
    clock(scorer, match, "start")
    body = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["clock"]["warning"] is True
    assert 9 * 60 - 2 <= body["clock"]["remaining_seconds"] <= 9 * 60


def test_at_the_deadline_the_leader_wins_on_time(scorer, match, finished_calls) -> None:
    play(scorer, match, [BREAK_2])  # a: 2, b: 2 (head start)...
    play(scorer, match, [{"type": "shot", "player": "a", "pocketed": 1}])  # ...a leads 3 : 2
    overdue(match)

    assert match_clock_sweep() == 1

    match.refresh_from_db()
    assert match.status == "finished" and match.result == "time"
    assert match.winner == match.player_a and match.loser == match.player_b
    assert (match.score_a, match.score_b) == (3, 2)
    last = MatchEvent.objects.get(match=match, seq=3)
    assert last.payload == {"type": "time_expired"} and last.source == "clock"
    assert match.clock_expired_at is not None and match.clock_running_since is None
    assert finished_calls == [match.pk]


def test_a_tie_at_the_deadline_plays_for_the_golden_ball(scorer, match) -> None:
    play(scorer, match, [BREAK_2, {"type": "shot", "player": "a", "pocketed": 0}])  # 2 : 2
    overdue(match)
    assert match_clock_expire(match_id=match.pk) is True
    match.refresh_from_db()
    assert match.state["golden_ball"] and match.status == "running"
    assert clock(scorer, match, "pause").json()["code"] == "clock_expired"

    play(scorer, match, [{"type": "shot", "player": "b", "pocketed": 1}])
    match.refresh_from_db()
    assert match.status == "finished" and match.winner == match.player_b
    assert match.result == "time"


def test_an_expired_clock_is_expired_once(scorer, match) -> None:
    play(scorer, match, [BREAK_2, {"type": "shot", "player": "a", "pocketed": 0}])
    overdue(match)
    assert match_clock_expire(match_id=match.pk) is True
    assert match_clock_expire(match_id=match.pk) is False
    assert match_clock_sweep() == 0
    assert MatchEvent.objects.filter(match=match, payload__type="time_expired").count() == 1


def test_a_task_that_arrives_early_does_nothing(scorer, match) -> None:
    clock(scorer, match, "start")
    match.refresh_from_db()
    assert match_clock_expire(match_id=match.pk, generation=match.clock_generation) is False
    match.refresh_from_db()
    assert match.clock_expired_at is None and match.clock_running_since is not None


def test_the_sweep_leaves_paused_and_future_clocks_alone(scorer, match, tournament) -> None:
    clock(scorer, match, "start")
    other = MatchFactory(tournament=tournament)
    clock(scorer, other, "start")
    overdue(other)
    clock(scorer, other, "pause")
    assert match_clock_sweep() == 0


def test_duplex_clocks_only_show_the_time(scorer, tournament, api) -> None:
    duplex = MatchFactory(
        tournament=tournament,
        ruleset={"discipline": "duplex"},
        state=rules.initial_state({"discipline": "duplex"}),
        clock_limit_seconds=60,
    )
    clock(scorer, duplex, "start")
    duplex.refresh_from_db()
    assert duplex.clock_deadline is None  # nothing is scheduled, the sweep never sees it
    body = api.get(f"/api/v1/matches/{duplex.pk}/").json()
    assert body["clock"]["ends_match"] is False and body["clock"]["deadline"] is not None
    Match.objects.filter(pk=duplex.pk).update(
        clock_running_since=timezone.now() - dt.timedelta(minutes=5)
    )
    assert match_clock_sweep() == 0
    assert match_clock_expire(match_id=duplex.pk) is False
    assert api.get(f"/api/v1/matches/{duplex.pk}/").json()["clock"]["remaining_seconds"] == 0


def test_without_a_limit_the_clock_counts_up_and_never_expires(scorer, tournament, api) -> None:
    free = MatchFactory(tournament=tournament, clock_limit_seconds=None)
    body = clock(scorer, free, "start").json()
    assert body["clock"]["remaining_seconds"] is None and body["clock"]["deadline"] is None
    free.refresh_from_db()
    assert free.clock_deadline is None


def test_the_organiser_sets_the_remaining_time(scorer, match, organiser_api) -> None:
    clock(scorer, match, "start")
    assert clock(scorer, match, "adjust", remaining_seconds=60).status_code == 403

    body = clock(organiser_api, match, "adjust", remaining_seconds=300).json()
    assert 299 <= body["clock"]["remaining_seconds"] <= 301
    assert body["clock"]["running"]
    assert clock(organiser_api, match, "adjust").status_code == 400  # how much?
    body = clock(organiser_api, match, "adjust", remaining_seconds=None).json()
    assert body["clock"]["remaining_seconds"] is None and body["clock"]["deadline"] is None


def test_clock_actions_on_a_finished_match_are_refused(scorer, match) -> None:
    play(scorer, match, b_pockets(6))
    assert clock(scorer, match, "pause").json()["code"] == "match_finished"


def test_the_clock_stops_when_the_match_ends(scorer, match) -> None:
    play(scorer, match, b_pockets(6))
    match.refresh_from_db()
    assert match.clock_running_since is None and match.clock_deadline is None
    assert match.clock_elapsed_ms >= 0
