"""One true record, checked as a property: random tournaments of every format and many sizes,
driven through the services with random results (races, corrections, walkovers, no-shows,
forfeits, time expiries, withdrawals and disqualifications at random moments). After every
single step every read selector answers and every public and panel page renders (200), the
result of each match is the same everywhere, no started match was re-seated, and at the end
the prizes add up exactly to the pool.

A seeded random driver, not hypothesis: each scenario is reproducible from its seed (in the
test id), and the whole run stays within a minute.
"""

from __future__ import annotations

import itertools
import os
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

import rules
from matches import services as match_services
from matches.errors import MatchError
from matches.models import Match
from tests.tournaments.factories import register
from tests.tournaments.helpers import finish
from tournaments import services
from tournaments.diplomas import diploma_entries, diploma_places
from tournaments.errors import TournamentError
from tournaments.models import Registration, Tournament
from tournaments.selectors.audit import tournament_audit
from tournaments.selectors.bracket import tournament_bracket
from tournaments.selectors.desk import registration_list, registration_totals
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db

DONE = ("finished", "walkover")
STARTED = ("running", "paused", "finished", "walkover")
PENDING = ("scheduled", "ready", "on_table", "running", "paused")
REFUSALS = (TournamentError, MatchError, rules.RuleError)
SIX_PLACES = ["40", "25", "15", "10", "5", "5"]  # places 5 and 6 paid: a shared 5–6 in double


@dataclass(frozen=True)
class Scenario:
    seed: int
    size: int
    settings: dict[str, Any] = field(default_factory=dict)
    # Pages are rendered after every step; in the largest brackets after every n-th step
    # (the selectors still answer after every one).
    pages_every: int = 1

    def __str__(self) -> str:
        fmt = self.settings.get("format", "double")
        return f"{fmt}-{self.size}-seed{self.seed}"


SCENARIOS = [
    Scenario(1, 2, {"format": "single"}),
    Scenario(2, 4, {"format": "single", "third_place": "shared"}),
    Scenario(3, 8, {"format": "single", "third_place": "shared", "withdrawn_prize": "pay"}),
    Scenario(4, 7, {"format": "single", "third_place": "match", "place_shares": SIX_PLACES}),
    Scenario(5, 3, {"format": "double", "grand_final": "reset"}),
    Scenario(6, 6, {"format": "double", "place_shares": SIX_PLACES, "no_show_rule": "out"}),
    Scenario(
        7,
        8,
        {"format": "double", "grand_final": "reset", "place_shares": SIX_PLACES},
        pages_every=2,
    ),
    Scenario(
        8, 11, {"format": "double", "grand_final": "none", "no_show_rule": "out"}, pages_every=2
    ),
    Scenario(9, 12, {"format": "double_to_single", "playoff_size": 4}, pages_every=2),
    Scenario(10, 9, {"format": "groups_playoff", "group_size": 3, "group_advance": 2}),
    Scenario(11, 5, {"format": "groups_playoff", "group_size": 5, "group_advance": 1}),
    Scenario(12, 16, {"format": "double", "place_shares": SIX_PLACES}, pages_every=3),
    Scenario(13, 64, {"format": "single", "third_place": "shared"}, pages_every=16),
    Scenario(
        14,
        24,
        {"format": "double", "grand_final": "reset", "place_shares": SIX_PLACES},
        pages_every=8,
    ),
    Scenario(
        15, 16, {"format": "groups_playoff", "group_size": 4, "group_advance": 2}, pages_every=2
    ),
    Scenario(
        16,
        21,
        {"format": "double_to_single", "playoff_size": 8, "no_show_rule": "out"},
        pages_every=4,
    ),
    Scenario(17, 5, {"format": "single", "third_place": "match", "withdrawn_prize": "pay"}),
]


def _random_scenarios(seed: int, count: int) -> list[Scenario]:
    """More tournaments to explore (LUZA_RECORD_SEED=n LUZA_RECORD_COUNT=k): any format, any
    size from 2 to 64, random settings."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        size = rng.choice([rng.randint(2, 12), rng.randint(2, 64)])
        fmt = rng.choice(["single", "double", "double_to_single", "groups_playoff"])
        settings: dict[str, Any] = {
            "format": fmt,
            "third_place": rng.choice(["match", "shared"]),
            "grand_final": rng.choice(["none", "single", "reset"]),
            "withdrawn_prize": rng.choice(["withhold", "pay"]),
            "no_show_rule": rng.choice(["lower_bracket", "out"]),
            "place_shares": rng.choice([["45", "30", "25"], SIX_PLACES, ["100"]]),
        }
        if fmt == "double_to_single":
            sizes = [n for n in (2, 4, 8, 16) if n < size]
            if not sizes:
                settings["format"] = "double"
            else:
                settings["playoff_size"] = rng.choice(sizes)
        if fmt == "groups_playoff":
            group = rng.randint(2, min(size, 6))
            groups = -(-size // group)
            if size < 2 * groups:  # groups of at least two
                group, groups = size, 1
            settings["group_size"] = group
            settings["group_advance"] = rng.randint(1, size // groups)
        out.append(Scenario(seed * 1000 + i, size, settings, pages_every=max(1, size // 8)))
    return out


EXPLORE = int(os.environ.get("LUZA_RECORD_COUNT", "0"))
if EXPLORE:
    SCENARIOS = _random_scenarios(int(os.environ.get("LUZA_RECORD_SEED", "1")), EXPLORE)


def _pages(tournament: Tournament, *, all_of_them: bool) -> list[str]:
    """The pages showing results, places and money; with ``all_of_them`` the rest of the
    tournament's pages too (desk, tables, audit)."""
    t = tournament.pk
    pages = [
        f"/t/{t}/",
        f"/t/{t}/bracket/",
        f"/t/{t}/standings/",
        f"/t/{t}/prizes/",
        f"/api/v1/tournaments/{t}/standings/",
        f"/api/v1/tournaments/{t}/prizes/",
        f"/panel/t/{t}/prizes/",
        f"/panel/t/{t}/diplomas/",
    ]
    if all_of_them:
        pages += [
            f"/api/v1/tournaments/{t}/",
            f"/api/v1/tournaments/{t}/registrations/",
            f"/panel/t/{t}/",
            f"/panel/t/{t}/registrations/",
            f"/panel/t/{t}/tables/",
            f"/panel/t/{t}/audit/",
        ]
    return pages


class Driver:
    def __init__(self, scenario: Scenario, organiser: Any, client: Client) -> None:
        self.rng = random.Random(scenario.seed)
        self.scenario = scenario
        self.organiser = organiser
        self.client = client
        data = {
            "name": f"Турнир {scenario}",
            "date": "2026-12-01",
            "entry_fee": "700",
            "prize_unit": "10",
            **scenario.settings,
        }
        self.tournament = services.tournament_create(
            actor=organiser, data=data, preset="free_pyramid_30"
        )
        services.tournament_open_registration(tournament=self.tournament, actor=organiser)
        ratings = [self.rng.randint(700, 1300) for _ in range(scenario.size)]
        self.regs = register(self.tournament, scenario.size, ratings=ratings, fee=Decimal(700))
        services.tournament_draw(
            tournament=self.tournament, actor=organiser, method="random", random_seed=scenario.seed
        )
        self.seated: dict[int, tuple[int | None, int | None]] = {}  # started match -> players
        self.results: dict[int, tuple[Any, ...]] = {}  # done match -> its result
        self.step = 0
        self.log: list[str] = []
        self.touched: int | None = None  # the match the last step acted on

    # --- reading ------------------------------------------------------------------------

    def matches(self) -> list[Match]:
        return list(Match.objects.filter(tournament=self.tournament).order_by("pk"))

    def check(self, *, corrected: int | None = None) -> None:
        """Every read after one step, and the record's invariants."""
        tournament = Tournament.objects.get(pk=self.tournament.pk)
        where = f"{self.scenario} step {self.step} ({self.log[-1] if self.log else 'draw'})"
        bracket = tournament_bracket(tournament=tournament)
        standings = tournament_standings(tournament=tournament)
        prizes = tournament_prizes(tournament=tournament)
        registration_totals(tournament=tournament)
        list(registration_list(tournament=tournament))
        list(tournament_audit(tournament=tournament)[:5])
        diplomas = diploma_entries(tournament)
        finished = tournament.status == Tournament.Status.FINISHED
        if self.step % self.scenario.pages_every == 0 or finished:
            every = self.step % (5 * self.scenario.pages_every) == 0 or finished
            for url in _pages(tournament, all_of_them=every):
                response = self.client.get(url)
                assert response.status_code == 200, (where, url, response.status_code)
        rows = self.matches()
        api = None
        if self.step % self.scenario.pages_every == 0:
            api = self.client.get(f"/api/v1/tournaments/{self.tournament.pk}/bracket/").json()
        self._same_result_everywhere(rows, bracket, api, where)
        if self.touched is not None:
            self._match_pages_agree(next(m for m in rows if m.pk == self.touched), where)
        self._nobody_re_seated(rows, where, corrected)
        self._standings_agree(rows, standings, where)
        self._prizes_agree(tournament, standings, prizes, diplomas, where)

    def _same_result_everywhere(
        self,
        rows: list[Match],
        bracket: dict[str, Any],
        api: dict[str, Any] | None,
        where: str,
    ) -> None:
        def by_id(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
            return {
                m["id"]: m
                for stage in data["stages"]
                for r in stage["rounds"]
                for m in r["matches"]
            }

        views = [by_id(bracket)] + ([by_id(api)] if api is not None else [])
        for shown in views:
            assert set(shown) == {m.pk for m in rows}, where
        for m in rows:
            winner = None
            if m.winner_id is not None:
                winner = "a" if m.winner_id == m.player_a_id else "b"
                assert m.winner_id in (m.player_a_id, m.player_b_id), (where, m.key)
                assert m.loser_id in (m.player_a_id, m.player_b_id), (where, m.key)
            for view in (shown[m.pk] for shown in views):
                got = (view["status"], view["winner"], view["score_a"], view["score_b"])
                assert got == (m.status, winner, m.score_a, m.score_b), (where, m.key, got)
                players = [(view[s] or {}).get("id") for s in ("player_a", "player_b")]
                assert players == [m.player_a_id, m.player_b_id], (where, m.key)
            if m.status in DONE:
                assert m.winner_id and m.loser_id, (where, m.key, "done without a result")

    def _match_pages_agree(self, m: Match, where: str) -> None:
        """The match's own API and scoreboard show the result the bracket shows."""
        body = self.client.get(f"/api/v1/matches/{m.pk}/").json()
        winner = None
        if m.winner_id is not None:
            winner = "a" if m.winner_id == m.player_a_id else "b"
        got = (body["status"], body["winner"], body["score_a"], body["score_b"], body["result"])
        assert got == (m.status, winner, m.score_a, m.score_b, m.result), (where, m.key, got)
        assert self.client.get(f"/m/{m.pk}/").status_code == 200, (where, m.key)

    def _nobody_re_seated(self, rows: list[Match], where: str, corrected: int | None) -> None:
        for m in rows:
            if m.status in STARTED:
                seats = (m.player_a_id, m.player_b_id)
                before = self.seated.setdefault(m.pk, seats)
                assert before == seats, (where, m.key, "re-seated after it started", before, seats)
            if m.status in DONE:
                result = (m.status, m.winner_id, m.score_a, m.score_b, m.result)
                before_result = self.results.get(m.pk)
                if before_result is not None and m.pk != corrected:
                    assert before_result == result, (where, m.key, "result changed", result)
                self.results[m.pk] = result
            elif m.pk in self.results:
                raise AssertionError((where, m.key, "a finished match reopened", m.status))

    def _standings_agree(self, rows: list[Match], standings: dict[str, Any], where: str) -> None:
        seen: set[int] = set()
        ranges = []
        playing = {
            p for m in rows if m.status in PENDING for p in (m.player_a_id, m.player_b_id) if p
        }
        for place in standings["places"]:
            ids = [p["id"] for p in place["players"]]
            assert 1 <= len(ids) <= place["last"] - place["first"] + 1, (where, place)
            assert not seen & set(ids), (where, "placed twice", place)
            seen |= set(ids)
            ranges.append((place["first"], place["last"]))
            # A decided place is final: its players have nothing left to play.
            assert not playing & set(ids), (where, "placed while still playing", place)
        for (_, last), (first, _) in itertools.pairwise(ranges):
            assert first > last, (where, "places overlap", ranges)
        # With the places not decided yet, the standings always show 1..size, in order.
        shown = [(p["first"], p["last"]) for p in standings["all_places"]]
        assert shown[0][0] == 1 and shown[-1][1] == self.scenario.size, (where, shown)
        for (_, last), (first, _) in itertools.pairwise(shown):
            assert first == last + 1, (where, "places do not tile", shown)
        for place in standings["all_places"]:
            span = place["last"] - place["first"] + 1
            assert place["pending"] == span - len(place["players"]), (where, place)

    def _prizes_agree(
        self,
        tournament: Tournament,
        standings: dict[str, Any],
        prizes: dict[str, Any],
        diplomas: list[dict[str, Any]],
        where: str,
    ) -> None:
        pool = prizes["pool"]
        assert sum((a["total"] for a in prizes["awards"]), Decimal(0)) == pool, where
        assert prizes["awarded"] + prizes["pending"] + prizes["withheld"] == pool, where
        paid_amounts = sum(
            (p["amount"] for a in prizes["awards"] for p in a["players"]), Decimal(0)
        )
        assert paid_amounts == prizes["awarded"], where
        place_of = {
            p["id"]: (pl["first"], pl["last"]) for pl in standings["places"] for p in pl["players"]
        }
        out = {
            p["id"]
            for pl in standings["places"]
            for p in pl["players"]
            if p["withdrawn"] or p["disqualified"]
        }
        withhold = tournament.withdrawn_prize == Tournament.WithdrawnPrize.WITHHOLD
        for award in prizes["awards"]:
            for p in award["players"]:
                assert place_of[p["id"]] == (award["first"], award["last"]), (where, p)
                if withhold and p["id"] in out:
                    assert not p["paid"] and p["amount"] == 0, (where, "withheld player paid", p)
                else:
                    assert p["paid"] and p["amount"] == p["due"], (where, p)
        last = diploma_places(tournament)  # the prize places by default
        for entry in diplomas:
            first, _ = place_of[entry["player_id"]]
            assert first == entry["place"], (where, entry)
            assert last is None or entry["place"] <= last, (where, entry)
            assert not (withhold and entry["player_id"] in out), (where, "diploma of", entry)

    # --- acting -------------------------------------------------------------------------

    def act(self) -> int | None:
        """One random step; returns the id of a corrected match (its result may change)."""
        rng = self.rng
        rows = self.matches()
        ready = [m for m in rows if m.status in ("ready", "on_table")]
        running = [m for m in rows if m.status in ("running", "paused")]
        done = [m for m in rows if m.status in DONE]
        active = list(
            Registration.objects.filter(tournament=self.tournament, status="active").order_by("pk")
        )
        roll = rng.random()
        self.touched = None
        try:
            if roll < 0.07 and done:
                return self._correct(rng.choice(done))
            if roll < 0.11 and len(active) > 2:
                reg = rng.choice(active)
                if rng.random() < 0.6:
                    self.log.append(f"withdraw {reg.player_id}")
                    services.registration_withdraw(registration=reg, actor=self.organiser)
                else:
                    self.log.append(f"disqualify {reg.player_id}")
                    services.registration_disqualify(registration=reg, actor=self.organiser)
                return None
        except REFUSALS as err:
            self.log.append(f"refused: {err}")
            return None
        candidates = ready + running
        if not candidates:
            stuck = [(m.key, m.status, m.player_a_id, m.player_b_id) for m in rows]
            raise AssertionError((str(self.scenario), "nothing left to play", stuck, self.log))
        m = rng.choice(candidates)
        self.touched = m.pk
        kind = rng.choices(
            ["race", "start", "forfeit", "time", "walkover", "no_show"],
            weights=[50, 10, 8, 8, 7, 7],
        )[0]
        if kind in ("walkover", "no_show") and m.status not in ("ready", "on_table"):
            kind = "race"
        self.log.append(f"{kind} {m.key}")
        if kind == "race":
            finish(m, rng.choice("ab"), (30, rng.randint(0, 29)))
        elif kind == "start":  # begin it, or go on playing it
            m.refresh_from_db()
            if m.status in ("ready", "on_table"):
                self._submit(m, self._break(m))
            else:
                self._submit(m, {"type": "shot", "player": m.state["turn"], "pocketed": 0})
        elif kind == "forfeit":
            self._event(m, {"type": "forfeit", "player": rng.choice("ab")})
        elif kind == "time":
            self._event(m, {"type": "time_expired"})
            m.refresh_from_db()
            if m.status not in DONE:  # a tie: the golden ball
                finish(m, rng.choice("ab"), (m.score_a or 0, m.score_b or 0))
        elif kind == "walkover":
            match_services.match_walkover(
                match=m, winner_slot=rng.choice("ab"), actor=self.organiser, reason="test"
            )
        else:
            services.match_no_show(match=m, absent_slot=rng.choice("ab"), actor=self.organiser)
        return None

    def _break(self, m: Match) -> dict[str, Any]:
        turn = m.state.get("turn", "a")
        return {"type": "break", "player": turn, "legal": True, "pocketed": self.rng.randint(0, 3)}

    def _event(self, m: Match, event: dict[str, Any]) -> None:
        m.refresh_from_db()
        if m.status in ("ready", "on_table"):
            self._submit(m, self._break(m))
            m.refresh_from_db()
        if m.status not in DONE:
            self._submit(m, event)

    def _submit(self, m: Match, event: dict[str, Any]) -> None:
        match_services.match_submit_event(
            match_id=m.pk, event=event, expected_version=m.version, actor=self.organiser
        )

    def _correct(self, m: Match) -> int | None:
        winner = self.rng.choice("ab")
        win, lose = 30, self.rng.randint(0, 29)
        scores = (win, lose) if winner == "a" else (lose, win)
        self.log.append(f"correct {m.key} -> {winner}")
        self.touched = m.pk
        services.match_correct_result(
            match=m, winner_slot=winner, score_a=scores[0], score_b=scores[1], actor=self.organiser
        )
        return m.pk

    def run(self) -> None:
        self.check()
        for _ in range(20 * self.scenario.size + 50):
            self.tournament.refresh_from_db()
            if self.tournament.status == Tournament.Status.FINISHED:
                break
            self.step += 1
            corrected = self.act()
            self.check(corrected=corrected)
        self.tournament.refresh_from_db()
        assert self.tournament.status == Tournament.Status.FINISHED, (str(self.scenario), self.log)
        self.check_end()

    def check_end(self) -> None:
        tournament = self.tournament
        standings = tournament_standings(tournament=tournament)
        prizes = tournament_prizes(tournament=tournament)
        placed = [p["id"] for pl in standings["places"] for p in pl["players"]]
        seeded = Registration.objects.filter(tournament=tournament, seed__isnull=False)
        assert sorted(placed) == sorted(seeded.values_list("player_id", flat=True))
        spans = [(pl["first"], pl["last"]) for pl in standings["places"]]
        assert spans[0][0] == 1 and spans[-1][1] == self.scenario.size
        assert all(len(pl["players"]) == pl["last"] - pl["first"] + 1 for pl in standings["places"])
        # Exactly the pool: what is paid plus what is withheld, nothing pending any more.
        assert prizes["pending"] == 0
        assert prizes["awarded"] + prizes["withheld"] == prizes["pool"]
        players_total = sum(
            (p["amount"] for a in prizes["awards"] for p in a["players"]), Decimal(0)
        )
        assert players_total == prizes["awarded"]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
def test_every_read_answers_after_every_step_and_the_record_is_one(scenario, organiser) -> None:
    client = Client()
    client.force_login(organiser)
    Driver(scenario, organiser, client).run()
