"""Two records of one person become one (a superuser's task): registrations, matches, rating
history, claim codes and the audit history move to the kept record; the other is deleted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from audit.services import audit_record
from matches.models import Match
from tournaments import access
from tournaments.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, TournamentError
from tournaments.models import Player, PlayerClaim, RatingChange, Registration, Tournament

if TYPE_CHECKING:
    from config.types import Actor

MATCH_PLAYER_FIELDS = ("player_a", "player_b", "winner", "loser")


@transaction.atomic
def player_merge(*, keep: Player, drop: Player, actor: Actor) -> Player:
    """Merge `drop` into `keep`. Refused, with nothing changed, when both are in one
    tournament or both have a login. The kept record keeps its name and rating; a blank city,
    club or login is taken from the other."""
    if not access.can_merge_players(actor, keep, drop):
        raise TournamentError(
            "forbidden", _("Only a superuser can merge players."), status=FORBIDDEN
        )
    if keep.pk == drop.pk:
        raise TournamentError("invalid", _("Choose two different players."), status=BAD_REQUEST)
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk]).order_by("pk")
    }
    kept, gone = locked[keep.pk], locked[drop.pk]
    shared = list(
        Registration.objects.filter(player=kept, tournament__registrations__player=gone)
        .values_list("tournament__name", flat=True)
        .distinct()
    )
    if shared:
        raise TournamentError(
            "merge_conflict",
            _("Both are registered in %(names)s: withdraw one of them there first, or keep both.")
            % {"names": ", ".join(f"«{n}»" for n in shared)},
            status=CONFLICT,
        )
    if kept.user_id is not None and gone.user_id is not None:
        raise TournamentError(
            "merge_conflict",
            _("Both players have a login: unlink one of them first."),
            status=CONFLICT,
        )
    moved = {
        "registrations": Registration.objects.filter(player=gone).update(player=kept),
        "rating_changes": RatingChange.objects.filter(player=gone).update(player=kept),
        "audit": AuditEntry.objects.filter(player=gone).update(player=kept),
    }
    RatingChange.objects.filter(opponent=gone).update(opponent=kept)
    now = timezone.now()
    PlayerClaim.objects.filter(player=gone, used_at__isnull=True, expires_at__gt=now).update(
        expires_at=now
    )
    PlayerClaim.objects.filter(player=gone).update(player=kept)
    matches = 0
    for field in MATCH_PLAYER_FIELDS:
        matches += Match.objects.filter(**{field: gone}).update(**{field: kept})
    moved["matches"] = matches
    fields = []
    for field in ("city", "club"):
        if not getattr(kept, field) and getattr(gone, field):
            setattr(kept, field, getattr(gone, field))
            fields.append(field)
    user = gone.user
    gone_data = {
        "player": gone.pk,
        "name": gone.name,
        "city": gone.city,
        "rating": gone.rating,
        "user": gone.user_id,
    }
    gone.delete()
    if user is not None:
        kept.user = user
        fields.append("user")
    kept.save(update_fields=[*fields, "updated_at"])
    Tournament.objects.filter(registrations__player=kept).update(
        public_version=F("public_version") + 1
    )
    audit_record(
        actor=actor,
        action="player_merge",
        player=kept,
        data={
            "player": kept.pk,
            "name": kept.name,
            "rating": kept.rating,
            "merged": gone_data,
            "moved": moved,
        },
    )
    return kept
