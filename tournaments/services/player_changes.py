"""Proposed changes to a player's identity: an organiser who may not rename a shared player
(tournaments.access.can_edit_player_identity) asks; the player himself or a superuser approves
(the change is made through player_update, in the approver's name) or declines.

One pending request per organiser and player: asking again replaces his pending one, so the
table stays bounded by the organisers who met the record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments import access
from tournaments.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, TournamentError
from tournaments.models import Player, PlayerChange
from tournaments.services.players import _clean_name, player_update

if TYPE_CHECKING:
    from config.types import Actor

CHANGE_FIELDS = {"name": 200, "city": 100, "club": 100}
NOTE_MAX = 300


def _clean_fields(player: Player, data: Mapping[str, Any]) -> dict[str, str]:
    """The fields that differ from the record, cleaned as player_update cleans them."""
    unknown = set(data) - set(CHANGE_FIELDS)
    if unknown:
        raise TournamentError(
            "invalid_player",
            _("Unknown fields: %(keys)s.") % {"keys": ", ".join(sorted(map(str, unknown)))},
            status=BAD_REQUEST,
        )
    fields: dict[str, str] = {}
    for field, limit in CHANGE_FIELDS.items():
        if field not in data:
            continue
        value = _clean_name(data[field]) if field == "name" else str(data[field] or "").strip()
        if len(value) > limit:
            raise TournamentError(
                "invalid_player",
                _("At most %(count)s characters.") % {"count": limit},
                status=BAD_REQUEST,
                params={"field": field},
            )
        if value != getattr(player, field):
            fields[field] = value
    if not fields:
        raise TournamentError(
            "nothing_to_change",
            _("The proposed values are the player's already."),
            status=BAD_REQUEST,
        )
    return fields


@transaction.atomic
def player_change_propose(
    *, player: Player, actor: Actor, data: Mapping[str, Any], note: str = ""
) -> PlayerChange:
    """Ask for a change of `player`'s name, city or club (fields absent from `data` stay)."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if not access.can_propose_player_change(actor, locked):
        raise TournamentError(
            "forbidden",
            _("Only an organiser of a tournament this player is in can propose a change."),
            status=FORBIDDEN,
        )
    assert actor.is_authenticated  # an organiser: refused above otherwise
    fields = _clean_fields(locked, data)
    note = " ".join(str(note or "").split())[:NOTE_MAX]
    change = PlayerChange.objects.filter(
        player=locked, requested_by=actor, status=PlayerChange.Status.PENDING
    ).first()
    if change is None:
        change = PlayerChange(player=locked, requested_by=actor)
    change.fields, change.note = fields, note
    change.save()
    audit_record(
        actor=actor,
        action="player_change_propose",
        player=locked,
        data={"player": locked.pk, "change": change.pk, "fields": fields, "note": note},
    )
    return change


@transaction.atomic
def player_change_decide(*, change: PlayerChange, actor: Actor, approve: bool) -> PlayerChange:
    """The player himself or a superuser approves (the record changes) or declines."""
    locked = PlayerChange.objects.select_for_update().select_related("player").get(pk=change.pk)
    player = locked.player
    if not access.can_decide_player_change(actor, player):
        raise TournamentError(
            "forbidden",
            _("Only the player himself or a superuser can decide on a change of his record."),
            status=FORBIDDEN,
        )
    if locked.status != PlayerChange.Status.PENDING:
        raise TournamentError(
            "request_decided", _("This request has already been decided."), status=CONFLICT
        )
    assert actor.is_authenticated  # refused above otherwise
    if approve:
        player = player_update(player=player, actor=actor, data=locked.fields)
    locked.status = PlayerChange.Status.APPROVED if approve else PlayerChange.Status.DECLINED
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.save(update_fields=["status", "decided_by", "decided_at"])
    audit_record(
        actor=actor,
        action="player_change_approve" if approve else "player_change_decline",
        player=player,
        data={
            "player": player.pk,
            "change": locked.pk,
            "fields": locked.fields,
            "requested_by": locked.requested_by_id,
        },
    )
    return locked
