"""A match ends: winner, loser, result, score, and the tournament is told once."""

from __future__ import annotations

import pytest

from audit.models import AuditEntry
from matches.errors import MatchError
from matches.services import final_score, match_walkover
from tests.matches.conftest import b_pockets, play, post_event
from tests.matches.factories import MatchFactory

pytestmark = pytest.mark.django_db


def test_a_won_race_finishes_the_match(scorer, match, finished_calls) -> None:
    play(scorer, match, b_pockets(6))

    match.refresh_from_db()
    assert match.status == "finished" and match.result == "race"
    assert match.winner == match.player_b and match.loser == match.player_a
    assert (match.score_a, match.score_b) == (0, 8)  # the head start counts
    assert match.finished_at is not None
    assert finished_calls == [match.pk]
    assert AuditEntry.objects.filter(match=match, action="match.finished").count() == 1


def test_a_match_of_several_frames_is_scored_in_frames(scorer, tournament, finished_calls) -> None:
    long = MatchFactory(
        tournament=tournament,
        ruleset={"discipline": "free_pyramid", "balls_to_win": 4, "frames_to_win": 2},
        state={},  # without a cached state the engine's initial state is used
    )
    # Frame 1: a breaks, b runs 4. Frame 2 is broken by b, who runs 4 again.
    play(
        scorer,
        long,
        [
            *b_pockets(4),
            {"type": "break", "player": "b", "legal": True, "pocketed": 0},
            {"type": "shot", "player": "a", "pocketed": 0},
            {"type": "shot", "player": "b", "pocketed": 4},
        ],
    )
    long.refresh_from_db()
    assert long.status == "finished" and (long.score_a, long.score_b) == (0, 2)
    assert finished_calls == [long.pk]


def test_a_forfeit_is_a_result(scorer, match, finished_calls) -> None:
    play(scorer, match, [{"type": "break", "player": "a", "legal": True, "pocketed": 3}])
    response = post_event(scorer, match, {"type": "forfeit", "player": "a"})
    assert response.json()["status"] == "finished" and response.json()["winner"] == "b"
    match.refresh_from_db()
    assert match.result == "forfeit" and (match.score_a, match.score_b) == (3, 2)


def test_a_walkover_before_the_start(match, organiser, finished_calls) -> None:
    match_walkover(match=match, winner_slot="a", actor=organiser, reason="no-show")

    match.refresh_from_db()
    assert match.status == "walkover" and match.result == "walkover"
    assert match.winner == match.player_a and match.loser == match.player_b
    assert match.score_a is None and match.version == 0
    assert finished_calls == [match.pk]
    entry = AuditEntry.objects.get(match=match, action="match.walkover")
    assert entry.actor == organiser and entry.data["reason"] == "no-show"


def test_a_walkover_during_play_is_the_engines_forfeit(scorer, match, organiser) -> None:
    play(scorer, match, b_pockets(2))
    match_walkover(match=match, winner_slot="b", actor=organiser, reason="withdrawn")
    match.refresh_from_db()
    assert match.status == "finished" and match.result == "forfeit"
    assert match.state["winner"] == "b" and (match.score_a, match.score_b) == (0, 4)


def test_walkover_through_the_api_is_for_organisers(scorer, organiser_api, match) -> None:
    url = f"/api/v1/matches/{match.pk}/walkover/"
    assert scorer.post(url, {"winner": "a"}, format="json").status_code == 403
    response = organiser_api.post(url, {"winner": "b", "reason": "ill"}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "walkover" and response.json()["winner"] == "b"
    again = organiser_api.post(url, {"winner": "b"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "match_closed"


def test_a_walkover_needs_the_winner_known(tournament, organiser) -> None:
    pending = MatchFactory(tournament=tournament, player_b=None, status="scheduled")
    with pytest.raises(MatchError) as err:
        match_walkover(match=pending, winner_slot="b", actor=organiser, reason="")
    assert err.value.code == "slot_empty"


@pytest.mark.parametrize(
    ("state", "score"),
    [
        (
            {
                "discipline": "free_pyramid",
                "ruleset": {"frames_to_win": 1},
                "score": {"a": 30, "b": 12},
                "frames": {"a": 1, "b": 0},
            },
            (30, 12),
        ),
        (
            {
                "discipline": "free_pyramid",
                "ruleset": {"frames_to_win": 3},
                "score": {"a": 8, "b": 2},
                "frames": {"a": 3, "b": 1},
            },
            (3, 1),
        ),
        (
            {"discipline": "duplex", "final": {"a": 2, "b": 5}, "plus": {"a": 4, "b": 1}},
            (2, 5),
        ),
        ({"discipline": "duplex", "final": None, "plus": {"a": 4, "b": 1}}, (4, 1)),
    ],
)
def test_the_final_score_by_discipline(state, score) -> None:
    assert final_score(state) == score
