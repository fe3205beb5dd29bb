"""A player who does not come to his match: he loses it by walkover, then the tournament's
``no_show_rule`` says what follows: he drops to the lower bracket like any loser
(``lower_bracket``), or he is out of the tournament (``out``: withdrawn, his later matches
become walkovers)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from audit.models import AuditEntry
from audit.services import audit_record
from matches.models import Match
from matches.selectors import NOT_STARTED
from matches.services import match_walkover
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.match_setup import frames_credited
from tournaments.models import Registration, Tournament
from tournaments.services.common import OTHER
from tournaments.services.progression import match_set_handicap
from tournaments.services.registrations import registration_withdraw
from tournaments.services.setup import ruleset_error_message

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
    the call time, every full ``lateness_step_minutes`` costs ``lateness_penalty_balls`` in
    the tournament's ``lateness_penalty_unit``: balls (his opponent's head start grows, never
    to the race) or frames (his opponent is credited frames, the match's ``frames_credit``,
    never to ``frames_to_win``); at ``lateness_walkover_minutes`` he loses by walkover (then
    the no-show rule). Recorded in the audit log and in the match's own ruleset. Returns
    {"minutes", "balls", "frames", "walkover"}."""
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
        return {"minutes": minutes, "balls": 0, "frames": 0, "walkover": True}
    if step is None or minutes < step:
        raise TournamentError(
            "not_late",
            _("%(n)s min since the call: no penalty yet.") % {"n": minutes},
            status=CONFLICT,
            params={"minutes": minutes, "step": step},
        )
    owed = minutes // step * tournament.lateness_penalty_balls
    if tournament.lateness_penalty_unit == Tournament.LatenessUnit.FRAMES:
        frames = _late_frames(row, tournament, late_slot, minutes, owed, actor)
        return {"minutes": minutes, "balls": 0, "frames": frames, "walkover": False}
    ruleset = row.ruleset or {}
    race = int(ruleset.get("balls_to_win") or 0)
    head = {"a": 0, "b": 0, **(ruleset.get("head_start") or {})}
    other = OTHER[late_slot]
    # Penalties already given for this match count: a second tap adds only the new steps.
    balls = owed - _given(row, late_slot, "balls")
    if balls <= 0:
        return {"minutes": minutes, "balls": 0, "frames": 0, "walkover": False}
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
    return {"minutes": minutes, "balls": balls, "frames": 0, "walkover": False}


def _given(row: Match, late_slot: str, unit: str) -> int:
    """What lateness has cost this player in this match so far (its audit entries)."""
    return sum(
        int(e.data.get(unit, 0) or 0)
        for e in AuditEntry.objects.filter(match=row, action="match_lateness")
        if e.data.get("slot") == late_slot
    )


def _late_frames(
    row: Match, tournament: Tournament, late_slot: str, minutes: int, owed: int, actor: Actor | None
) -> int:
    """Lateness in frames: the opponent is credited the frames not given yet (the match's
    `frames_credit`), never reaching `frames_to_win` (the walkover is the limit's)."""
    ruleset = dict(row.ruleset or {})
    race = int(ruleset.get("frames_to_win") or 1)
    if not frames_credited(str(ruleset.get("discipline") or tournament.discipline)) or race <= 1:
        raise TournamentError(
            "single_frame",
            _(
                "This match is a single frame: lateness costs frames only in a race of "
                "frames. Only the walkover applies here."
            ),
            status=CONFLICT,
            params={"match": row.pk, "frames_to_win": race},
        )
    given: dict[str, Any] = ruleset.get("frames_credit") or {}
    credit = {p: int(given.get(p, 0)) for p in OTHER}
    other = OTHER[late_slot]
    frames: int = min(owed - _given(row, late_slot, "frames"), race - 1 - credit[other])
    if frames <= 0:
        return 0
    credit[other] += frames
    ruleset["frames_credit"] = credit
    try:
        normalised = rules.validate_ruleset(ruleset)
    except rules.RuleError as err:
        raise TournamentError(
            "invalid_ruleset", ruleset_error_message(err), status=BAD_REQUEST, params=err.params
        ) from None
    audit_record(
        actor=actor,
        action="match_lateness",
        tournament=tournament,
        match=row,
        data={
            "slot": late_slot,
            "minutes": minutes,
            "balls": 0,
            "frames": frames,
            "walkover": False,
            "frames_credit": normalised["frames_credit"],
        },
    )
    row.ruleset = normalised
    row.state = rules.initial_state(normalised)
    # Set by hand, as an overridden head start: a change of the stage's race keeps it.
    row.head_start_overridden = True
    row.save(update_fields=["ruleset", "state", "head_start_overridden", "updated_at"])
    Tournament.objects.filter(pk=tournament.pk).update(public_version=F("public_version") + 1)
    return frames
