"""Progression: players move on, matches become ready with their handicap, the grand final,
groups into the play-off, ratings, corrections, handicap overrides and withdrawals."""

from __future__ import annotations

import pytest
from django.db.models import Q

from audit.models import AuditEntry
from matches.models import Match
from matches.services import match_walkover
from tests.tournaments.factories import register
from tests.tournaments.helpers import finish, match, play_out
from tournaments import services
from tournaments.algorithms import elo
from tournaments.models import Player, RatingChange, Registration

pytestmark = pytest.mark.django_db


def seeds_of(tournament) -> dict[int, int]:
    """seed -> player id"""
    return {
        seed: pid
        for pid, seed in Registration.objects.filter(tournament=tournament).values_list(
            "player_id", "seed"
        )
    }


def test_winner_and_loser_move_on_and_the_next_match_gets_ready_with_its_handicap(
    drawn, tournament
):
    drawn(8)
    seed = seeds_of(tournament)
    finish(match(tournament, "U1-1"), "a")  # seed 1 beats seed 8
    tournament.refresh_from_db()
    assert tournament.status == "running"
    u2 = match(tournament, "U2-1")
    assert u2.player_a_id == seed[1] and u2.status == "scheduled"
    lower = Match.objects.get(pk=match(tournament, "U1-1").loser_to_id)
    assert seed[8] in (lower.player_a_id, lower.player_b_id)

    finish(match(tournament, "U1-2"), "a")  # seed 4 (1170) beats seed 5 (1160)... ratings 1200-10*i
    u2.refresh_from_db()
    assert u2.status == "ready"
    assert {u2.player_a_id, u2.player_b_id} == {seed[1], seed[4]}
    # The ratings changed after round 1 (rated tournament), but the handicap uses the entry
    # ratings: 1200 vs 1170 is under one 50-point step, so no head start.
    assert u2.ruleset["head_start"] == {"a": 0, "b": 0}
    assert u2.state["score"] == {"a": 0, "b": 0}
    assert u2.clock_limit_seconds == 4800


def test_handicap_uses_the_stage_race_and_pairs_scheme(tournament, organiser):
    tournament.ruleset = {"discipline": "free_pyramid", "balls_to_win": 8, "continuation": False}
    tournament.handicap_scheme = "llb_1"
    tournament.stage_rules = {
        "upper": {"frames_to_win": 3},
        "lower": {"frames_to_win": 2, "time_limit_minutes": 45},
    }
    tournament.save()
    register(tournament, 4, ratings=[1000, 880, 990, 1100])
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    m = match(tournament, "U1-1")  # 1100 vs 880: 4 steps of 50 -> pair (10, 6)
    assert m.ruleset["frames_to_win"] == 3
    assert m.ruleset["balls_to_win"] == 10
    weaker = "a" if m.player_a.rating == 880 else "b"
    assert m.ruleset["head_start"][weaker] == 4
    finish(m, "a" if weaker == "b" else "b")
    finish(match(tournament, "U1-2"), "a")
    lower = match(tournament, "L1-1")  # the two first-round losers
    assert lower.status == "ready"
    assert lower.ruleset["frames_to_win"] == 2
    assert lower.clock_limit_seconds == 45 * 60


def test_a_double_elimination_plays_out_to_finished_with_shared_places(drawn, tournament, api):
    drawn(8)
    play_out(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.finished_at is not None
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    labels = [p["label"] for p in body["places"]]
    assert labels == ["1", "2", "3", "4", "5–6", "7–8"]
    seed = seeds_of(tournament)
    assert body["places"][0]["players"][0]["id"] == seed[1]
    assert sorted(p["seed"] for p in body["places"][4]["players"]) == [5, 6]
    assert body["complete"] is True


def test_grand_final_reset_is_void_when_the_upper_player_wins(drawn, tournament):
    drawn(4, grand_final="reset")
    play_out(tournament)
    assert match(tournament, "GF-2").status == "void"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_grand_final_reset_is_played_after_an_upset(drawn, tournament):
    drawn(4, grand_final="reset")
    seed = seeds_of(tournament)

    def pick(m: Match) -> str:
        if m.key == "GF-1":
            return "b"  # the lower-bracket player wins the first final
        s = {v: k for k, v in seed.items()}
        return "a" if s[m.player_a_id] < s[m.player_b_id] else "b"

    play_out(tournament, pick)
    reset = match(tournament, "GF-2")
    assert reset.status == "finished"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_elo_changes_after_each_rated_match_and_not_after_a_walkover(drawn, tournament, api):
    drawn(4)
    seed = seeds_of(tournament)
    top, bottom = Player.objects.get(pk=seed[1]), Player.objects.get(pk=seed[4])
    m = finish(match(tournament, "U1-1"), "b")  # upset: seed 4 beats seed 1
    winner = "b"
    top.refresh_from_db()
    bottom.refresh_from_db()
    changes = {c.player_id: c for c in RatingChange.objects.filter(match=m)}
    assert changes[bottom.pk].delta > 16 and changes[top.pk].delta == -changes[bottom.pk].delta
    assert (
        bottom.rating
        == changes[bottom.pk].rating_after
        == changes[bottom.pk].rating_before + changes[bottom.pk].delta
    )
    # The API shows them: the player's history and the match's change.
    detail = api.get(f"/api/v1/players/{bottom.pk}/").json()
    assert detail["rating_history"][0]["delta"] == changes[bottom.pk].delta
    assert detail["rating_history"][0]["opponent"]["id"] == top.pk
    rating = api.get(f"/api/v1/tournaments/{tournament.pk}/matches/{m.pk}/rating-changes/").json()
    assert rating[winner]["delta"] == changes[m.winner_id].delta

    other = match(tournament, "U1-2")
    match_walkover(match=other, winner_slot="a", actor=None, reason="no-show")
    assert not RatingChange.objects.filter(match=other).exists()


def test_unrated_tournament_changes_no_rating(drawn, tournament):
    drawn(4, rated=False)
    finish(match(tournament, "U1-1"), "b")
    assert not RatingChange.objects.exists()


def test_correction_reroutes_players_recomputes_handicap_and_elo(org_api, drawn, tournament):
    drawn(8)
    seed = seeds_of(tournament)
    m = finish(match(tournament, "U1-1"), "a")  # seed 1 wins
    finish(match(tournament, "U1-2"), "a")
    rating_8_before = Player.objects.get(pk=seed[8]).rating
    url = f"/api/v1/tournaments/{tournament.pk}/matches/{m.pk}/correct/"
    response = org_api.post(url, {"winner": "b", "score_a": 25, "score_b": 30}, format="json")
    assert response.status_code == 200, response.json()
    # The answer names the winner as the request did, by slot; the player beside it.
    assert response.json()["winner"] == "b" and response.json()["winner_id"] == seed[8]
    m.refresh_from_db()
    assert m.winner_id == seed[8] and m.result == "corrected" and (m.score_a, m.score_b) == (25, 30)
    u2 = match(tournament, "U2-1")
    assert u2.player_a_id == seed[8] and u2.status == "ready"
    # 1130 (seed 8) against 1170 (seed 4): no step, no head start; but recomputed either way.
    assert u2.ruleset["head_start"] == {"a": 0, "b": 0}
    lower = Match.objects.get(pk=m.loser_to_id)
    assert seed[1] in (lower.player_a_id, lower.player_b_id)
    assert seed[8] not in (lower.player_a_id, lower.player_b_id)
    # Elo: the old change reversed, the new one applied from the pre-match ratings.
    player8 = Player.objects.get(pk=seed[8])
    old = RatingChange.objects.get(match=m, player_id=seed[8], reason="match_reversed")
    gain = elo.elo_change(
        winner_rating=old.rating_before,
        loser_rating=RatingChange.objects.get(
            match=m, player_id=seed[1], reason="match_reversed"
        ).rating_before,
        k=tournament.elo_k,
    )
    assert player8.rating == rating_8_before - old.delta + gain
    assert RatingChange.objects.filter(match=m, reason="reversal").count() == 2
    assert RatingChange.objects.filter(match=m, reason="match").count() == 2
    assert AuditEntry.objects.filter(action="match_correct_result", match=m).exists()


def test_correction_is_blocked_by_a_started_match_and_names_it(org_api, drawn, tournament):
    drawn(8)
    m = finish(match(tournament, "U1-1"), "a")
    finish(match(tournament, "U1-2"), "a")
    Match.objects.filter(tournament=tournament, key="U2-1").update(status="running", version=1)
    before = Player.objects.get(pk=m.winner_id).rating
    url = f"/api/v1/tournaments/{tournament.pk}/matches/{m.pk}/correct/"
    response = org_api.post(url, {"winner": "b", "score_a": 10, "score_b": 30}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "correction_blocked" and "«В2-1»" in body["message"]
    assert body["params"]["blocking_match"] == "U2-1"  # the API keeps the stable key
    m.refresh_from_db()
    assert m.result == "race" and Player.objects.get(pk=m.winner_id).rating == before


def test_organiser_overrides_a_handicap_before_play(org_api, drawn, tournament):
    drawn(4)
    m = match(tournament, "U1-1")
    url = f"/api/v1/tournaments/{tournament.pk}/matches/{m.pk}/handicap/"
    response = org_api.post(
        url, {"head_start": {"a": 0, "b": 5}, "balls_to_win": 25}, format="json"
    )
    assert response.status_code == 200, response.json()
    m.refresh_from_db()
    assert m.head_start_overridden and m.ruleset["head_start"] == {"a": 0, "b": 5}
    assert m.ruleset["balls_to_win"] == 25 and m.state["score"] == {"a": 0, "b": 5}
    assert AuditEntry.objects.filter(action="match_set_handicap", match=m).exists()

    bad = org_api.post(url, {"head_start": {"a": 0, "b": 40}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_ruleset"
    Match.objects.filter(pk=m.pk).update(version=1, status="running")
    late = org_api.post(url, {"head_start": {"a": 0, "b": 1}}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "match_started"
    m.refresh_from_db()
    assert m.ruleset["head_start"] == {"a": 0, "b": 5}


def test_withdrawal_after_the_draw_walks_the_opponent_over(org_api, drawn, tournament):
    drawn(8)
    seed = seeds_of(tournament)
    reg = Registration.objects.get(tournament=tournament, player_id=seed[8])
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/{reg.pk}/withdraw/"
    response = org_api.post(url, {"reason": "заболел"}, format="json")
    assert response.status_code == 200, response.json()
    first = match(tournament, "U1-1")
    assert first.status == "walkover" and first.winner_id == seed[1]
    assert match(tournament, "U2-1").player_a_id == seed[1]
    # In the lower bracket he is walked over as soon as his opponent is known.
    lower = Match.objects.get(pk=first.loser_to_id)
    assert lower.status == "scheduled"
    finish(match(tournament, "U1-2"), "a")  # seed 5 loses and drops to meet seed 8
    lower.refresh_from_db()
    assert lower.status == "walkover"
    assert lower.winner_id == seed[5]
    assert not RatingChange.objects.filter(match__in=[first, lower]).exists()


def test_group_stage_feeds_the_playoff(tournament, organiser, api):
    tournament.format = "groups_playoff"
    tournament.group_size = 4
    tournament.group_advance = 2
    tournament.save()
    register(tournament, 8)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    group_matches = Match.objects.filter(tournament=tournament, stage="group")
    assert group_matches.count() == 12 and all(m.status == "ready" for m in group_matches)
    playoff = Match.objects.filter(tournament=tournament, stage="playoff")
    assert all(m.player_a_id is None for m in playoff)
    play_out(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert [g["complete"] for g in body["groups"]] == [True, True]
    assert body["groups"][0]["rows"][0]["wins"] == 3
    assert body["places"][0]["players"][0]["seed"] == 1
    assert sum(len(p["players"]) for p in body["places"]) == 8


def _groups_of_four(tournament, organiser):
    tournament.format = "groups_playoff"
    tournament.group_size = 4
    tournament.group_advance = 2
    tournament.save()
    register(tournament, 8)
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    return seeds_of(tournament)


def test_correcting_a_group_result_reseeds_the_playoff(org_api, tournament, organiser):
    seed = _groups_of_four(tournament, organiser)
    rank = {pid: s for s, pid in seed.items()}
    for m in Match.objects.filter(tournament=tournament, stage="group").order_by("pk"):
        finish(m, "a" if rank[m.player_a_id] < rank[m.player_b_id] else "b")
    group1 = {seed[s] for s in (1, 4, 5, 8)}
    seated = lambda: {  # noqa: E731
        pid
        for m in Match.objects.filter(tournament=tournament, stage="playoff")
        for pid in (m.player_a_id, m.player_b_id)
        if pid in group1
    }
    assert seated() == {seed[1], seed[4]}
    duel = Match.objects.get(
        tournament=tournament,
        stage="group",
        player_a_id__in=[seed[4], seed[5]],
        player_b_id__in=[seed[4], seed[5]],
    )
    slot5 = "a" if duel.player_a_id == seed[5] else "b"
    score = {"score_a": 30, "score_b": 10} if slot5 == "a" else {"score_a": 10, "score_b": 30}
    response = org_api.post(
        f"/api/v1/tournaments/{tournament.pk}/matches/{duel.pk}/correct/",
        {"winner": slot5, **score},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert seated() == {seed[1], seed[5]}
    semis = Match.objects.filter(tournament=tournament, stage="playoff", status="ready")
    assert all(m.ruleset.get("balls_to_win") for m in semis)


def test_withdrawal_in_the_groups_walks_over_all_his_matches(org_api, tournament, organiser):
    seed = _groups_of_four(tournament, organiser)
    reg = Registration.objects.get(tournament=tournament, player_id=seed[8])
    org_api.post(f"/api/v1/tournaments/{tournament.pk}/registrations/{reg.pk}/withdraw/")
    his = Match.objects.filter(tournament=tournament, stage="group").filter(
        Q(player_a_id=seed[8]) | Q(player_b_id=seed[8])
    )
    assert his.count() == 3
    assert all(m.status == "walkover" and m.loser_id == seed[8] for m in his)
    entry = AuditEntry.objects.get(action="registration_withdraw", tournament=tournament)
    assert entry.data["after_draw"] is True
