"""Lateness tapped at the table: the referee's form offers the desk's lateness action (one
tap per player, counted from the call), through the same service, audited and shown."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from matches.models import Match
from tests.factories import UserFactory
from tests.web.helpers import drawn_tournament

pytestmark = pytest.mark.django_db


def test_the_referee_taps_a_late_player_and_sees_what_it_cost(referee_client, organiser, referee):
    t = drawn_tournament(
        organiser,
        4,
        referee=referee,
        format="single",
        handicap_scheme="none",
        lateness_step_minutes=10,
        lateness_penalty_balls=1,
        lateness_walkover_minutes=30,
    )
    match = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    url = f"/m/{match.pk}/score/"
    assert "data-lateness" not in referee_client.get(url).content.decode()  # not called yet
    Match.objects.filter(pk=match.pk).update(
        called_at=timezone.now() - timedelta(minutes=12, seconds=5)
    )
    page = referee_client.get(url).content.decode()
    assert 'data-late="a"' in page and 'data-late="b"' in page

    response = referee_client.post(f"/m/{match.pk}/late/", {"late": "b"}, follow=True)
    assert "12 min late: minus 1 balls." in response.content.decode()
    match.refresh_from_db()
    assert match.ruleset["head_start"] == {"a": 1, "b": 0}
    entry = AuditEntry.objects.get(action="match_lateness", match=match)
    assert entry.actor_id == referee.pk and entry.data["slot"] == "b"
    assert "12 min late" in response.content.decode()  # the log under the taps

    # Refusals come back as a message, never an error page; a stranger may not tap.
    response = referee_client.post(f"/m/{match.pk}/late/", {"late": "c"}, follow=True)
    assert response.status_code == 200 and "Say which player is late" in response.content.decode()


def test_a_player_scoring_himself_may_not_tap_lateness(client, organiser):
    t = drawn_tournament(organiser, 4, format="single", self_scoring=True, lateness_step_minutes=10)
    match = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(called_at=timezone.now() - timedelta(minutes=15))
    match.player_a.user = UserFactory()
    match.player_a.save(update_fields=["user"])
    client.force_login(match.player_a.user)
    assert "data-lateness" not in client.get(f"/m/{match.pk}/score/").content.decode()
    assert client.post(f"/m/{match.pk}/late/", {"late": "b"}).status_code == 403
    assert not AuditEntry.objects.filter(action="match_lateness").exists()
