"""Load a demo a newcomer understands at once (idempotent: nothing happens if it exists).

* "Кубок клуба «Луза»": 32 players of the free pyramid to 30, a 32×16 bracket (double
  elimination until 16 remain, then single elimination), half played, four matches running
  on tables with their clocks ticking.
* "Осенний турнир «Лузы»", two weeks earlier: 8 players, single elimination, finished, with
  its prizes and diplomas.

Everything goes through the real services (register, pay, draw, tables, events), with events
drawn by the rules engine's simulator, so the pages show what a real day looks like.
"""

from __future__ import annotations

import os
import random
import secrets
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from matches import services as match_services
from matches.models import Match
from matches.selectors import LIVE
from rules.simulate import random_event
from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.services.logins import login_ensure

RUNNING_NAME = "Кубок клуба «Луза»"
FINISHED_NAME = "Осенний турнир «Лузы»"
VENUE = "Бильярдный клуб «Луза», Москва"
# One small tournament of each coloured-cue-ball game (preset, name, description): a semifinal
# played, the other on a table for the referee to play.
GAMES = (
    (
        "combined_pyramid",
        "Московская пирамида в «Лузе»",
        "Комбинированная пирамида по официальным правилам: партии до 8 очков, матч до двух побед.",
    ),
    (
        "dynamic_pyramid",
        "Невская пирамида в «Лузе»",
        "Динамичная пирамида: после свояка биток с руки с любого места.",
    ),
    (
        "classic_pyramid",
        "Классическая пирамида в «Лузе»",
        "Классическая пирамида до 71 очка, заказ шара и лузы; штраф — 3 очка сопернику.",
    ),
)
# A match that is to stay on its table stops when a player is this close to the race.
NEAR_THE_END_BALLS = 8
CHIEF_JUDGE = "Сергеев Андрей Викторович"
REFEREE = "referee"

# (name, city, rating): ratings from 700 to 1200, as in an amateur league.
PLAYERS = [
    ("Смирнов Алексей", "Москва", 1195),
    ("Кузнецов Дмитрий", "Москва", 1168),
    ("Попов Сергей", "Химки", 1142),
    ("Васильев Андрей", "Москва", 1120),
    ("Петров Михаил", "Мытищи", 1101),
    ("Соколов Игорь", "Москва", 1085),
    ("Михайлов Олег", "Королёв", 1063),
    ("Новиков Павел", "Москва", 1047),
    ("Фёдоров Артём", "Люберцы", 1030),
    ("Морозов Николай", "Москва", 1012),
    ("Волков Евгений", "Балашиха", 998),
    ("Алексеев Роман", "Москва", 985),
    ("Лебедев Виктор", "Москва", 969),
    ("Семёнов Владимир", "Подольск", 954),
    ("Егоров Максим", "Москва", 940),
    ("Павлов Кирилл", "Химки", 926),
    ("Козлов Денис", "Москва", 911),
    ("Степанов Илья", "Реутов", 897),
    ("Николаев Антон", "Москва", 884),
    ("Орлов Глеб", "Москва", 870),
    ("Андреев Тимур", "Долгопрудный", 856),
    ("Макаров Юрий", "Москва", 842),
    ("Никитин Степан", "Красногорск", 828),
    ("Захаров Григорий", "Москва", 815),
    ("Зайцев Вадим", "Москва", 801),
    ("Соловьёв Ярослав", "Одинцово", 788),
    ("Борисов Константин", "Москва", 773),
    ("Яковлев Руслан", "Москва", 760),
    ("Григорьев Фёдор", "Щёлково", 746),
    ("Романов Лев", "Москва", 731),
    ("Воробьёв Матвей", "Москва", 717),
    ("Сергеев Даниил", "Пушкино", 702),
]
CLUB = "Луза"
RUNNING_CLOCKS_MINUTES = (64, 41, 23, 7)  # time left on the four tables: one in its last 10'


def _keep_demo_login(filename: str, username: str, password: str) -> None:
    """The demo's logins, for `make run` to print at every start (run_banner). A laptop's demo
    only: a production set-up stores no password (ensure_organiser shows it once)."""
    path = Path(settings.VAR_DIR) / filename
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with open(fd, "w", encoding="utf-8") as fh:
        fh.write(f"{username}:{password}\n")


class Command(BaseCommand):
    help = "Load the demo tournaments (does nothing if they exist)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="Seed of the simulated play.")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        if Tournament.objects.filter(name=RUNNING_NAME).exists():
            self.stdout.write("The demo is already loaded.")
            return
        organiser = self._organiser()
        referee = self._referee()
        self.rng = random.Random(seed)
        # One transaction: a demo is either all there or not at all (and loads fast).
        with transaction.atomic():
            players = self._players(organiser)
            finished = self._finished_tournament(organiser, referee, players[4:12])
            running = self._running_tournament(organiser, referee, players)
            for number, (preset, name, text) in enumerate(GAMES):
                four = players[12 + 4 * number : 16 + 4 * number]
                self._games_tournament(organiser, referee, four, preset, name, text)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: “{running.name}” (running) and “{finished.name}” (finished)."
            )
        )

    # --- people --------------------------------------------------------------------------

    def _organiser(self) -> Any:
        User = get_user_model()
        user = User.objects.filter(username="organiser").first()
        if user is None:
            ensured = login_ensure(username="organiser", role="organiser")
            user = ensured.user
            _keep_demo_login("organiser-login.txt", user.username, ensured.password or "")
            self.stdout.write(f"Organiser login: {user.username}   password: {ensured.password}")
        return user

    def _referee(self) -> Any:
        User = get_user_model()
        user = User.objects.filter(username=REFEREE).first()
        if user is None:
            password = secrets.token_urlsafe(9)
            user = User.objects.create_user(username=REFEREE, password=password)
            _keep_demo_login("referee-login.txt", REFEREE, password)
            self.stdout.write(f"Referee login: {REFEREE}   password: {password}")
        user.groups.add(Group.objects.get(name="referee"))
        return user

    def _players(self, actor: Any) -> list[Player]:
        out = []
        for name, city, rating in PLAYERS:
            player = Player.objects.filter(name=name).first()
            if player is None:
                player = services.player_create(
                    actor=actor, name=name, city=city, club=CLUB, rating=rating
                )
            out.append(player)
        return out

    # --- tournaments ---------------------------------------------------------------------

    def _tournament(self, actor: Any, referee: Any, **data: Any) -> Tournament:
        tournament = services.tournament_create(actor=actor, data=data, preset="free_pyramid_30")
        tournament.referees.add(referee)
        services.tournament_open_registration(tournament=tournament, actor=actor)
        return tournament

    def _register_all(self, tournament: Tournament, players: list[Player], actor: Any) -> None:
        for player in players:
            reg = services.registration_add(tournament=tournament, player=player, actor=actor)
            services.registration_set_paid(registration=reg, paid=True, actor=actor)

    def _finished_tournament(self, actor: Any, referee: Any, players: list[Player]) -> Tournament:
        tournament = self._tournament(
            actor,
            referee,
            name=FINISHED_NAME,
            date=timezone.localdate() - timedelta(days=14),
            venue=VENUE,
            chief_judge=CHIEF_JUDGE,
            format=Tournament.Format.SINGLE,
            third_place=Tournament.ThirdPlace.MATCH,
            entry_fee=Decimal("1500"),
            max_players=16,
            description="Турнир выходного дня: свободная пирамида с продолжением до 30 шаров.",
        )
        self._register_all(tournament, players, actor)
        services.tournament_draw(tournament=tournament, actor=actor, method="seeded")
        match_services.tables_ensure(tournament=tournament, count=4, actor=actor)
        self._play(tournament, referee, actor, until_done=None)
        return tournament

    def _running_tournament(self, actor: Any, referee: Any, players: list[Player]) -> Tournament:
        tournament = self._tournament(
            actor,
            referee,
            name=RUNNING_NAME,
            date=timezone.localdate(),
            venue=VENUE,
            chief_judge=CHIEF_JUDGE,
            format=Tournament.Format.DOUBLE_TO_SINGLE,
            playoff_size=16,
            third_place=Tournament.ThirdPlace.SHARED,
            entry_fee=Decimal("2000"),
            max_players=32,
            description=(
                "Открытый турнир клуба. Сетка 32×16: двойное выбывание до 16 игроков, "
                "дальше олимпийская система. Гандикап по рейтингу."
            ),
        )
        self._register_all(tournament, players, actor)
        services.tournament_draw(tournament=tournament, actor=actor, method="seeded")
        tables = len(RUNNING_CLOCKS_MINUTES)
        match_services.tables_ensure(tournament=tournament, count=tables, actor=actor)
        real = Match.objects.filter(tournament=tournament, conditional=False).count()
        self._play(tournament, referee, actor, until_done=real // 2)
        self._start_tables(tournament, referee, actor)
        return tournament

    def _games_tournament(
        self, actor: Any, referee: Any, players: list[Player], preset: str, name: str, text: str
    ) -> Tournament:
        tournament = services.tournament_create(
            actor=actor,
            data={
                "name": name,
                "date": timezone.localdate(),
                "venue": VENUE,
                "chief_judge": CHIEF_JUDGE,
                "format": Tournament.Format.SINGLE,
                "third_place": Tournament.ThirdPlace.SHARED,
                "entry_fee": Decimal("1000"),
                "max_players": 8,
                "description": text,
            },
            preset=preset,
        )
        tournament.referees.add(referee)
        services.tournament_open_registration(tournament=tournament, actor=actor)
        self._register_all(tournament, players, actor)
        services.tournament_draw(tournament=tournament, actor=actor, method="seeded")
        match_services.tables_ensure(tournament=tournament, count=2, actor=actor)
        match_services.table_assign_next(tournament=tournament, actor=actor)
        live = Match.objects.filter(tournament=tournament, status__in=LIVE).order_by("pk")
        first = live.first()
        if first is not None:
            self._play_match(first, referee)
        match_services.table_assign_next(tournament=tournament, actor=actor)
        return tournament

    # --- play ----------------------------------------------------------------------------

    def _done(self, tournament: Tournament) -> int:
        return Match.objects.filter(
            tournament=tournament, status__in=(Match.Status.FINISHED, Match.Status.WALKOVER)
        ).count()

    def _play(
        self, tournament: Tournament, referee: Any, actor: Any, until_done: int | None
    ) -> None:
        """Matches go to tables in queue order and are played to the end, until `until_done`
        matches are finished (None: the whole tournament)."""
        while until_done is None or self._done(tournament) < until_done:
            match_services.table_assign_next(tournament=tournament, actor=actor)
            live = list(
                Match.objects.filter(tournament=tournament, status__in=LIVE).order_by(
                    "table__number", "pk"
                )
            )
            if not live:
                return
            for match in live:
                self._play_match(match, referee)
                if until_done is not None and self._done(tournament) >= until_done:
                    return

    def _event(self, state: dict[str, Any], quick: bool) -> dict[str, Any]:
        """The simulator's next event (no forfeit, no clock). `quick` games have visits of 1–3
        balls a shot, so that the history loads in seconds; the matches on the tables keep the
        simulator's pace."""
        event = random_event(state, self.rng, skill=0.8, rare=0)
        if state.get("discipline") != "free_pyramid":
            return event  # the other games as the simulator plays them
        scores = not (event.get("foul") or event.get("off_table") or event.get("legal") is False)
        if event["type"] in ("shot", "break") and event.get("pocketed") and scores:
            pocketed = event["pocketed"]
            if quick and event["type"] == "shot" and not event.get("fools"):
                pocketed = self.rng.choice((1, 2, 2, 3))
            # No run past the race: a final score reads 30:24, not 31:24.
            needed = state["ruleset"]["balls_to_win"] - state["score"][state["turn"]]
            room = state["balls_on_table"] - event.get("fools", 0)
            event["pocketed"] = max(1, min(pocketed, room, needed))
        return event

    def _play_match(self, match: Match, referee: Any, events: int | None = None) -> Match:
        """Simulated events until the match ends (or `events` are played; then the match stops
        well short of its race too, so that a match meant to stay on a table never ends)."""
        played = 0
        while not match.state.get("finished") and (events is None or played < events):
            if events is not None and self._near_the_end(match.state):
                break
            event = self._event(match.state, quick=events is None)
            result = match_services.match_submit_event(
                match_id=match.pk,
                event=event,
                expected_version=match.version,
                actor=referee,
            )
            match = result.match
            played += 1
        return match

    @staticmethod
    def _near_the_end(state: dict[str, Any]) -> bool:
        """A player is within a long run of the race (a match that is to stay under way)."""
        race = state.get("ruleset", {}).get("balls_to_win")
        if not race or not state.get("score"):
            return False
        return bool(max(state["score"].values()) >= race - NEAR_THE_END_BALLS)

    def _start_tables(self, tournament: Tournament, referee: Any, actor: Any) -> None:
        """Four matches under way: clocks running with different time left, scores on."""
        match_services.table_assign_next(tournament=tournament, actor=actor)
        on_tables = Match.objects.filter(
            tournament=tournament, status__in=LIVE, table__isnull=False
        ).order_by("table__number")
        for match, minutes in zip(on_tables, RUNNING_CLOCKS_MINUTES, strict=False):
            if match.status != Match.Status.RUNNING:
                match_services.match_clock(match_id=match.pk, action="start", actor=referee)
                match.refresh_from_db()
            # Long enough for a score, short of a race to 30.
            match = self._play_match(match, referee, events=self.rng.randint(12, 40))
            if match.state.get("finished"):
                continue
            match_services.match_clock(
                match_id=match.pk, action="adjust", actor=actor, remaining_seconds=minutes * 60
            )
