"""The match's event log is the audit of balls: a ball, an undo and a walkover's forfeit write
no audit entry, and every audit view (the panel's log page and match control, the API, the
export) reads the audit entries and the log merged, newest first, paginated over both."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match, MatchEvent
from tests.web.helpers import drawn_tournament, first_ready
from tournaments.exchange import tournament_export, tournament_import
from tournaments.match_labels import match_label
from tournaments.selectors.audit import tournament_audit

pytestmark = pytest.mark.django_db

BREAK = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
SHOT_B = {"type": "shot", "player": "b", "pocketed": 1}


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def drawn(organiser, referee):
    referee.first_name, referee.last_name = "Пётр", "Судейкин"
    referee.save()
    return drawn_tournament(organiser, 8, referee=referee, format="double")


@pytest.fixture
def scorer(referee) -> APIClient:
    client = APIClient()
    client.force_login(referee)
    return client


@pytest.fixture
def organiser_api(organiser) -> APIClient:
    client = APIClient()
    client.force_login(organiser)
    return client


def post(client: APIClient, match: Match, path: str, body: dict[str, Any]) -> Any:
    match.refresh_from_db(fields=["version"])
    body = {**body, "expected_version": match.version, "idempotency_key": uuid.uuid4().hex}
    response = client.post(f"/api/v1/matches/{match.pk}/{path}/", body, format="json")
    assert response.status_code == 201, response.content
    return response


@pytest.fixture
def scored(drawn, scorer) -> Match:
    """A match with two balls and an undo of the second."""
    match = first_ready(drawn)
    post(scorer, match, "events", {"event": BREAK})
    post(scorer, match, "events", {"event": SHOT_B})
    post(scorer, match, "undo", {})
    return match


def test_a_ball_and_an_undo_write_no_audit_entry(scored) -> None:
    assert MatchEvent.objects.filter(match=scored).count() == 3
    assert not AuditEntry.objects.filter(action__in=["match.event", "match.undo"]).exists()
    entries = MatchEvent.objects.filter(match=scored).order_by("seq")
    assert {(e.actor.username, e.actor_name) for e in entries} == {(entries[0].actor_name,) * 2}


def test_a_ball_shows_in_the_tournaments_audit_api_with_who_when_and_what(
    scored, drawn, referee, organiser_api
) -> None:
    body = organiser_api.get(f"/api/v1/tournaments/{drawn.pk}/audit/").json()
    rows = [r for r in body["results"] if r["action"] in ("match.event", "match.undo")]
    assert [(r["action"], r["match"]) for r in rows] == [
        ("match.undo", scored.pk),
        ("match.event", scored.pk),
        ("match.event", scored.pk),
    ]
    undo, _shot, first = rows
    assert first["actor"] == referee.username and first["actor_id"] == referee.pk
    assert first["data"] == {"seq": 1, "event": BREAK, "version": 1}
    assert first["match_key"] == scored.key and first["tournament"] == drawn.pk
    assert first["created_at"] and not first["imported"]
    assert undo["data"] == {"seq": 3, "undone_seq": 2, "event": SHOT_B, "version": 3}
    assert len({r["id"] for r in body["results"]}) == len(body["results"])  # ids stay unique
    assert body["count"] == AuditEntry.objects.filter(tournament=drawn).count() + 3

    by_match = organiser_api.get(f"/api/v1/matches/{scored.pk}/audit/").json()["results"]
    assert [r for r in by_match if r["action"].startswith("match.")][:3] == rows
    filtered = organiser_api.get(f"/api/v1/tournaments/{drawn.pk}/audit/?match={scored.pk}")
    assert filtered.json()["results"] == by_match


def test_a_ball_shows_in_the_panels_log_page_and_match_control(scored, drawn, organiser) -> None:
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/panel/t/{drawn.pk}/audit/").content.decode()
    label = match_label(scored.key)
    assert f"Referee Пётр Судейкин in match {label}:" in page
    assert f"Referee Пётр Судейкин undid in match {label}:" in page

    scoring = client.get(f"/panel/t/{drawn.pk}/audit/", {"kind": "scoring"}).context["page"]
    assert [e.action for e in scoring.object_list] == ["match.undo", "match.event", "match.event"]
    results = client.get(f"/panel/t/{drawn.pk}/audit/", {"kind": "results"}).context["page"]
    assert not [e for e in results.object_list if e.action.startswith("match.e")]
    by_person = client.get(f"/panel/t/{drawn.pk}/audit/", {"person": "Судейкин"})
    assert len(by_person.context["page"].object_list) == 3
    by_match = client.get(f"/panel/t/{drawn.pk}/audit/", {"match": scored.key})
    assert {e.match_id for e in by_match.context["page"].object_list} == {scored.pk}

    control = client.get(f"/panel/m/{scored.pk}/").content.decode()
    assert f"Referee Пётр Судейкин undid in match {label}:" in control


def test_pages_of_the_merged_log_are_disjoint_and_newest_first(
    scored, drawn, organiser_api
) -> None:
    url = f"/api/v1/tournaments/{drawn.pk}/audit/"
    total = organiser_api.get(url).json()["count"]
    seen = []
    for offset in range(0, total, 4):
        page = organiser_api.get(url, {"limit": 4, "offset": offset}).json()
        assert page["count"] == total
        seen += page["results"]
    assert len(seen) == total and len({r["id"] for r in seen}) == total
    times = [r["created_at"] for r in seen]
    assert times == sorted(times, reverse=True)
    log = tournament_audit(tournament=drawn)
    assert len(log) == total and [e.pk for e in log[2:5]] == [r["id"] for r in seen[2:5]]


def test_a_walkovers_forfeit_is_audited_by_the_log_and_the_walkover_entry(
    drawn, scorer, organiser
) -> None:
    match = first_ready(drawn)
    post(scorer, match, "events", {"event": BREAK})
    match_services.match_walkover(match=match, winner_slot="a", actor=organiser, reason="ушёл")
    assert not AuditEntry.objects.filter(action="match.event").exists()
    log = tournament_audit(tournament=drawn, match_id=match.pk)
    balls = [e.data["event"] for e in log if e.action == "match.event"]
    assert balls == [{"type": "forfeit", "player": "b"}, BREAK]  # newest first
    actions = [e.action for e in log]
    assert "match.walkover" in actions and "match.finished" in actions


def test_the_clocks_own_expiry_reads_once(drawn, scorer) -> None:
    match = first_ready(drawn)
    post(scorer, match, "events", {"event": BREAK})
    match.refresh_from_db()
    past = timezone.now() - timezone.timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(
        clock_running_since=past - timezone.timedelta(seconds=match.clock_limit_seconds or 60),
        clock_deadline=past,
        clock_limit_seconds=match.clock_limit_seconds or 60,
    )
    assert match_services.match_clock_expire(match_id=match.pk) is True
    actions = [e.action for e in tournament_audit(tournament=drawn, match_id=match.pk)]
    assert actions.count("match.clock_expired") == 1
    assert actions.count("match.event") == 1  # the break; the clock's time_expired is the above


def test_an_export_keeps_who_scored_and_an_older_document_is_read_without_doubles(
    scored, drawn, referee, organiser
) -> None:
    document = tournament_export(tournament=drawn)
    assert {e["actor_name"] for e in document["events"]} == {referee.username}
    assert not [a for a in document["audit"] if a["action"] in ("match.event", "match.undo")]

    # A document written before: no names in the log, an audit entry per ball.
    key = scored.key
    for event in document["events"]:
        event.pop("actor_name"), event.pop("imported")
        if event["match"] == key:
            document["audit"].append(
                {
                    "match": key,
                    "player": None,
                    "actor_name": "old_referee",
                    "action": "match.event" if event["kind"] == "event" else "match.undo",
                    "data": {"seq": event["seq"], "event": event["payload"]},
                    "imported": False,
                    "created_at": event["created_at"],
                }
            )
    imported = tournament_import(document=document, actor=organiser)
    match = Match.objects.get(tournament=imported, key=key)
    log = tournament_audit(tournament=imported, match_id=match.pk)
    balls = [e for e in log if e.action in ("match.event", "match.undo")]
    assert len(balls) == 3
    assert {(e.actor_name, e.imported) for e in balls} == {("old_referee", True)}
    assert not AuditEntry.objects.filter(tournament=imported, action="match.event").exists()


def test_the_migration_gives_the_per_ball_entries_names_to_the_log_and_drops_them(
    drawn, referee
) -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("matches.migrations.0007_event_log_is_the_audit_of_balls")
    match = first_ready(drawn)
    events = [
        MatchEvent.objects.create(match=match, seq=seq, payload=BREAK, actor=referee)
        for seq in (1, 2)
    ]
    for event in events:
        AuditEntry.objects.create(
            tournament=drawn,
            match=match,
            actor=referee,
            actor_name="was_" + referee.username,
            action="match.event",
            data={"seq": event.seq, "event": BREAK, "version": event.seq},
        )
    orphan = AuditEntry.objects.create(  # its log entry is not there: it stays
        tournament=drawn, match=match, action="match.event", data={"seq": 99}
    )
    other = AuditEntry.objects.create(tournament=drawn, match=match, action="match.hold")

    migration.move_per_ball_entries(apps, None)

    assert set(MatchEvent.objects.filter(match=match).values_list("actor_name", flat=True)) == {
        "was_" + referee.username
    }
    left = set(AuditEntry.objects.filter(match=match).values_list("pk", flat=True))
    assert {orphan.pk, other.pk} <= left and len(left & {orphan.pk, other.pk}) == 2
    assert not AuditEntry.objects.filter(match=match, data__seq__in=[1, 2]).exists()
