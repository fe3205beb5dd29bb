"""A player who does not come to his match: he loses it by walkover, then the tournament's
``no_show_rule`` says what follows: he drops to the lower bracket like any loser
(``lower_bracket``), or he is out of the tournament (``out``: withdrawn, his later matches
become walkovers)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from audit.services import audit_record
from matches.models import Match
from matches.selectors import NOT_STARTED
from matches.services import match_walkover
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.models import Registration, Tournament
from tournaments.services.common import OTHER
from tournaments.services.progression import match_set_handicap
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


@transaction.atomic
def match_lateness(
    *, match: Match, late_slot: str, actor: Actor | None, now: datetime | None = None
) -> dict[str, Any]:
    """One tap at the desk: the player in ``late_slot`` is late for his called match. From
    the call time, every full ``lateness_step_minutes`` costs ``lateness_penalty_balls``:
    his opponent's head start grows by that much (never to the race); at
    ``lateness_walkover_minutes`` he loses by walkover (then the no-show rule). Recorded
    in the audit log and on the match's head start. Returns {"minutes", "balls",
    "walkover"}."""
    if late_slot not in OTHER:
        raise TournamentError(
            "invalid",
            _("Say which player is late: “a” or “b”."),
            status=BAD_REQUEST,
            params={"field": "late"},
        )
    row = Match.objects.select_for_update().get(pk=match.pk)
    tournament = Tournament.objects.get(pk=row.tournament_id)
    if row.status not in NOT_STARTED or row.called_at is None or row.version > 0:
        raise TournamentError(
            "match_not_called",
            _("Lateness counts from the call to the table, before the match begins."),
            status=CONFLICT,
            params={"match": row.pk, "status": row.status},
        )
    minutes = int(((now or timezone.now()) - row.called_at).total_seconds() // 60)
    limit = tournament.lateness_walkover_minutes
    step = tournament.lateness_step_minutes
    if limit is not None and minutes >= limit:
        audit_record(
            actor=actor,
            action="match_lateness",
            tournament=tournament,
            match=row,
            data={"slot": late_slot, "minutes": minutes, "balls": 0, "walkover": True},
        )
        match_no_show(match=row, absent_slot=late_slot, actor=actor)
        return {"minutes": minutes, "balls": 0, "walkover": True}
    if step is None or minutes < step:
        raise TournamentError(
            "not_late",
            _("%(n)s min since the call: no penalty yet.") % {"n": minutes},
            status=CONFLICT,
            params={"minutes": minutes, "step": step},
        )
    ruleset = row.ruleset or {}
    race = int(ruleset.get("balls_to_win") or 0)
    head = {"a": 0, "b": 0, **(ruleset.get("head_start") or {})}
    other = OTHER[late_slot]
    # Penalties already given for this match count: a second tap adds only the new steps.
    given = sum(
        int(e.data.get("balls", 0))
        for e in AuditEntry.objects.filter(match=row, action="match_lateness")
        if e.data.get("slot") == late_slot
    )
    balls = minutes // step * tournament.lateness_penalty_balls - given
    if balls <= 0:
        return {"minutes": minutes, "balls": 0, "walkover": False}
    balls = max(0, min(balls, race - 1 - head[other])) if race else balls
    head[other] += balls
    audit_record(
        actor=actor,
        action="match_lateness",
        tournament=tournament,
        match=row,
        data={"slot": late_slot, "minutes": minutes, "balls": balls, "walkover": False},
    )
    match_set_handicap(match=row, head_start=head, actor=actor)
    return {"minutes": minutes, "balls": balls, "walkover": False}
