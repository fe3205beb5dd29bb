"""Players: create, edit, link to a login. A rating set by hand is recorded in the history."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.audit import audit_record
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.models import Player, RatingChange, Tournament, default_rating

MIN_RATING = 0
MAX_RATING = 4000
PLAYER_FIELDS = ("name", "city", "club", "rating", "user")
SHOWN_FIELDS = {"name", "city", "club", "rating"}  # on brackets, scoreboards and standings


def _clean_rating(value: Any) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not MIN_RATING <= value <= MAX_RATING
    ):
        raise TournamentError(
            "invalid_player",
            _("The rating must be a whole number from %(min)s to %(max)s.")
            % {"min": MIN_RATING, "max": MAX_RATING},
            status=BAD_REQUEST,
            params={"field": "rating"},
        )
    return value


def _clean_name(value: Any) -> str:
    name = " ".join(str(value or "").split())
    if not name:
        raise TournamentError(
            "invalid_player",
            _("The player needs a name."),
            status=BAD_REQUEST,
            params={"field": "name"},
        )
    return name


def _check_login(user: Any, player: Player | None) -> None:
    if user is None:
        return
    taken = Player.objects.filter(user=user)
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    if taken.exists():
        raise TournamentError(
            "login_taken",
            _("This login is already linked to another player."),
            status=CONFLICT,
            params={"field": "user"},
        )


@transaction.atomic
def player_create(
    *,
    actor: Any,
    name: str,
    city: str = "",
    club: str = "",
    rating: int | None = None,
    user: Any = None,
) -> Player:
    """A new player; without a rating he starts at settings.LUZA_INITIAL_RATING (900)."""
    _check_login(user, None)
    player = Player.objects.create(
        name=_clean_name(name),
        city=(city or "").strip(),
        club=(club or "").strip(),
        rating=default_rating() if rating is None else _clean_rating(rating),
        user=user,
    )
    audit_record(
        actor=actor,
        action="player_create",
        data={"player": player.pk, "name": player.name, "rating": player.rating},
    )
    return player


@transaction.atomic
def player_update(*, player: Player, actor: Any, data: Mapping[str, Any]) -> Player:
    """Edit name, city, club, login, or the rating (a manual rating change is kept in the
    history with reason "manual")."""
    unknown = set(data) - set(PLAYER_FIELDS)
    if unknown:
        raise TournamentError(
            "invalid_player",
            _("Unknown fields: %(keys)s.") % {"keys": ", ".join(sorted(unknown))},
            status=BAD_REQUEST,
        )
    locked = Player.objects.select_for_update().get(pk=player.pk)
    changed: dict[str, Any] = {}
    if "name" in data:
        changed["name"] = _clean_name(data["name"])
    for field in ("city", "club"):
        if field in data:
            changed[field] = (data[field] or "").strip()
    if "user" in data:
        _check_login(data["user"], locked)
        changed["user"] = data["user"]
    if "rating" in data:
        rating = _clean_rating(data["rating"])
        if rating != locked.rating:
            RatingChange.objects.create(
                player=locked,
                rating_before=locked.rating,
                rating_after=rating,
                delta=rating - locked.rating,
                reason="manual",
            )
            changed["rating"] = rating
    changed = {f: v for f, v in changed.items() if getattr(locked, f) != v}
    if not changed:
        return locked
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.save(update_fields=[*changed, "updated_at"])
    if set(changed) & SHOWN_FIELDS:
        # His tournaments' public pages show these: their ETags and cached brackets follow
        # public_version, so a renamed player is not shown by his old name.
        Tournament.objects.filter(registrations__player=locked).update(
            public_version=F("public_version") + 1
        )
    audit_record(
        actor=actor,
        action="player_update",
        data={
            "player": locked.pk,
            "changed": {
                f: (v.get_username() if isinstance(v, get_user_model()) else v)
                for f, v in changed.items()
            },
        },
    )
    return locked
