"""The audit log: one call records who changed what, and when."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matches.querycache import CompiledInsert, WriteBatch, insert_row
from tournaments.models import AuditEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from matches.models import Match
    from tournaments.models import Player, Tournament


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    tournament: Tournament | None = None,
    match: Match | None = None,
    player: Player | None = None,
    data: dict[str, Any] | None = None,
    batch: WriteBatch | None = None,
) -> AuditEntry:
    """Write one audit entry; call it inside the service's transaction so both land or neither.
    Given a batch, the entry is queued in it (the caller sends it). With `player`, the entry
    is also part of that player's history."""
    if tournament is None and match is not None:
        tournament_id = match.tournament_id
    else:
        tournament_id = tournament.pk if tournament is not None else None
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    entry = AuditEntry(
        tournament_id=tournament_id,
        match=match,
        player=player,
        actor=user,
        actor_name=user.get_username() if user is not None else "system",
        action=action,
        data=data or {},
    )
    return insert_row(_NEW_ENTRY, entry, batch=batch)


# Written with every scored ball: its INSERT is built once (as save() would write it).
_NEW_ENTRY = CompiledInsert(AuditEntry)
