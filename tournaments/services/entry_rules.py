"""What an entry needs, shared by the desk (registrations) and online entries: the rating
limits, the entry window, and the reserve list (its order, a place on it, moving up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments.errors import CONFLICT, TournamentError
from tournaments.models import Registration, Tournament
from tournaments.services.common import Status

if TYPE_CHECKING:
    from config.types import Actor


ACTIVE = Registration.Status.ACTIVE
RESERVE = Registration.Status.RESERVE


def rating_limit_error(tournament: Tournament, rating: int) -> TournamentError | None:
    """The refusal for a rating outside the tournament's entry limits, or None."""
    low, high = tournament.entry_min_rating, tournament.entry_max_rating
    if (low is None or rating >= low) and (high is None or rating <= high):
        return None
    return TournamentError(
        "rating_out_of_limits",
        _("Entry is for ratings %(range)s; yours is %(rating)s.")
        % {"range": limits_text(tournament), "rating": rating},
        status=CONFLICT,
        params={"rating": rating, "min": low, "max": high},
    )


def limits_text(tournament: Tournament) -> str:
    low, high = tournament.entry_min_rating, tournament.entry_max_rating
    if low is not None and high is not None:
        return f"{low}–{high}"
    if low is not None:
        return _("from %(min)s") % {"min": low}
    if high is not None:
        return _("up to %(max)s") % {"max": high}
    return ""


def registration_state(tournament: Tournament) -> str:
    """Where registration stands: "not_open" (a draft), "open", "closed" (by the organiser,
    before the draw), "reopened" (open again after a close), or "drawn" (the draw closed it)."""
    if tournament.status == Status.DRAFT:
        return "not_open"
    if tournament.status != Status.REGISTRATION:
        return "drawn"
    if tournament.registration_closed_at is not None:
        return "closed"
    return "reopened" if tournament.registration_reopened_at is not None else "open"


def registration_closed_error(tournament: Tournament) -> TournamentError | None:
    """The refusal of any new entry (at the desk or online) while the organiser has closed
    registration, naming the state; None when it is not closed that way."""
    if registration_state(tournament) != "closed":
        return None
    return TournamentError(
        "registration_closed",
        _("Registration is closed by the organiser: reopen it to add players."),
        status=CONFLICT,
        params={"state": "closed"},
    )


def entry_window_state(tournament: Tournament, now: Any = None) -> str:
    """ "off" (no online entry), "not_open" (registration not open, or before the opening
    time), "open", or "closed" (after the closing time, or the draw has been made)."""
    now = now or timezone.now()
    if not tournament.online_entry:
        return "off"
    if tournament.status in (Status.DRAWN, Status.RUNNING, Status.FINISHED):
        return "closed"
    if tournament.status != Status.REGISTRATION:
        return "not_open"
    if tournament.registration_closed_at is not None:
        return "closed"
    if tournament.entry_opens_at is not None and now < tournament.entry_opens_at:
        return "not_open"
    if tournament.entry_closes_at is not None and now >= tournament.entry_closes_at:
        return "closed"
    return "open"


def active_count(tournament: Tournament) -> int:
    return Registration.objects.filter(tournament=tournament, status=ACTIVE).count()


def reserve_list(*, tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament, status=RESERVE)
        .select_related("player")
        .order_by("reserve_since", "pk")
    )


def reserve_position(reg: Registration) -> int | None:
    """1 for the first in line; None if not on the reserve list."""
    if reg.status != RESERVE or reg.reserve_since is None:
        return None
    ahead = Registration.objects.filter(
        tournament_id=reg.tournament_id, status=RESERVE, reserve_since__lt=reg.reserve_since
    ).count()
    same_time = Registration.objects.filter(
        tournament_id=reg.tournament_id,
        status=RESERVE,
        reserve_since=reg.reserve_since,
        pk__lt=reg.pk,
    ).count()
    return ahead + same_time + 1


def reserve_promote(
    *, locked: Tournament, actor: Actor | None, checked_in_only: bool = False
) -> list[Registration]:
    """Move reserves up, first in line first, while there is room (the tournament locked by
    the caller). With `checked_in_only` (the removal before the draw) only reserves who are
    present move up; the others keep their places in line."""
    room = locked.max_players - active_count(locked)
    promoted: list[Registration] = []
    if room <= 0:
        return promoted
    line = Registration.objects.select_for_update().filter(tournament=locked, status=RESERVE)
    if checked_in_only:
        line = line.filter(checked_in_at__isnull=False)
    now = timezone.now()
    for reg in line.select_related("player").order_by("reserve_since", "pk")[:room]:
        reg.status = ACTIVE
        reg.promoted_at = now
        reg.reserve_since = None
        reg.save(update_fields=["status", "promoted_at", "reserve_since"])
        audit_record(
            actor=actor,
            action="reserve_promoted",
            tournament=locked,
            player=reg.player,
            data={"registration": reg.pk, "player": reg.player_id, "name": reg.player.name},
        )
        promoted.append(reg)
    return promoted
