"""One true record: a match has one current result that every reader shows, a correction is
recorded as such, and nothing reopens, re-scores or re-finishes a match that has a result.
Driven from outside, through the API, as a club's devices would."""

from __future__ import annotations

import pytest
from django.db import transaction

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match, MatchEvent
from tests.tournaments.helpers import finish, match
from tests.tournaments.record_helpers import TEN_ONE, bracket_card, correct, event, play
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.exchange import tournament_export, tournament_import
from tournaments.models import Player, RatingChange

pytestmark = pytest.mark.django_db

CLOSED_CODES = ("match_finished", "match_closed", "match_not_callable")


# --- 1. one result per match ----------------------------------------------------------------


def test_a_corrected_result_reads_the_same_everywhere(
    bracket, scorer, org_api, api, organiser, client
):
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    first.refresh_from_db()
    assert (first.result, first.score_a, first.score_b) == ("race", 10, 1)
    a_name, b_name = first.player_a.name, first.player_b.name

    response = correct(org_api, first, "b", 7, 10, reason="счёт записан наоборот")
    assert response.status_code == 200, response.json()

    # The match API: its top-level fields, its state and its score summary agree.
    body = api.get(f"/api/v1/matches/{first.pk}/").json()
    assert body["winner"] == "b" and body["result"] == "corrected" and body["status"] == "finished"
    assert (body["score_a"], body["score_b"]) == (7, 10)
    assert body["state"]["winner"] == "b" and body["state"]["finished"] is True
    assert body["state"]["score"] == {"a": 7, "b": 10}
    assert body["score"]["score"] == {"a": 7, "b": 10}
    assert body["correction"]["reason"] == "счёт записан наоборот"
    assert body["correction"]["previous"] == {
        "winner": "a",
        "score_a": 10,
        "score_b": 1,
        "result": "race",
        "status": "finished",
    }
    # What happened at the table is kept, not rewritten.
    log = api.get(f"/api/v1/matches/{first.pk}/events/").json()
    assert log["version"] == 4 and [e["event"] for e in log["events"]] == TEN_ONE
    first.refresh_from_db()
    assert first.state["winner"] == "a" and first.state["score"] == {"a": 10, "b": 1}

    # The bracket API.
    card = bracket_card(api, first)
    assert card["winner"] == "b" and (card["score_a"], card["score_b"]) == (7, 10)
    assert card["mark"] == "corrected"

    # The pages: the public scoreboard and the organiser's match control (Russian).
    page = api.get(f"/m/{first.pk}/").content.decode()
    assert 'data-score="a">7<' in page and 'data-score="b">10<' in page
    assert b_name in page.split('class="winner-line"')[1].split("</div>")[0]
    assert "исправлено: было 10:1" in page
    client.force_login(organiser)
    panel = client.get(f"/panel/m/{first.pk}/").content.decode()
    assert 'data-score="a">7<' in panel and "исправлено: было 10:1" in panel
    assert a_name not in panel.split('class="winner-line"')[1].split("</div>")[0]
    bracket_page = api.get(f"/t/{bracket.pk}/bracket/")
    assert "исправлено: было 10:1" in bracket_page.content.decode()

    # Progression and Elo follow the corrected result.
    assert match(bracket, "U2-1").player_a_id == first.player_b_id
    lower = Match.objects.get(pk=first.loser_to_id)
    assert first.player_a_id in (lower.player_a_id, lower.player_b_id)
    rating = org_api.get(
        f"/api/v1/tournaments/{bracket.pk}/matches/{first.pk}/rating-changes/"
    ).json()
    assert rating["b"]["delta"] > 0 > rating["a"]["delta"]
    assert Player.objects.get(pk=first.player_b_id).rating == rating["b"]["after"]

    # Recorded as a correction: who, when, from what to what, why.
    entry = AuditEntry.objects.get(match=first, action="match_correct_result")
    assert entry.actor_id == organiser.pk
    assert entry.data["before"]["score_a"] == 10 and entry.data["after"]["score_b"] == 10
    assert entry.data["reason"] == "счёт записан наоборот"
    first.refresh_from_db()
    assert first.corrected_by_id == organiser.pk and first.corrected_at is not None


def test_the_same_correction_twice_changes_nothing(bracket, scorer, org_api):
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    assert correct(org_api, first, "b", 7, 10).status_code == 200
    first.refresh_from_db()
    stamp = first.corrected_at
    assert correct(org_api, first, "b", 7, 10).status_code == 200
    first.refresh_from_db()
    assert first.corrected_at == stamp and first.corrected_from["score_a"] == 10
    assert AuditEntry.objects.filter(match=first, action="match_correct_result").count() == 1


def test_a_walkover_reads_as_a_walkover_in_the_match_api(bracket, org_api, api):
    first = match(bracket, "U1-1")
    response = org_api.post(
        f"/api/v1/matches/{first.pk}/walkover/", {"winner": "b", "reason": "нет"}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = api.get(f"/api/v1/matches/{first.pk}/").json()
    assert body["winner"] == "b" and body["state"]["winner"] == "b"
    assert body["state"]["finished"] is True and body["state"]["end_reason"] == "walkover"
    assert body["score"] == {"score": None, "frames": None}
    assert body["correction"] is None


# --- 2. finished means finished -------------------------------------------------------------


def test_a_walked_over_then_corrected_match_refuses_events_and_the_next_match_is_kept(
    bracket, scorer, org_api
):
    first, second = match(bracket, "U1-1"), match(bracket, "U1-2")
    org_api.post(
        f"/api/v1/matches/{first.pk}/walkover/", {"winner": "a", "reason": ""}, format="json"
    )
    play(scorer, second, TEN_ONE)
    nxt = match(bracket, "U2-1")
    play(scorer, nxt, TEN_ONE[:2])  # the next match is being played
    nxt.refresh_from_db()
    seen = (nxt.player_a_id, nxt.player_b_id, nxt.version, nxt.state, nxt.status)
    log = list(MatchEvent.objects.filter(match=nxt).values_list("seq", "payload"))

    # A correction that keeps the winner (the walkover was in fact played 10:4).
    assert correct(org_api, first, "a", 10, 4).status_code == 200
    first.refresh_from_db()
    assert first.status == "finished" and first.result == "corrected" and first.version == 0
    ratings = dict(RatingChange.objects.filter(match=first).values_list("player_id", "delta"))

    refused = {
        "forfeit": event(scorer, first, {"type": "forfeit", "player": "a"}, version=0),
        "shot": event(org_api, first, TEN_ONE[0], version=0),
        "undo": scorer.post(f"/api/v1/matches/{first.pk}/undo/", {}, format="json"),
        "clock": scorer.post(
            f"/api/v1/matches/{first.pk}/clock/", {"action": "start"}, format="json"
        ),
        "judge": scorer.post(
            f"/api/v1/matches/{first.pk}/judge/", {"action": "call"}, format="json"
        ),
        "walkover": org_api.post(
            f"/api/v1/matches/{first.pk}/walkover/", {"winner": "b"}, format="json"
        ),
        "hold": org_api.post(f"/api/v1/matches/{first.pk}/hold/", {"held": True}, format="json"),
        "table": org_api.post(f"/api/v1/matches/{first.pk}/table/", {"table": 1}, format="json"),
    }
    for route, response in refused.items():
        assert response.status_code == 409, (route, response.json())
        assert response.json()["code"] in CLOSED_CODES, route

    # A correction that would move the winner on is refused, naming the match in play.
    blocked = correct(org_api, first, "b", 4, 10)
    assert blocked.status_code == 409
    assert blocked.json()["code"] == "correction_blocked"
    assert blocked.json()["params"]["blocking_match"] == "U2-1"

    first.refresh_from_db()
    assert (first.winner_id, first.score_a, first.score_b) == (first.player_a_id, 10, 4)
    assert first.version == 0 and first.status == "finished"
    nxt.refresh_from_db()
    assert (nxt.player_a_id, nxt.player_b_id, nxt.version, nxt.state, nxt.status) == seen
    assert list(MatchEvent.objects.filter(match=nxt).values_list("seq", "payload")) == log
    assert (
        dict(RatingChange.objects.filter(match=first).values_list("player_id", "delta")) == ratings
    )


def test_a_finished_match_refuses_a_forfeit_and_keeps_its_result(bracket, scorer):
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    response = event(scorer, first, {"type": "forfeit", "player": "a"})
    assert response.status_code == 409 and response.json()["code"] == "match_finished"
    assert response.json()["match"]["winner"] == "a"
    first.refresh_from_db()
    assert first.result == "race" and first.version == 4


def test_progression_never_reseats_a_started_match(bracket, scorer):
    """Should a finished match ever be routed again with another winner, the next match in
    play keeps its players: the whole write is refused, naming it."""
    first = finish(match(bracket, "U1-1"), "a")
    finish(match(bracket, "U1-2"), "a")
    nxt = match(bracket, "U2-1")
    play(scorer, nxt, TEN_ONE[:1])
    nxt.refresh_from_db()
    before = (nxt.player_a_id, nxt.player_b_id, nxt.version)

    with pytest.raises(TournamentError) as err, transaction.atomic():
        row = Match.objects.select_for_update().get(pk=first.pk)
        row.winner_id, row.loser_id = row.player_b_id, row.player_a_id
        row.save(update_fields=["winner", "loser"])
        services.tournament_on_match_finished(match=row)
    assert err.value.code == "progression_blocked"
    assert err.value.params["blocking_match"] == "U2-1"
    nxt.refresh_from_db()
    assert (nxt.player_a_id, nxt.player_b_id, nxt.version) == before
    first.refresh_from_db()
    assert first.winner_id == first.player_a_id


def test_a_clock_started_match_is_not_reseated_by_a_correction(bracket, scorer, org_api):
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    play(scorer, match(bracket, "U1-2"), TEN_ONE)
    nxt = match(bracket, "U2-1")
    started = scorer.post(f"/api/v1/matches/{nxt.pk}/clock/", {"action": "start"}, format="json")
    assert started.status_code == 200
    response = correct(org_api, first, "b", 7, 10)
    assert response.status_code == 409 and response.json()["params"]["blocking_match"] == "U2-1"
    assert match(bracket, "U2-1").player_a_id == first.player_a_id


def test_a_correction_survives_export_and_import(bracket, scorer, org_api, organiser):
    first = match(bracket, "U1-1")
    play(scorer, first, TEN_ONE)
    assert correct(org_api, first, "b", 7, 10, reason="перепутали").status_code == 200

    copy = tournament_import(document=tournament_export(tournament=bracket), actor=organiser)

    again = Match.objects.get(tournament=copy, key="U1-1")
    assert (again.result, again.score_a, again.score_b) == ("corrected", 7, 10)
    assert again.winner_id == again.player_b_id and again.correction_reason == "перепутали"
    assert again.corrected_from["score_a"] == 10 and again.corrected_at is not None
    assert again.corrected_by_id is None  # a login is not carried between databases
    assert again.version == 4


def test_the_clock_task_and_sweep_leave_a_corrected_match_alone(bracket, scorer, org_api):
    first = match(bracket, "U1-1")
    started = scorer.post(f"/api/v1/matches/{first.pk}/clock/", {"action": "start"}, format="json")
    assert started.status_code == 200
    org_api.post(f"/api/v1/matches/{first.pk}/walkover/", {"winner": "a"}, format="json")
    assert correct(org_api, first, "b", 3, 10).status_code == 200
    # Even a clock row left as if it still ran past its deadline is not acted on.
    Match.objects.filter(pk=first.pk).update(
        clock_running_since="2026-01-01T10:00:00Z", clock_deadline="2026-01-01T10:01:00Z"
    )

    assert match_services.match_clock_expire(match_id=first.pk) is False
    assert match_services.match_clock_sweep() == 0
    first.refresh_from_db()
    assert first.clock_expired_at is None and first.result == "corrected"
    assert first.winner_id == first.player_b_id and first.status == "finished"
