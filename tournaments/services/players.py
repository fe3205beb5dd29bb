"""Players of the shared registry: create (with a check for the same person twice), edit within
the organiser's rights, and the superuser's rating adjustment and direct login link.

Every change is audited with the player, so that it shows in his history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments import access
from tournaments.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, TournamentError
from tournaments.models import Player, RatingChange, Tournament, default_rating
from tournaments.names import fold_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

MIN_RATING = 0
MAX_RATING = 4000
PLAYER_FIELDS = ("name", "city", "club", "rating", "user")
SHOWN_FIELDS = {"name", "city", "club", "rating"}  # on brackets, scoreboards and standings
DUPLICATES_SHOWN = 5


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


def _forbidden(message: str, field: str) -> TournamentError:
    return TournamentError("forbidden", message, status=FORBIDDEN, params={"field": field})


def player_duplicates(*, name: str, city: str = "") -> list[Player]:
    """Players who may be this person already: the same folded name, and the same folded
    city when a city is given."""
    rows = Player.objects.filter(name_folded=fold_name(name))
    folded_city = fold_name(city)
    found = list(rows.order_by("pk")[:50])
    if folded_city:
        found = [p for p in found if fold_name(p.city) == folded_city]
    return found


@transaction.atomic
def player_create(
    *,
    actor: Actor | None,
    name: str,
    city: str = "",
    club: str = "",
    rating: int | None = None,
    confirm_duplicate: bool = False,
) -> Player:
    """A new player; without a rating he starts at settings.LUZA_INITIAL_RATING (900). A name
    (and city, when given) the registry already has is refused with the existing records
    (code "possible_duplicate") unless `confirm_duplicate`: a namesake is a new person only
    when the organiser says so."""
    clean_name = _clean_name(name)
    clean_city = (city or "").strip()
    if not confirm_duplicate:
        same = player_duplicates(name=clean_name, city=clean_city)
        if same:
            raise TournamentError(
                "possible_duplicate",
                _(
                    "%(name)s is already in the players' list. Register the existing player, "
                    "or confirm that this is a different person."
                )
                % {"name": clean_name},
                status=CONFLICT,
                params={
                    "players": [
                        {"id": p.pk, "name": p.name, "city": p.city, "rating": p.rating}
                        for p in same[:DUPLICATES_SHOWN]
                    ]
                },
            )
    player = Player.objects.create(
        name=clean_name,
        city=clean_city,
        club=(club or "").strip(),
        rating=default_rating() if rating is None else _clean_rating(rating),
    )
    audit_record(
        actor=actor,
        action="player_create",
        player=player,
        data={
            "player": player.pk,
            "name": player.name,
            "city": player.city,
            "rating": player.rating,
            "namesake_confirmed": bool(confirm_duplicate),
        },
    )
    return player


def _bump_tournaments(player: Player) -> None:
    # His tournaments' public pages show these: their ETags and cached brackets follow
    # public_version, so a renamed player is not shown by his old name.
    Tournament.objects.filter(registrations__player=player).update(
        public_version=F("public_version") + 1
    )


@transaction.atomic
def player_update(*, player: Player, actor: Actor, data: Mapping[str, Any]) -> Player:
    """Edit name, city, club (access.can_edit_player_identity), the rating (a superuser: recorded in the rating history as "manual"), or
    the login (a superuser: never replacing a linked one silently). A refusal changes
    nothing."""
    unknown = set(data) - set(PLAYER_FIELDS)
    if unknown:
        raise TournamentError(
            "invalid_player",
            _("Unknown fields: %(keys)s.") % {"keys": ", ".join(sorted(unknown))},
            status=BAD_REQUEST,
        )
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if set(data) & {"name", "city", "club"} and not access.can_edit_player_identity(actor, locked):
        raise _forbidden(
            _(
                "Only the player himself, a superuser, or the organiser whose tournaments "
                "alone show this player (while he has no login) can change his name, city or "
                "club."
            ),
            "name",
        )
    if "rating" in data and not access.can_adjust_rating(actor):
        raise _forbidden(
            _("The rating changes by rated results; only a superuser can adjust it."), "rating"
        )
    if "user" in data and not access.can_link_login_directly(actor):
        raise _forbidden(
            _("A login is linked to a player by his claim code from the slip."), "user"
        )
    changed: dict[str, Any] = {}
    if "name" in data:
        changed["name"] = _clean_name(data["name"])
    for field in ("city", "club"):
        if field in data:
            changed[field] = (data[field] or "").strip()
    if "rating" in data:
        changed["rating"] = _clean_rating(data["rating"])
    changed = {f: v for f, v in changed.items() if getattr(locked, f) != v}
    if "user" in data:
        _relink(locked, data["user"], actor)
    if not changed:
        return locked
    before = {f: getattr(locked, f) for f in changed}
    if "rating" in changed:
        RatingChange.objects.create(
            player=locked,
            rating_before=locked.rating,
            rating_after=changed["rating"],
            delta=changed["rating"] - locked.rating,
            reason="manual",
        )
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.save(update_fields=[*changed, "updated_at"])
    if set(changed) & SHOWN_FIELDS:
        _bump_tournaments(locked)
    audit_record(
        actor=actor,
        action="player_rating_adjust" if set(changed) == {"rating"} else "player_update",
        player=locked,
        data={"player": locked.pk, "before": before, "changed": changed},
    )
    return locked


def _relink(player: Player, user: User | None, actor: Actor | None) -> None:
    """A superuser's direct link (or unlink, with None). A login linked elsewhere, or a
    player linked to another login, is refused: unlink first, on purpose."""
    if user is not None and player.user_id == user.pk:
        return
    if user is None:
        if player.user_id is None:
            return
        before = player.user
        assert before is not None  # linked: user_id is set
        player.user = None
        player.save(update_fields=["user", "updated_at"])
        audit_record(
            actor=actor,
            action="player_unlink_login",
            player=player,
            data={"player": player.pk, "user": before.pk, "username": before.get_username()},
        )
        return
    if player.user_id is not None:
        raise TournamentError(
            "player_linked",
            _("This player is already linked to another login: unlink it first."),
            status=CONFLICT,
            params={"field": "user"},
        )
    if Player.objects.filter(user=user).exists():
        raise TournamentError(
            "login_taken",
            _("This login is already linked to another player."),
            status=CONFLICT,
            params={"field": "user"},
        )
    player.user = user
    player.save(update_fields=["user", "updated_at"])
    audit_record(
        actor=actor,
        action="player_link_login",
        player=player,
        data={
            "player": player.pk,
            "user": user.pk,
            "username": user.get_username(),
            "by": "superuser",
        },
    )
