"""Claim codes: how a login becomes a player's. Whoever may change the player's identity
(access.can_edit_player_identity: a superuser, or the organiser whose tournaments alone show
him) issues a one-time code (printed on the player's slip, with a QR code of the claim link); the
player, logged in or creating his login on the spot, uses it once before it expires. Only a
hash of the code is stored; a new code for the same player retires the old ones."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.login_names import (
    LoginRefused,
    LoginTaken,
    login_clash,
    login_create,
    login_refusal,
    shape_login,
)
from tournaments import access
from tournaments.errors import BAD_REQUEST, CONFLICT, FORBIDDEN, TournamentError
from tournaments.models import Player, PlayerClaim, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

CLAIM_DAYS = 30
# No 0/O, 1/I: read off paper and typed on a phone.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12  # 60 bits: not guessable at any rate a login form allows


def normalise_code(code: str) -> str:
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())


def format_code(code: str) -> str:
    """ABCD-EFGH-JKLM: the form printed on the slip (dashes and case do not matter)."""
    raw = normalise_code(code)
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def _hash(code: str) -> str:
    return hashlib.sha256(normalise_code(code).encode()).hexdigest()


def _invalid() -> TournamentError:
    return TournamentError(
        "claim_invalid",
        _("This code is unknown, already used or expired. Ask the organiser for a new slip."),
        status=BAD_REQUEST,
        params={"field": "code"},
    )


def _linked() -> TournamentError:
    return TournamentError(
        "player_linked",
        _("This player already has a login. Ask the organiser if it is not yours."),
        status=CONFLICT,
        params={"field": "code"},
    )


@transaction.atomic
def player_claim_issue(
    *, player: Player, actor: Actor, tournament: Tournament | None = None
) -> tuple[PlayerClaim, str]:
    """A new claim code for the player (returned in clear once, for the slip)."""
    if not access.can_edit_player_identity(actor, player):
        raise TournamentError(
            "forbidden",
            _(
                "Only a superuser, or the organiser whose tournaments alone show this player, "
                "can print his slip."
            ),
            status=FORBIDDEN,
        )
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.user_id is not None:
        raise TournamentError(
            "player_linked", _("This player already has a login."), status=CONFLICT
        )
    now = timezone.now()
    PlayerClaim.objects.filter(player=locked, used_at__isnull=True, expires_at__gt=now).update(
        expires_at=now
    )
    code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    claim = PlayerClaim.objects.create(
        player=locked,
        code_hash=_hash(code),
        tournament=tournament,
        issued_by=actor if actor.is_authenticated else None,
        expires_at=now + timedelta(days=CLAIM_DAYS),
    )
    audit_record(
        actor=actor,
        action="player_claim_issue",
        tournament=tournament,
        player=locked,
        data={"player": locked.pk, "name": locked.name, "expires_at": claim.expires_at.isoformat()},
    )
    return claim, format_code(code)


def _usable_claim(code: str) -> PlayerClaim:
    raw = normalise_code(code)
    if len(raw) != CODE_LENGTH:
        raise _invalid()
    claim = (
        PlayerClaim.objects.select_for_update()
        .select_related("player")
        .filter(code_hash=_hash(raw))
        .first()
    )
    if claim is None or claim.used_at is not None:
        raise _invalid()
    if claim.expires_at <= timezone.now():
        newer = (
            PlayerClaim.objects.filter(player=claim.player_id, created_at__gt=claim.created_at)
            .order_by("-created_at")
            .first()
        )
        if newer is not None:
            # A second slip retired this one: its holder is told so, not "unknown".
            raise TournamentError(
                "claim_replaced",
                _(
                    "This slip was replaced by a newer one printed on %(date)s: use the newest "
                    "slip, or ask the organiser."
                )
                % {"date": date_format(timezone.localtime(newer.created_at), "j E Y, H:i")},
                status=BAD_REQUEST,
                params={"field": "code"},
            )
        raise _invalid()
    return claim


def player_claim_peek(*, code: str) -> Player:
    """The player a usable code is for (to show whose slip it is before it is used)."""
    with transaction.atomic():
        return _usable_claim(code).player


@transaction.atomic
def player_claim_redeem(*, code: str, user: User) -> Player:
    """Link `user` to the player of the code, once. A player with a login, or a login that is
    another player's, is refused: a link is never replaced silently."""
    claim = _usable_claim(code)
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.user_id is not None:
        raise _linked()
    if Player.objects.filter(user=user).exists():
        raise TournamentError(
            "login_taken",
            _("Your login is already linked to another player."),
            status=CONFLICT,
            params={"field": "code"},
        )
    player.user = user
    player.save(update_fields=["user", "updated_at"])
    claim.used_at = timezone.now()
    claim.used_by = user
    claim.save(update_fields=["used_at", "used_by"])
    audit_record(
        actor=user,
        action="player_link_login",
        tournament=claim.tournament,
        player=player,
        data={
            "player": player.pk,
            "user": user.pk,
            "username": user.get_username(),
            "by": "claim",
            "issued_by": claim.issued_by_id,
        },
    )
    return player


def clean_new_login(*, username: str, password: str | None, full_name: str = "") -> str:
    """The login name, checked: free once folded (config.login_names: ＯＲＧＢ, ORGB and orgb
    are one login), the characters Django allows, and a password the validators accept (None:
    a password made by the caller). Raises TournamentError (400/409) with the field."""
    login = shape_login(username)
    try:
        if not login:
            raise ValidationError(_("Choose a login."))
        UnicodeUsernameValidator()(login)
        refusal = login_refusal(login)
        if refusal:
            raise ValidationError(refusal)
    except ValidationError as err:
        raise TournamentError(
            "invalid_login",
            " ".join(err.messages),
            status=BAD_REQUEST,
            params={"field": "username"},
        ) from err
    if len(login) > 150:
        raise TournamentError(
            "invalid_login",
            _("The login is too long (150 characters at most)."),
            status=BAD_REQUEST,
            params={"field": "username"},
        )
    if login_clash(login) is not None:
        raise _taken(login)
    if password is not None:
        try:
            validate_password(password, get_user_model()(username=login, first_name=full_name))
        except ValidationError as err:
            raise TournamentError(
                "invalid_password",
                " ".join(err.messages),
                status=BAD_REQUEST,
                params={"field": "password"},
            ) from err
    return login


def _taken(login: str) -> TournamentError:
    return TournamentError(
        "username_taken",
        _("The login “%(login)s” is taken: choose another.") % {"login": login},
        status=CONFLICT,
        params={"field": "username"},
    )


def new_login_create(*, username: str, password: str | None, full_name: str = "") -> User:
    """A login that clean_new_login accepted, created under the folding rule's lock: a
    look-alike made meanwhile is the same 409, never an IntegrityError."""
    try:
        return login_create(username=username, password=password, first_name=full_name[:150])
    except LoginTaken:
        raise _taken(shape_login(username)) from None
    except LoginRefused as err:
        raise TournamentError(
            "invalid_login", str(err), status=BAD_REQUEST, params={"field": "username"}
        ) from None


@transaction.atomic
def player_claim_signup(*, code: str, username: str, password: str) -> tuple[User, Player]:
    """The invite: a player without a login creates one with his code and is linked to it."""
    claim = _usable_claim(code)
    if claim.player.user_id is not None:
        raise _linked()
    login = clean_new_login(username=username, password=password, full_name=claim.player.name)
    user = new_login_create(username=login, password=password, full_name=claim.player.name)
    audit_record(
        actor=user,
        action="login_create",
        tournament=claim.tournament,
        player=claim.player,
        data={"user": user.pk, "username": login, "role": "player", "by": "claim"},
    )
    return user, player_claim_redeem(code=code, user=user)
