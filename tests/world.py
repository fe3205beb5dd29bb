"""A realistic tournament for the cross-cutting tests (security, reliability): every role, and
matches in every state an endpoint acts on, built through the real services."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Group

from matches import services as match_services
from matches.models import Match, Table
from tests.factories import OrganiserFactory, PlayerFactory, RefereeFactory, UserFactory
from tournaments import services
from tournaments.models import Player, Registration, Tournament

ROLE_GROUPS = ("organiser", "referee")


def ensure_role_groups() -> None:
    """The role groups come from a data migration; a transactional test elsewhere in the run
    flushes them, and a user without his group has no role."""
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


@dataclass
class World:
    organiser: Any
    referee: Any
    player_user: Any
    other_organiser: Any
    other_referee: Any
    superuser: Any
    tournament: Tournament
    other: Tournament
    registrations: list[Registration]
    finished: Match  # a result that can still be corrected
    running: Match  # on table 1, one event entered, the clock running
    on_table: Match  # called to table 2, not started
    ready: Match  # waiting in the queue, no table
    free_table: int  # a table in use with nothing on it
    extra: dict[str, Any] = field(default_factory=dict)

    def users(self) -> dict[str, Any]:
        return {
            "anonymous": None,
            "player": self.player_user,
            "referee": self.referee,
            "referee_other": self.other_referee,
            "organiser_other": self.other_organiser,
            "organiser": self.organiser,
            "superuser": self.superuser,
        }

    def registration_of(self, player_id: int) -> Registration:
        return next(r for r in self.registrations if r.player_id == player_id)


def make_tournament(organiser: Any, *, referee: Any = None, **data: Any) -> Tournament:
    values = {
        "name": "Кубок «Луза»",
        "date": dt.date(2026, 12, 5),
        "venue": "Клуб «Луза», Москва",
        "format": "single",
        "third_place": "shared",
        "entry_fee": "1000",
    }
    values.update(data)
    tournament = services.tournament_create(actor=organiser, data=values, preset="free_pyramid_30")
    if referee is not None:
        tournament.referees.add(referee)
    return services.tournament_open_registration(tournament=tournament, actor=organiser)


def register(tournament: Tournament, organiser: Any, players: list[Player]) -> list[Registration]:
    out = []
    for player in players:
        reg = services.registration_add(tournament=tournament, player=player, actor=organiser)
        out.append(services.registration_set_paid(registration=reg, paid=True, actor=organiser))
    return out


def ready_matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=tournament, status=Match.Status.READY)
        .select_related("player_a", "player_b")
        .order_by("schedule_round", "stage", "round", "order", "pk")
    )


def submit(match: Match, event: dict[str, Any], actor: Any) -> Match:
    match.refresh_from_db()
    match_services.match_submit_event(
        match_id=match.pk, event=event, expected_version=match.version, actor=actor
    )
    match.refresh_from_db()
    return match


def opening_break(match: Match) -> dict[str, Any]:
    """A legal break with nothing pocketed, by whoever breaks."""
    match.refresh_from_db()
    return {"type": "break", "player": match.state["turn"], "legal": True, "pocketed": 0}


def finish_by_forfeit(match: Match, actor: Any, loser: str = "b") -> Match:
    submit(match, opening_break(match), actor)
    return submit(match, {"type": "forfeit", "player": loser}, actor)


def build_world(*, public: bool = True, players: int = 8) -> World:
    """Single elimination of 8, drawn by rating: one first-round match finished, one running on
    table 1, one waiting at table 2, one in the queue; table 3 free. Every user is a separate
    login; the organisers carry the staff flag older set-ups gave them, which must open nothing
    (the admin is the superusers')."""
    ensure_role_groups()
    organiser = OrganiserFactory(is_staff=True)
    referee = RefereeFactory()
    other_organiser = OrganiserFactory(is_staff=True)
    other_referee = RefereeFactory()
    superuser = UserFactory(is_superuser=True, is_staff=True)
    player_user = UserFactory()

    tournament = make_tournament(organiser, referee=referee, is_public=public)
    regs = register(tournament, organiser, PlayerFactory.create_batch(players))
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    match_services.tables_ensure(tournament=tournament, count=3, actor=organiser)

    first, second, third, fourth = ready_matches(tournament)[:4]
    finished = finish_by_forfeit(first, organiser)
    match_services.match_assign_table(match=second, table=1, actor=organiser)
    running = submit(second, opening_break(second), referee)
    match_services.match_assign_table(match=third, table=2, actor=organiser)
    third.refresh_from_db()
    fourth.refresh_from_db()

    # The player's login belongs to a player of the running match.
    Player.objects.filter(pk=running.player_a_id).update(user=player_user)

    other = make_tournament(other_organiser, referee=other_referee, name="Другой турнир")
    register(other, other_organiser, PlayerFactory.create_batch(2))

    tournament.refresh_from_db()
    return World(
        organiser=organiser,
        referee=referee,
        player_user=player_user,
        other_organiser=other_organiser,
        other_referee=other_referee,
        superuser=superuser,
        tournament=tournament,
        other=other,
        registrations=[Registration.objects.get(pk=r.pk) for r in regs],
        finished=finished,
        running=running,
        on_table=third,
        ready=fourth,
        free_table=Table.objects.get(tournament=tournament, number=3).number,
    )


def build_finished(organiser: Any, *, referee: Any = None, public: bool = True) -> Tournament:
    """A finished single elimination of 4: places 1-3 decided (diplomas exist)."""
    tournament = make_tournament(
        organiser, referee=referee, name="Финал сезона", is_public=public, third_place="match"
    )
    register(tournament, organiser, PlayerFactory.create_batch(4))
    services.tournament_draw(tournament=tournament, actor=organiser, method="seeded")
    for _ in range(8):
        ready = ready_matches(tournament)
        if not ready:
            break
        for match in ready:
            finish_by_forfeit(match, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament
