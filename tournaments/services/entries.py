"""Entering from home: online entry with a reserve list, promotion, check-in at the desk, the
removal of those not checked in, rating limits, and a login's request to become a player.

The reserve list is the tournament's registrations with status "reserve", in the order they
joined it (`reserve_since`, then id). Every change of who is in runs under the tournament's
row lock (lock_tournament), so two withdrawals never promote the same reserve twice and the
count of entrants never passes the maximum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments import access
from tournaments.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, TournamentError
from tournaments.models import Player, PlayerRequest, Registration, Tournament
from tournaments.services.common import Status, bump_public_version, lock_tournament
from tournaments.services.entry_rules import (
    active_count,
    entry_window_state,
    rating_limit_error,
    registration_closed_error,
    reserve_position,
    reserve_promote,
)
from tournaments.services.players import player_create
from tournaments.services.registrations import give_refund, refund_due, registration_withdraw
from tournaments.services.setup import fee_for

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

ACTIVE = Registration.Status.ACTIVE
RESERVE = Registration.Status.RESERVE
WITHDRAWN = Registration.Status.WITHDRAWN


def _require_open(tournament: Tournament) -> None:
    closed = registration_closed_error(tournament)
    if closed is not None:
        raise closed
    state = entry_window_state(tournament)
    if state == "open":
        return
    messages = {
        "off": _("This tournament does not take entries online: ask the organiser."),
        "not_open": _("Online entry is not open yet."),
        "closed": _("Online entry is closed."),
    }
    raise TournamentError(
        "entry_not_open", messages[state], status=CONFLICT, params={"state": state}
    )


def _place(*, locked: Tournament, player: Player, actor: Actor | None, action: str) -> Registration:
    """Enter `player` (the tournament locked): in while there is room, else on the reserve
    list. A player who withdrew comes back at the end of the line."""
    existing = Registration.objects.select_for_update().filter(tournament=locked, player=player)
    reg = existing.first()
    if reg is not None and reg.status in (ACTIVE, RESERVE):
        raise TournamentError(
            "already_registered",
            _("%(name)s is already entered.") % {"name": player.name},
            status=CONFLICT,
            params={"player": player.pk, "registration": reg.pk, "status": reg.status},
        )
    limit = rating_limit_error(locked, player.rating)
    if limit is not None:
        raise limit
    now = timezone.now()
    status = ACTIVE if active_count(locked) < locked.max_players else RESERVE
    fee = fee_for(locked, player.rating)
    values = {
        "status": status,
        "withdrawn_at": None,
        "rating_at_entry": player.rating,
        "fee_due": fee,
        "online": True,
        "reserve_since": now if status == RESERVE else None,
        "checked_in_at": None,
        "promoted_at": None,
    }
    if reg is None:
        reg = Registration.objects.create(tournament=locked, player=player, **values)
    else:
        for field, value in values.items():
            setattr(reg, field, value)
        reg.save(update_fields=list(values))
    audit_record(
        actor=actor,
        action=action if status == ACTIVE else "entry_reserve",
        tournament=locked,
        player=player,
        data={
            "registration": reg.pk,
            "player": player.pk,
            "name": player.name,
            "rating": player.rating,
            "fee_due": str(fee),
            "status": status,
            "reserve_position": reserve_position(reg) if status == RESERVE else None,
        },
    )
    bump_public_version(locked)
    return reg


@transaction.atomic
def entry_submit(*, tournament: Tournament, user: Actor) -> Registration:
    """The logged-in player enters himself online, while entry is open."""
    player = Player.objects.filter(user=user).first() if user.is_authenticated else None
    if player is None:
        raise TournamentError(
            "no_player",
            _("Link your login to your player record first (a claim code from the organiser)."),
            status=CONFLICT,
        )
    locked = lock_tournament(tournament)
    _require_open(locked)
    return _place(locked=locked, player=player, actor=user, action="entry_online")


def own_registration(*, tournament: Tournament, user: Actor) -> Registration:
    """The user's own entry in the tournament; refused (409) when he has none."""
    reg = (
        Registration.objects.select_related("player", "tournament")
        .filter(tournament=tournament, player__user=user)
        .exclude(status=WITHDRAWN)
        .first()
        if user.is_authenticated
        else None
    )
    if reg is None:
        raise TournamentError(
            "not_entered", _("You have no entry in this tournament."), status=CONFLICT
        )
    return reg


@transaction.atomic
def entry_withdraw(*, registration: Registration, user: Actor) -> Registration:
    """The player takes back his own entry (or leaves the reserve list) before the draw; the
    first reserve moves up."""
    if registration.player.user_id != getattr(user, "pk", None):
        raise TournamentError("forbidden", _("This is not your entry."), status=FORBIDDEN)
    if registration.tournament.status != Status.REGISTRATION:
        raise TournamentError(
            "registration_closed",
            _("The draw has been made: ask the organiser to withdraw you."),
            status=CONFLICT,
        )
    return registration_withdraw(registration=registration, actor=user, reason="by the player")


@transaction.atomic
def registration_check_in(
    *, registration: Registration, actor: Actor | None, present: bool = True
) -> Registration:
    """The desk ticks a player (or a reserve) present on the day, or takes the tick back."""
    locked = lock_tournament(registration.tournament_id)
    if locked.status != Status.REGISTRATION:
        raise TournamentError(
            "registration_closed",
            _("Check-in is before the draw."),
            status=CONFLICT,
            params={"status": locked.status},
        )
    reg = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    if reg.status == WITHDRAWN:
        raise TournamentError(
            "already_withdrawn",
            _("This player has withdrawn."),
            status=CONFLICT,
            params={"registration": reg.pk},
        )
    if (reg.checked_in_at is not None) == present:
        return reg
    reg.checked_in_at = timezone.now() if present else None
    reg.save(update_fields=["checked_in_at"])
    audit_record(
        actor=actor,
        action="registration_check_in" if present else "registration_check_in_undo",
        tournament=locked,
        player=reg.player,
        data={"registration": reg.pk, "player": reg.player_id, "name": reg.player.name},
    )
    bump_public_version(locked)
    return reg


@transaction.atomic
def registration_remove_absent(
    *, tournament: Tournament, actor: Actor | None
) -> dict[str, list[int]]:
    """Before the draw: every entrant not checked in is withdrawn, and reserves who are
    checked in move up in their order. Returns the registrations removed and promoted."""
    locked = lock_tournament(tournament)
    if locked.status != Status.REGISTRATION:
        raise TournamentError("registration_closed", _("Only before the draw."), status=CONFLICT)
    now = timezone.now()
    absent = list(
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(tournament=locked, status=ACTIVE, checked_in_at__isnull=True)
        .order_by("pk")
    )
    for reg in absent:
        reg.status = WITHDRAWN
        reg.withdrawn_at = now
        reg.save(update_fields=["status", "withdrawn_at"])
        audit_record(
            actor=actor,
            action="registration_withdraw",
            tournament=locked,
            player=reg.player,
            data={
                "registration": reg.pk,
                "player": reg.player_id,
                "name": reg.player.name,
                "after_draw": False,
                "reason": "not checked in",
                "refund": reg.paid and refund_due(locked),
            },
        )
        if reg.paid and refund_due(locked):
            give_refund(locked=locked, reg=reg, actor=actor, reason="not checked in")
    promoted = reserve_promote(locked=locked, actor=actor, checked_in_only=True)
    audit_record(
        actor=actor,
        action="registration_remove_absent",
        tournament=locked,
        data={"removed": [r.pk for r in absent], "promoted": [r.pk for r in promoted]},
    )
    bump_public_version(locked)
    return {"removed": [r.pk for r in absent], "promoted": [r.pk for r in promoted]}


# --- a login asks to become a player ------------------------------------------------------


@transaction.atomic
def player_request_create(
    *, user: User, tournament: Tournament, name: str, city: str = "", club: str = ""
) -> PlayerRequest:
    """A login without a player asks the organisers of `tournament` to add him (and enter
    him once approved), while its online entry is open."""
    _require_open(tournament)
    if Player.objects.filter(user=user).exists():
        raise TournamentError(
            "login_taken", _("Your login is already linked to a player."), status=CONFLICT
        )
    name = " ".join(str(name or "").split())
    if not name:
        raise TournamentError(
            "invalid_player",
            _("The player needs a name."),
            status=BAD_REQUEST,
            params={"field": "name"},
        )
    if PlayerRequest.objects.filter(user=user, status=PlayerRequest.Status.PENDING).exists():
        raise TournamentError(
            "request_pending",
            _("Your request is already waiting for the organiser."),
            status=CONFLICT,
        )
    request = PlayerRequest.objects.create(
        user=user, tournament=tournament, name=name[:200], city=city[:100], club=club[:100]
    )
    audit_record(
        actor=user,
        action="player_request",
        tournament=tournament,
        data={"request": request.pk, "name": request.name, "city": request.city},
    )
    return request


@transaction.atomic
def player_request_decide(*, request: PlayerRequest, actor: Actor, approve: bool) -> PlayerRequest:
    """An organiser of the request's tournament approves it (the player is created, linked
    to the login and entered as an online entry would be) or declines it."""
    locked_request = PlayerRequest.objects.select_for_update().get(pk=request.pk)
    tournament = locked_request.tournament
    if tournament is None or not access.can_manage_tournament(actor, tournament):
        raise TournamentError("forbidden", _("Not allowed."), status=FORBIDDEN)
    if locked_request.status != PlayerRequest.Status.PENDING:
        raise TournamentError(
            "request_decided", _("This request has already been decided."), status=CONFLICT
        )
    locked_request.decided_by = actor
    locked_request.decided_at = timezone.now()
    if approve:
        if Player.objects.filter(user=locked_request.user).exists():
            raise TournamentError(
                "login_taken", _("This login is already linked to a player."), status=CONFLICT
            )
        player = player_create(
            actor=actor,
            name=locked_request.name,
            city=locked_request.city,
            club=locked_request.club,
            confirm_duplicate=True,
        )
        player.user = locked_request.user
        player.save(update_fields=["user", "updated_at"])
        locked_request.player = player
        locked_request.status = PlayerRequest.Status.APPROVED
        audit_record(
            actor=actor,
            action="player_link_login",
            tournament=tournament,
            player=player,
            data={"player": player.pk, "user": locked_request.user_id, "by": "request"},
        )
        locked = lock_tournament(tournament)
        if (
            locked.status == Status.REGISTRATION
            and registration_closed_error(locked) is None
            and rating_limit_error(locked, player.rating) is None
        ):
            _place(locked=locked, player=player, actor=actor, action="entry_online")
    else:
        locked_request.status = PlayerRequest.Status.DECLINED
    locked_request.save(update_fields=["status", "player", "decided_by", "decided_at"])
    audit_record(
        actor=actor,
        action="player_request_approve" if approve else "player_request_decline",
        tournament=tournament,
        player=locked_request.player,
        data={"request": locked_request.pk, "name": locked_request.name},
    )
    return locked_request


ENTRY_FIELDS = (
    "online_entry",
    "entry_opens_at",
    "entry_closes_at",
    "entry_min_rating",
    "entry_max_rating",
)


@transaction.atomic
def tournament_entry_settings(
    *, tournament: Tournament, actor: Actor, data: dict[str, Any]
) -> Tournament:
    """Online entry on or off, its opening and closing times, and the rating limits of entry
    (any change until the draw; entries already made stay)."""
    if not access.can_manage_tournament(actor, tournament):
        raise TournamentError("forbidden", _("Not allowed."), status=FORBIDDEN)
    locked = lock_tournament(tournament)
    if locked.status not in (Status.DRAFT, Status.REGISTRATION):
        raise TournamentError(
            "registration_closed",
            _("Registration is closed: the draw has been made."),
            status=CONFLICT,
        )
    values = {f: data[f] for f in ENTRY_FIELDS if f in data}
    merged = {f: values.get(f, getattr(locked, f)) for f in ENTRY_FIELDS}
    opens, closes = merged["entry_opens_at"], merged["entry_closes_at"]
    if opens is not None and closes is not None and closes <= opens:
        raise TournamentError(
            "invalid_settings",
            _("Online entry must close after it opens."),
            status=BAD_REQUEST,
            params={"field": "entry_closes_at"},
        )
    low, high = merged["entry_min_rating"], merged["entry_max_rating"]
    if low is not None and high is not None and low > high:
        raise TournamentError(
            "invalid_settings",
            _("The minimum rating is above the maximum."),
            status=BAD_REQUEST,
            params={"field": "entry_min_rating"},
        )
    before = {f: getattr(locked, f) for f in values}
    for field, value in values.items():
        setattr(locked, field, value)
    locked.save(update_fields=[*values, "updated_at"])

    def shown(value: Any) -> Any:
        return value.isoformat() if hasattr(value, "isoformat") else value

    audit_record(
        actor=actor,
        action="tournament_entry_settings",
        tournament=locked,
        data={
            "before": {k: shown(v) for k, v in before.items()},
            "after": {k: shown(v) for k, v in values.items()},
        },
    )
    bump_public_version(locked)
    return locked


def account_signup_audit(*, user: User) -> None:
    """A login made on the sign-up page (the form made it): recorded like any other login."""
    audit_record(
        actor=user,
        action="login_create",
        data={"user": user.pk, "username": user.get_username(), "by": "signup"},
    )
