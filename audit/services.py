"""The audit log's one write: who changed what, and when."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Model

from audit.models import AuditEntry
from matches.querycache import CompiledInsert, WriteBatch, insert_row

if TYPE_CHECKING:
    from config.types import Actor


def audit_record(
    *,
    actor: Actor | None,
    action: str,
    tournament: Model | None = None,
    match: Model | None = None,
    player: Model | None = None,
    data: dict[str, Any] | None = None,
    batch: WriteBatch | None = None,
) -> AuditEntry:
    """Write one audit entry; call it inside the service's transaction so both land or neither.
    Given a batch, the entry is queued in it (the caller sends it). With `player`, the entry
    is also part of that player's history. `tournament`, `match` and `player` are rows of the
    apps above this one (a Tournament, a Match, a Player), known here by their keys only."""
    if tournament is None and match is not None:
        tournament_id = match.tournament_id  # type: ignore[attr-defined]
    else:
        tournament_id = tournament.pk if tournament is not None else None
    user = actor if actor is not None and actor.is_authenticated else None
    entry = AuditEntry(
        tournament_id=tournament_id,
        match_id=match.pk if match is not None else None,
        player_id=player.pk if player is not None else None,
        actor=user,
        actor_name=user.get_username() if user is not None else "system",
        action=action,
        data=data or {},
    )
    return insert_row(_NEW_ENTRY, entry, batch=batch)


# Written with every scored ball: its INSERT is built once (as save() would write it).
_NEW_ENTRY = CompiledInsert(AuditEntry)
