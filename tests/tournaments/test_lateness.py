"""Lateness from the call time: each full step late costs balls (the opponent's head start),
past the limit a walkover; one tap on the match's page, recorded and shown."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from matches.models import Match
from tests.web.helpers import drawn_tournament
from tournaments import services
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


def _called(t, minutes_ago: int) -> Match:
    match = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(
        called_at=timezone.now() - timedelta(minutes=minutes_ago, seconds=5)
    )
    match.refresh_from_db()
    return match


def test_every_step_late_costs_balls_and_the_limit_is_a_walkover(client, organiser):
    t = drawn_tournament(
        organiser,
        4,
        format="single",
        handicap_scheme="none",
        lateness_step_minutes=10,
        lateness_penalty_balls=2,
        lateness_walkover_minutes=30,
    )
    match = _called(t, 5)
    with pytest.raises(TournamentError) as early:
        services.match_lateness(match=match, late_slot="a", actor=organiser)
    assert early.value.code == "not_late"

    match = _called(t, 21)  # two full steps: minus 4 balls
    done = services.match_lateness(match=match, late_slot="a", actor=organiser)
    assert done == {"minutes": 21, "balls": 4, "frames": 0, "walkover": False}
    match.refresh_from_db()
    assert match.ruleset["head_start"] == {"a": 0, "b": 4}
    # A second tap in the same step adds nothing.
    assert services.match_lateness(match=match, late_slot="a", actor=organiser)["balls"] == 0

    client.force_login(organiser)
    page = client.get(f"/panel/m/{match.pk}/").content.decode()
    assert "data-lateness" in page and "21" in page

    match = _called(t, 31)
    client.post(f"/panel/t/{t.pk}/matches/{match.pk}/lateness/", {"late": "a"})
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER and match.winner_id == match.player_b_id
    assert AuditEntry.objects.filter(action="match_lateness", match=match).count() == 2
