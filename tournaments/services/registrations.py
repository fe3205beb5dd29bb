"""The registration desk: add players, tick fees paid, withdraw."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from matches.models import Match
from matches.selectors import NOT_STARTED
from matches.services import match_walkover
from tournaments.errors import CONFLICT, TournamentError
from tournaments.models import Player, Registration, TableTimePayment, Tournament
from tournaments.selectors.desk import table_time
from tournaments.services.common import (
    Status,
    bump_public_version,
    lock_tournament,
    require_status,
)
from tournaments.services.entry_rules import (
    rating_limit_error,
    registration_closed_error,
    reserve_promote,
)
from tournaments.services.players import player_create
from tournaments.services.setup import fee_for

if TYPE_CHECKING:
    from config.types import Actor

ACTIVE = Registration.Status.ACTIVE
WITHDRAWN = Registration.Status.WITHDRAWN
DISQUALIFIED = Registration.Status.DISQUALIFIED
# Matches of a withdrawn player that become walkovers at once (both players known).
PENDING_WITH_PLAYERS = (*NOT_STARTED, Match.Status.RUNNING, Match.Status.PAUSED)


@transaction.atomic
def registration_add(
    *, tournament: Tournament, player: Player, actor: Actor | None
) -> Registration:
    """Register an existing player while registration is open; his fee is priced from his
    rating (fee bands, else the flat fee). A player who withdrew before the draw comes back."""
    locked = lock_tournament(tournament)
    if locked.status != Status.REGISTRATION:
        if locked.status in (Status.DRAWN, Status.RUNNING, Status.FINISHED):
            raise TournamentError(
                "registration_closed",
                _("Registration is closed: the draw has been made."),
                status=CONFLICT,
            )
        require_status(locked, Status.REGISTRATION)
    closed = registration_closed_error(locked)
    if closed is not None:
        raise closed
    existing = Registration.objects.filter(tournament=locked, player=player).first()
    if existing is not None and existing.status == ACTIVE:
        raise TournamentError(
            "already_registered",
            _("%(name)s is already registered.") % {"name": player.name},
            status=CONFLICT,
            params={"player": player.pk, "registration": existing.pk},
        )
    active = Registration.objects.filter(tournament=locked, status=ACTIVE).count()
    if active >= locked.max_players:
        raise TournamentError(
            "tournament_full",
            _("The tournament is full: %(max)s players.") % {"max": locked.max_players},
            status=CONFLICT,
            params={"max_players": locked.max_players},
        )
    rating = player.rating
    limit = rating_limit_error(locked, rating)
    if limit is not None:
        raise limit
    fee = fee_for(locked, rating)
    if existing is not None and existing.paid:
        # Back after a withdrawal whose fee the club kept: what he paid is his fee.
        fee = existing.fee_paid
    if existing is not None:
        # A reserve the desk adds by hand (there is room) is in; his line place is gone.
        existing.status = ACTIVE
        existing.withdrawn_at = None
        existing.reserve_since = None
        existing.rating_at_entry = rating
        existing.fee_due = fee
        existing.save(
            update_fields=["status", "withdrawn_at", "reserve_since", "rating_at_entry", "fee_due"]
        )
        registration = existing
    else:
        registration = Registration.objects.create(
            tournament=locked, player=player, rating_at_entry=rating, fee_due=fee
        )
    audit_record(
        actor=actor,
        action="registration_add",
        tournament=locked,
        player=player,
        data={
            "registration": registration.pk,
            "player": player.pk,
            "name": player.name,
            "rating": rating,
            "fee_due": str(fee),
        },
    )
    bump_public_version(locked)
    return registration


@transaction.atomic
def registration_add_new_player(
    *,
    tournament: Tournament,
    actor: Actor | None,
    name: str,
    city: str = "",
    club: str = "",
    rating: int | None = None,
    confirm_duplicate: bool = False,
) -> Registration:
    """Create the player and register him; if the registration is refused, no player is left.
    A possible duplicate is refused as by player_create unless `confirm_duplicate`."""
    player = player_create(
        actor=actor,
        name=name,
        city=city,
        club=club,
        rating=rating,
        confirm_duplicate=confirm_duplicate,
    )
    return registration_add(tournament=tournament, player=player, actor=actor)


@transaction.atomic
def registration_set_paid(
    *, registration: Registration, paid: bool, actor: Actor | None
) -> Registration:
    """Tick the entry fee paid (the fee due is collected and kept), or untick it: a payment
    ticked by mistake is taken back as if never collected. Money given back to a player who
    leaves is a refund (registration_refund), not an untick. Until the tournament ends."""
    locked_tournament = lock_tournament(registration.tournament_id)
    require_status(
        locked_tournament, Status.DRAFT, Status.REGISTRATION, Status.DRAWN, Status.RUNNING
    )
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.paid == paid:
        return reg
    amount = reg.fee_due if paid else reg.fee_paid
    reg.paid = paid
    reg.paid_at = timezone.now() if paid else None
    if paid:
        reg.fee_paid = amount
        reg.fee_collected += amount
    else:
        reg.fee_paid = Decimal(0)
        reg.fee_collected -= amount
    reg.save(update_fields=["paid", "paid_at", "fee_paid", "fee_collected"])
    audit_record(
        actor=actor,
        action="registration_paid" if paid else "registration_unpaid",
        tournament=locked_tournament,
        data={"registration": reg.pk, "player": reg.player_id, "fee": str(amount)},
    )
    bump_public_version(locked_tournament)
    return reg


def refund_due(tournament: Tournament) -> bool:
    """Whether a player who withdraws now gets his fee back, by the regulation's setting."""
    rule = tournament.withdrawal_fee
    if rule == Tournament.WithdrawalFee.REFUND:
        return True
    if rule == Tournament.WithdrawalFee.KEEP:
        return False
    return tournament.status in (Status.DRAFT, Status.REGISTRATION)


def give_refund(
    *, locked: Tournament, reg: Registration, actor: Actor | None, reason: str
) -> Decimal:
    """Give back what `reg` (locked, by the caller with its tournament) paid: recorded on the
    registration (who, when, how much) and audited. Returns the amount (0: nothing paid)."""
    amount = reg.fee_paid
    if not reg.paid or amount <= 0:
        return Decimal(0)
    reg.fee_refunded += amount
    reg.fee_paid = Decimal(0)
    reg.paid = False
    reg.paid_at = None
    reg.refunded_at = timezone.now()
    reg.refunded_by = actor if actor is not None and actor.is_authenticated else None
    reg.save(
        update_fields=["fee_refunded", "fee_paid", "paid", "paid_at", "refunded_at", "refunded_by"]
    )
    audit_record(
        actor=actor,
        action="registration_refund",
        tournament=locked,
        data={
            "registration": reg.pk,
            "player": reg.player_id,
            "amount": str(amount),
            "reason": reason,
        },
    )
    return amount


@transaction.atomic
def registration_refund(
    *, registration: Registration, actor: Actor | None, reason: str = ""
) -> Registration:
    """The desk gives a player who is out (withdrawn, disqualified or on the reserve list) his
    fee back, whatever the regulation's setting: the club's decision, recorded. Until the
    tournament ends."""
    locked = lock_tournament(registration.tournament_id)
    require_status(locked, Status.DRAFT, Status.REGISTRATION, Status.DRAWN, Status.RUNNING)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == ACTIVE:
        raise TournamentError(
            "registration_active",
            _("The player is still in the tournament: withdraw him first."),
            status=CONFLICT,
            params={"registration": reg.pk, "status": reg.status},
        )
    if not reg.paid:
        raise TournamentError(
            "not_paid",
            _("There is nothing to refund: the fee is not paid."),
            status=CONFLICT,
            params={"registration": reg.pk},
        )
    give_refund(locked=locked, reg=reg, actor=actor, reason=reason)
    bump_public_version(locked)
    return reg


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, actor: Actor | None, reason: str = ""
) -> Registration:
    """Withdraw a player. Before the draw he simply leaves the list. After it, each of his
    matches with a known opponent becomes a walkover at once; a match whose opponent is not
    known yet becomes one as soon as the opponent is (progression checks withdrawals)."""
    return _take_out(
        registration=registration,
        actor=actor,
        reason=reason,
        status=WITHDRAWN,
        allowed=(Status.DRAFT, Status.REGISTRATION, Status.DRAWN, Status.RUNNING),
    )


@transaction.atomic
def registration_disqualify(
    *, registration: Registration, actor: Actor | None, reason: str = ""
) -> Registration:
    """Disqualify a player after the draw (a player who withdrew may still be disqualified).
    His matches go as a withdrawn player's do: walkovers for his opponents; he keeps the place
    he reached, marked, and gets no prize or diploma unless the tournament pays them."""
    return _take_out(
        registration=registration,
        actor=actor,
        reason=reason,
        status=DISQUALIFIED,
        allowed=(Status.DRAWN, Status.RUNNING),
    )


def _take_out(
    *,
    registration: Registration,
    actor: Actor | None,
    reason: str,
    status: str,
    allowed: tuple[str, ...],
) -> Registration:
    player_id = registration.player_id
    # Lock order as in the matches app (match, then tournament): his pending matches first.
    pending_ids = list(
        Match.objects.select_for_update()
        .filter(tournament_id=registration.tournament_id)
        .filter(Q(player_a_id=player_id) | Q(player_b_id=player_id))
        .filter(status__in=PENDING_WITH_PLAYERS)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    locked = lock_tournament(registration.tournament_id)
    require_status(locked, *allowed)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == DISQUALIFIED:
        raise TournamentError(
            "already_disqualified",
            _("This player has already been disqualified."),
            status=CONFLICT,
            params={"registration": reg.pk},
        )
    if reg.status == WITHDRAWN and status == WITHDRAWN:
        raise TournamentError(
            "already_withdrawn",
            _("This player has already withdrawn."),
            status=CONFLICT,
            params={"registration": reg.pk},
        )
    previous = reg.status
    was_in = previous == ACTIVE
    reg.status = status
    if reg.withdrawn_at is None:
        reg.withdrawn_at = timezone.now()
    reg.reserve_since = None
    reg.save(update_fields=["status", "withdrawn_at", "reserve_since"])
    after_draw = locked.status in (Status.DRAWN, Status.RUNNING)
    # Decided before the audit entry says it; the refund's own entry follows the withdrawal's.
    refund = status == WITHDRAWN and reg.paid and refund_due(locked)
    audit_record(
        actor=actor,
        action="registration_withdraw" if status == WITHDRAWN else "registration_disqualify",
        tournament=locked,
        data={
            "registration": reg.pk,
            "player": player_id,
            "after_draw": after_draw,
            "reason": reason,
            "previous_status": previous,
            "refund": refund,
        },
    )
    if refund:
        give_refund(locked=locked, reg=reg, actor=actor, reason="withdrawal")
    if after_draw:
        for match_id in pending_ids:
            # Re-read: an earlier walkover's progression may already have settled this one.
            match = Match.objects.get(pk=match_id)
            if match.status not in PENDING_WITH_PLAYERS:
                continue
            winner_slot = "b" if match.player_a_id == player_id else "a"
            match_walkover(match=match, winner_slot=winner_slot, actor=actor, reason=str(status))
    elif was_in and locked.status == Status.REGISTRATION:
        # Before the draw his place goes to the first reserve.
        reserve_promote(locked=locked, actor=actor)
    bump_public_version(locked)
    return reg


@transaction.atomic
def table_time_set_paid(
    *, match: Match, player_id: int, paid: bool, actor: Actor | None
) -> Decimal:
    """The desk takes a player's table time for a finished match (what he owes now, by the
    tournament's settings), or takes the tick back (a mistake). Audited; returns the amount
    recorded (0 when untaken)."""
    locked = lock_tournament(match.tournament_id)
    if player_id not in (match.player_a_id, match.player_b_id):
        raise TournamentError(
            "not_in_match",
            _("This player did not play this match."),
            status=CONFLICT,
            params={"player": player_id, "match": match.pk},
        )
    existing = TableTimePayment.objects.select_for_update().filter(match=match, player_id=player_id)
    payment = existing.first()
    if paid == (payment is not None):
        return payment.amount if payment is not None else Decimal(0)
    if not paid:
        amount = payment.amount if payment is not None else Decimal(0)
        existing.delete()
    else:
        row = next(
            (r for r in table_time(tournament=locked)["rows"] if r["match"].pk == match.pk), None
        )
        side = next((s for s in (row["sides"] if row else []) if s["player"].pk == player_id), None)
        if side is None or not side["due"]:
            raise TournamentError(
                "nothing_owed",
                _("This player owes nothing for this match's table time."),
                status=CONFLICT,
                params={"player": player_id, "match": match.pk},
            )
        amount = side["due"]
        TableTimePayment.objects.create(
            tournament=locked,
            match=match,
            player_id=player_id,
            amount=amount,
            paid_by=actor if actor is not None and actor.is_authenticated else None,
        )
    audit_record(
        actor=actor,
        action="table_time_paid" if paid else "table_time_unpaid",
        tournament=locked,
        match=match,
        data={"match": match.pk, "player": player_id, "amount": str(amount)},
    )
    return amount if paid else Decimal(0)
