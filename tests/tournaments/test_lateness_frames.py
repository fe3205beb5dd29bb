"""Lateness that costs frames («опоздание на 15 минут — минус партия»): in a race of frames
each full step late credits the opponent frames in the match's own ruleset, never deciding
the match; the limit is a walkover as with balls. The setting is refused where a match is one
frame, and every page says what lateness cost."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

import rules
from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match
from tests.web.helpers import drawn_tournament, make_tournament, play_to_win, submit
from tournaments import services
from tournaments.audit_text import Speaker, sentence
from tournaments.errors import TournamentError
from tournaments.regulation import lateness_rule

pytestmark = pytest.mark.django_db

# A short race of frames: 3 frames of 5 balls.
RACE: dict[str, Any] = {"discipline": "free_pyramid", "balls_to_win": 5, "frames_to_win": 3}


def _frames_tournament(organiser: Any, **extra: Any) -> Any:
    return drawn_tournament(
        organiser,
        4,
        format="single",
        handicap_scheme="none",
        ruleset=RACE,
        lateness_step_minutes=15,
        lateness_penalty_balls=1,
        lateness_penalty_unit="frames",
        lateness_walkover_minutes=60,
        **extra,
    )


def _called(t: Any, minutes_ago: int) -> Match:
    match = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    assert match is not None
    Match.objects.filter(pk=match.pk).update(
        called_at=timezone.now() - timedelta(minutes=minutes_ago, seconds=5)
    )
    match.refresh_from_db()
    return match


def test_each_step_late_credits_the_opponent_a_frame(organiser):
    t = _frames_tournament(organiser)
    assert t.ruleset["frames_to_win"] == 3
    match = _called(t, 16)
    done = services.match_lateness(match=match, late_slot="a", actor=organiser)
    assert done == {"minutes": 16, "balls": 0, "frames": 1, "walkover": False}
    match.refresh_from_db()
    assert match.ruleset["frames_credit"] == {"a": 0, "b": 1}
    assert match.ruleset.get("head_start", {"a": 0, "b": 0}) == {"a": 0, "b": 0}
    assert match.state["frames"] == {"a": 0, "b": 1} and match.state["frame"] == 2
    assert match.head_start_overridden
    entry = AuditEntry.objects.get(action="match_lateness", match=match)
    assert entry.data["frames"] == 1 and entry.data["slot"] == "a"

    # A second tap in the same step adds nothing; the next step adds one more frame.
    assert services.match_lateness(match=match, late_slot="a", actor=organiser)["frames"] == 0
    match = _called(t, 31)
    assert services.match_lateness(match=match, late_slot="a", actor=organiser)["frames"] == 1
    match.refresh_from_db()
    assert match.ruleset["frames_credit"] == {"a": 0, "b": 2}
    # The credit never reaches the race: a third step in a race of 3 gives nothing more.
    match = _called(t, 46)
    assert services.match_lateness(match=match, late_slot="a", actor=organiser)["frames"] == 0
    match.refresh_from_db()
    assert match.ruleset["frames_credit"] == {"a": 0, "b": 2}
    assert not match.state["finished"]
    assert AuditEntry.objects.filter(action="match_lateness", match=match).count() == 2

    # At the limit: a walkover, as with balls.
    match = _called(t, 61)
    done = services.match_lateness(match=match, late_slot="a", actor=organiser)
    assert done["walkover"]
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER and match.winner_id == match.player_b_id


def test_both_players_late_are_credited_each_to_the_other(organiser):
    t = _frames_tournament(organiser)
    match = _called(t, 16)
    services.match_lateness(match=match, late_slot="a", actor=organiser)
    services.match_lateness(match=match, late_slot="b", actor=organiser)
    match.refresh_from_db()
    assert match.ruleset["frames_credit"] == {"a": 1, "b": 1}
    assert match.state["frames"] == {"a": 1, "b": 1}


def test_a_single_frame_match_refuses_frames_but_not_the_walkover(organiser):
    t = _frames_tournament(organiser)
    match = _called(t, 16)
    single = rules.validate_ruleset({**match.ruleset, "frames_to_win": 1})
    Match.objects.filter(pk=match.pk).update(ruleset=single, state=rules.initial_state(single))
    match.refresh_from_db()
    with pytest.raises(TournamentError) as err:
        services.match_lateness(match=match, late_slot="a", actor=organiser)
    assert err.value.code == "single_frame"
    assert "одна партия" in err.value.message
    match.refresh_from_db()
    assert match.ruleset["frames_credit"] == {"a": 0, "b": 0}
    assert not AuditEntry.objects.filter(action="match_lateness", match=match).exists()
    match = _called(t, 61)
    assert services.match_lateness(match=match, late_slot="a", actor=organiser)["walkover"]


def test_the_credited_frame_counts_in_the_result_and_the_bracket(organiser, client):
    t = _frames_tournament(organiser)
    match = _called(t, 16)
    services.match_lateness(match=match, late_slot="a", actor=organiser)  # b: 1 frame credited
    match.refresh_from_db()
    # The late player wins three frames, his opponent none at the table: 3:1, he wins.
    done = play_to_win(match, "a", organiser)
    assert done.state["frames"] == {"a": 3, "b": 1}
    done.refresh_from_db()
    assert (done.score_a, done.score_b) == (3, 1) and done.winner_id == done.player_a_id

    # The credit helps: b wins two frames at the table, which with the credit is the match.
    other = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    Match.objects.filter(pk=other.pk).update(
        called_at=timezone.now() - timedelta(minutes=16, seconds=5)
    )
    other.refresh_from_db()
    services.match_lateness(match=other, late_slot="a", actor=organiser)
    other.refresh_from_db()
    finished = play_to_win(other, "b", organiser)
    finished.refresh_from_db()
    assert (finished.score_a, finished.score_b) == (0, 3)
    assert finished.winner_id == finished.player_b_id
    assert finished.state["events"] < done.state["events"]  # one frame sooner

    client.force_login(organiser)
    assert client.get(f"/panel/m/{done.pk}/").status_code == 200
    # The API's match: the state's frames and the score say the credited frame.
    api = client.get(f"/api/v1/matches/{done.pk}/").json()
    assert api["score"]["frames"] == {"a": 3, "b": 1}


def test_an_undo_keeps_the_credit(organiser):
    t = _frames_tournament(organiser)
    match = _called(t, 16)
    services.match_lateness(match=match, late_slot="a", actor=organiser)
    match.refresh_from_db()
    state = match.state
    event: dict[str, Any] = {"type": "break", "player": state["turn"], "legal": True}
    event["pocketed"] = 0
    match = submit(match, event, organiser)
    undone = match_services.match_undo(
        match_id=match.pk, expected_version=match.version, actor=organiser
    ).match
    assert undone.state["frames"] == {"a": 0, "b": 1}


def test_the_words_say_frames(organiser, client):
    t = _frames_tournament(organiser)
    assert lateness_rule(t) == (
        "за каждые 15 мин опоздания от вызова — минус 1 партия; "
        "опоздание на 60 мин — техническая победа соперника"
    )
    match = _called(t, 16)
    client.force_login(organiser)
    response = client.post(
        f"/panel/t/{t.pk}/matches/{match.pk}/lateness/",
        {"late": "a", "next": f"/panel/m/{match.pk}/"},
        follow=True,
    )
    page = response.content.decode()
    assert "Опоздание 16 мин: минус 1 партия." in page
    name = match.player_a.name
    assert f"{name} опаздывает на 16 мин: −1 партия" in page
    entry = AuditEntry.objects.get(action="match_lateness", match=match)
    said = sentence(entry, Speaker(t, [entry]))
    assert f"{name} опаздывает на 16 мин, минус 1 партия (засчитана сопернику)" in said
    # The scoreboard's facts: the credited frame beside the frames won.
    board = client.get(f"/panel/m/{match.pk}/").content.decode()
    assert "1 партия зачтена" in board
    # The match sheet writes the credit beside the player.
    sheet = client.get(f"/panel/m/{match.pk}/print/sheet/").content.decode()
    assert "Зачтено партий" in sheet and 'data-credit="b">1<' in sheet


def test_regulation_printout_says_minus_a_frame(organiser, client):
    t = make_tournament(
        organiser,
        ruleset=RACE,
        handicap_scheme="none",
        lateness_step_minutes=15,
        lateness_penalty_unit="frames",
    )
    client.force_login(organiser)
    page = client.get(f"/panel/t/{t.pk}/print/regulation/").content.decode()
    assert "за каждые 15 мин опоздания от вызова — минус 1 партия" in page


def test_the_settings_page_refuses_frames_in_a_single_frame_race(client, organiser):
    t = make_tournament(organiser, handicap_scheme="none")
    assert t.ruleset["frames_to_win"] == 1
    client.force_login(organiser)
    form = client.get(f"/panel/t/{t.pk}/settings/").context["form"]
    assert "lateness_penalty_unit" in form.fields
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if field.disabled or value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    data["lateness_penalty_unit"] = "frames"
    response = client.post(f"/panel/t/{t.pk}/settings/", data)
    assert response.status_code == 400
    errors = response.context["form"].errors["lateness_penalty_unit"]
    assert "Штраф партиями возможен только во встрече на несколько партий" in errors[0]
    t.refresh_from_db()
    assert t.lateness_penalty_unit == "balls"

    # A race of frames in one stage is enough: the setting is taken.
    data["stage__playoff__frames_to_win"] = "3"
    response = client.post(f"/panel/t/{t.pk}/settings/", data)
    assert response.status_code == 302, response.context["form"].errors
    t.refresh_from_db()
    assert t.lateness_penalty_unit == "frames"


def test_the_api_sets_and_shows_the_unit(organiser):
    t = make_tournament(organiser, handicap_scheme="none")
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{t.pk}/"
    assert api.get(url).json()["lateness_penalty_unit"] == "balls"
    refused = api.patch(url, {"lateness_penalty_unit": "frames"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["params"]["field"] == "lateness_penalty_unit"
    bad = api.patch(url, {"lateness_penalty_unit": "minutes"}, format="json")
    assert bad.status_code == 400
    taken = api.patch(
        url,
        {"lateness_penalty_unit": "frames", "ruleset": {**RACE}, "lateness_step_minutes": 15},
        format="json",
    )
    assert taken.status_code == 200, taken.content
    assert taken.json()["lateness_penalty_unit"] == "frames"
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    schemas = schema["components"]["schemas"]
    assert "lateness_penalty_unit" in schemas["Tournament"]["properties"]
    assert "lateness_penalty_unit" in schemas["TournamentWriteRequest"]["properties"]
