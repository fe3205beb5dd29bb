"""A player who does not come to his match: he loses it by walkover, then the tournament's
``no_show_rule`` says what follows: he drops to the lower bracket like any loser
(``lower_bracket``), or he is out of the tournament (``out``: withdrawn, his later matches
become walkovers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from matches.models import Match
from matches.selectors import NOT_STARTED
from matches.services import match_walkover
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.models import Registration, Tournament
from tournaments.services.common import OTHER
from tournaments.services.registrations import registration_withdraw

if TYPE_CHECKING:
    from config.types import Actor


@transaction.atomic
def match_no_show(*, match: Match, absent_slot: str, actor: Actor | None) -> Match:
    """Record that the player in ``absent_slot`` did not come: a walkover for the other one
    (reason ``no_show``, audited), then the no-show rule. Only for a match not begun."""
    if absent_slot not in OTHER:
        raise TournamentError(
            "invalid",
            _("Say which player did not come: “a” or “b”."),
            status=BAD_REQUEST,
            params={"field": "absent"},
        )
    # The match row first, as the matches app locks it.
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status not in NOT_STARTED:
        raise TournamentError(
            "match_not_waiting",
            _("A no-show is for a match that has not begun and has both players."),
            status=CONFLICT,
            params={"match": match.pk, "status": match.status},
        )
    absent_id = getattr(match, f"player_{absent_slot}_id")
    done = match_walkover(
        match=match, winner_slot=OTHER[absent_slot], actor=actor, reason="no_show"
    )
    tournament = Tournament.objects.get(pk=done.tournament_id)
    if tournament.no_show_rule != Tournament.NoShowRule.OUT or done.loser_to_id is None:
        return done  # out anyway (single elimination), or he drops as any loser does
    registration = Registration.objects.get(tournament=tournament, player_id=absent_id)
    if registration.status == Registration.Status.ACTIVE:
        registration_withdraw(registration=registration, actor=actor, reason="no_show")
    return done
