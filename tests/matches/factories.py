"""Factories of the matches app (the shared ones are in tests/factories.py)."""

from __future__ import annotations

import factory

import rules
from matches.models import Match, Table
from tests.factories import PlayerFactory, TournamentFactory

FREE_PYRAMID = {"discipline": "free_pyramid", "balls_to_win": 8}


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class MatchFactory(factory.django.DjangoModelFactory):
    """A match with both players known, made ready as the tournament's progression does."""

    class Meta:
        model = Match
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    key = factory.Sequence(lambda n: f"U1-{n + 1}")
    stage = "upper"
    round = 1
    order = factory.Sequence(lambda n: n + 1)
    player_a = factory.SubFactory(PlayerFactory)
    player_b = factory.SubFactory(PlayerFactory)
    ruleset = factory.LazyFunction(lambda: dict(FREE_PYRAMID))
    state = factory.LazyAttribute(lambda m: rules.initial_state(m.ruleset))
    status = Match.Status.READY
    clock_limit_seconds = 80 * 60

    @factory.post_generation
    def referees(self, create: bool, extracted: list[object] | None, **kwargs: object) -> None:
        if create and extracted:
            self.referees.add(*extracted)
