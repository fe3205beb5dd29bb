"""Logins the organiser makes in the panel: a referee's login with a generated password (shown
once, stored hashed), and a new password for a referee he issued."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments import access
from tournaments.errors import FORBIDDEN, TournamentError
from tournaments.models import IssuedLogin, Tournament
from tournaments.roles import roles_ensure
from tournaments.services.claims import clean_new_login, new_login_create

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

# Lower case without look-alikes (l/1, o/0): read off a slip and typed on a phone.
SLIP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSWORD_GROUPS = 3
PASSWORD_GROUP_LENGTH = 4  # 12 characters: about 59 bits


def generate_password() -> str:
    return "-".join(
        "".join(secrets.choice(SLIP_ALPHABET) for _ in range(PASSWORD_GROUP_LENGTH))
        for _ in range(PASSWORD_GROUPS)
    )


def _require_manage(actor: Actor, tournament: Tournament) -> None:
    if not access.can_manage_tournament(actor, tournament):
        raise TournamentError(
            "forbidden", _("Only the tournament's organisers can do this."), status=FORBIDDEN
        )


@transaction.atomic
def referee_login_create(
    *, tournament: Tournament, actor: Actor, username: str, full_name: str = ""
) -> tuple[User, str]:
    """A new login that referees this tournament; returns it and its password (in clear only
    here: the caller shows it once, on the slip)."""
    _require_manage(actor, tournament)
    assert actor.is_authenticated  # refused above otherwise
    name = " ".join((full_name or "").split())[:150]
    login = clean_new_login(username=username, password=None, full_name=name)
    password = generate_password()
    user = new_login_create(username=login, password=password, full_name=name)
    IssuedLogin.objects.create(user=user, tournament=tournament, created_by=actor)
    roles_ensure()
    user.groups.add(Group.objects.get(name="referee"))
    tournament.referees.add(user)
    audit_record(
        actor=actor,
        action="referee_login_create",
        tournament=tournament,
        data={"user": user.pk, "username": login, "name": name},
    )
    return user, password


@transaction.atomic
def referee_password_reset(*, tournament: Tournament, user: User, actor: Actor) -> str:
    """A new password for a referee login issued in the panel; the old one stops working and
    his open sessions end. Returns the password in clear, once."""
    if not access.can_reset_login_password(actor, user, tournament):
        raise TournamentError(
            "forbidden",
            _("You can reset only the password of a referee login made in the panel."),
            status=FORBIDDEN,
        )
    password = generate_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    audit_record(
        actor=actor,
        action="referee_password_reset",
        tournament=tournament,
        data={"user": user.pk, "username": user.get_username()},
    )
    return password


def password_changed(*, user: User) -> None:
    """A user changed his own password (the form did it): recorded, never the password."""
    audit_record(actor=user, action="password_change", data={"user": user.pk})
