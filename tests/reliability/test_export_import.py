"""A whole tournament exports to one JSON file and imports into an empty database with identical
standings and prizes."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from audit.models import AuditEntry
from matches import services as match_services
from matches.models import Match, MatchEvent
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.exchange import ImportError_, tournament_export, tournament_import
from tournaments.models import Player, Tournament
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings
from tournaments.services import registration_add, registration_set_paid, tournament_draw

pytestmark = pytest.mark.django_db


def _names(block: dict) -> list[tuple[str, list[str], str | None]]:
    """Standings or prizes, with people by name (primary keys differ after an import)."""
    rows = block.get("places") or block.get("awards") or []
    out = []
    for row in rows:
        names = sorted(p["name"] for p in row["players"])
        out.append((row["label"], names, str(row.get("amount_each", "")) or None))
    return out


def _play_out(tournament: Tournament, organiser) -> None:
    """Play every match to the end: the better-rated player wins by a forfeit of the other."""
    for _ in range(64):
        match = (
            Match.objects.filter(tournament=tournament, status=Match.Status.READY)
            .select_related("player_a", "player_b")
            .order_by("schedule_round", "pk")
            .first()
        )
        if match is None:
            return
        loser = "b" if match.player_a.rating >= match.player_b.rating else "a"
        match_services.match_submit_event(
            match_id=match.pk,
            event={"type": "break", "player": match.state["turn"], "legal": True, "pocketed": 1},
            expected_version=match.version,
            actor=organiser,
        )
        match.refresh_from_db()
        match_services.match_submit_event(
            match_id=match.pk,
            event={"type": "forfeit", "player": loser},
            expected_version=match.version,
            actor=organiser,
        )


def test_a_finished_tournament_survives_export_and_import(organiser, tmp_path) -> None:
    tournament = TournamentFactory(
        organisers=[organiser],
        format="single",
        third_place="match",
        entry_fee=Decimal("1000"),
        max_players=8,
    )
    for player in PlayerFactory.create_batch(8):
        registration = registration_add(tournament=tournament, player=player, actor=organiser)
        registration_set_paid(registration=registration, paid=True, actor=organiser)
    tournament_draw(tournament=tournament, actor=organiser, method="random", random_seed=2026)
    _play_out(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    standings = _names(tournament_standings(tournament=tournament))
    prizes = _names(tournament_prizes(tournament=tournament))
    events = MatchEvent.objects.filter(match__tournament=tournament).count()
    assert len(standings) >= 4 and prizes

    path = tmp_path / "tournament.json"
    call_command("export_tournament", tournament.pk, output=str(path))
    assert path.stat().st_mode & 0o777 == 0o600  # names and fees: the owner's eyes only
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document == tournament_export(tournament=tournament)

    # An empty database, as far as this tournament is concerned.
    AuditEntry.objects.all().delete()
    tournament.delete()
    Player.objects.all().delete()

    call_command("import_tournament", str(path))
    imported = Tournament.objects.get()
    assert _names(tournament_standings(tournament=imported)) == standings
    assert _names(tournament_prizes(tournament=imported)) == prizes
    assert MatchEvent.objects.filter(match__tournament=imported).count() == events
    assert imported.status == Tournament.Status.FINISHED
    assert organiser in imported.organisers.all()


def test_a_broken_document_is_refused_and_nothing_is_written() -> None:
    with pytest.raises(ImportError_):
        tournament_import(document={"format": "something else"})
    document = {
        "format": "luza-tournament",
        "version": 1,
        "tournament": {"name": "x", "date": "2026-12-01"},
        "players": [],
        "registrations": [{"player": 99}],
        "tables": [],
        "matches": [],
        "events": [],
    }
    with pytest.raises(ImportError_):
        tournament_import(document=document)
    assert not Tournament.objects.exists()


GAMES = {
    "combined_pyramid": (
        {"discipline": "combined_pyramid"},
        {"legal": True, "pocketed": 1, "cue_ball": "pocketed"},  # a «свояк» on the break
    ),
    "dynamic_pyramid": (
        {"discipline": "dynamic_pyramid", "direct_call": True},
        {"legal": True, "pocketed": 2, "cue_ball": "pocketed"},
    ),
    "classic_pyramid": (
        {"discipline": "classic_pyramid", "foul_deduct": 2, "foul_award": 3},
        {"legal": True, "pocketed": [1, 15]},  # numbered balls
    ),
}


@pytest.mark.parametrize("discipline", sorted(GAMES))
def test_a_tournament_of_each_coloured_cue_ball_game_survives_export_and_import(
    organiser, tmp_path, discipline: str
) -> None:
    """Its ruleset (classic's penalty), its events (the cue ball, numbered balls) and its
    matches' states come back as they were."""
    ruleset, opening = GAMES[discipline]
    tournament = TournamentFactory(
        organisers=[organiser],
        format="single",
        discipline=discipline,
        ruleset=ruleset,
        handicap_scheme="none",
    )
    for player in PlayerFactory.create_batch(4):
        registration = registration_add(tournament=tournament, player=player, actor=organiser)
        registration_set_paid(registration=registration, paid=True, actor=organiser)
    tournament_draw(tournament=tournament, actor=organiser, method="random", random_seed=7)
    for _ in range(8):
        match = Match.objects.filter(tournament=tournament, status=Match.Status.READY).first()
        if match is None:
            break
        for event in (
            {"type": "break", "player": match.state["turn"], **opening},
            {"type": "forfeit", "player": "b"},
        ):
            match_services.match_submit_event(
                match_id=match.pk, event=event, expected_version=match.version, actor=organiser
            )
            match.refresh_from_db()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    states = sorted(
        json.dumps(m.state, sort_keys=True) for m in Match.objects.filter(tournament=tournament)
    )
    path = tmp_path / "tournament.json"
    call_command("export_tournament", tournament.pk, output=str(path))
    AuditEntry.objects.all().delete()
    tournament.delete()
    Player.objects.all().delete()
    call_command("import_tournament", str(path))
    imported = Tournament.objects.get()
    assert imported.discipline == discipline and imported.ruleset["discipline"] == discipline
    assert (
        sorted(
            json.dumps(m.state, sort_keys=True) for m in Match.objects.filter(tournament=imported)
        )
        == states
    )
