"""The bracket a tournament's format makes (the pure generators of tournaments.algorithms fed
with its settings), and the plan of a draw: who gets which seed in which bracket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.utils.translation import gettext as _

from tournaments.algorithms import brackets, groups
from tournaments.algorithms.model import Bracket, GrandFinal
from tournaments.errors import UNPROCESSABLE, TournamentError
from tournaments.models import Registration, Tournament


def generate_bracket(tournament: Tournament, entrants: int) -> Bracket:
    """The pure bracket of the tournament's format for ``entrants`` seeds. The settings are
    frozen from the draw on, so calling this again later gives the same bracket."""
    third_place = tournament.third_place == Tournament.ThirdPlace.MATCH
    fmt = tournament.format
    try:
        if fmt == Tournament.Format.SINGLE:
            return brackets.single_elimination(entrants, third_place=third_place)
        if fmt == Tournament.Format.DOUBLE:
            # The model's choices are the algorithm's three (which refuses any other value).
            grand_final = cast(GrandFinal, tournament.grand_final)
            return brackets.double_elimination(entrants, grand_final=grand_final)
        if fmt == Tournament.Format.DOUBLE_TO_SINGLE:
            return brackets.double_to_single(
                entrants, remaining=tournament.playoff_size or 0, third_place=third_place
            )
        return groups.round_robin_groups(
            entrants,
            group_size=tournament.group_size,
            advance=tournament.group_advance,
            third_place=third_place,
        )
    except ValueError as exc:
        raise TournamentError(
            "format_impossible",
            _("This format cannot be drawn for %(n)s players; change the format settings.")
            % {"n": entrants},
            status=UNPROCESSABLE,
            params={"entrants": entrants, "detail": str(exc)},
        ) from None


@dataclass(frozen=True)
class DrawPlan:
    method: str
    random_seed: int | None
    order: list[Registration]  # order[i] gets seed i + 1
    bracket: Bracket
    unpaid: list[Registration]
