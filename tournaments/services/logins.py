"""The first logins of an installation (organiser, superuser) and integrators' API tokens.

Set-up commands may run again on every machine and every release: an existing login keeps its
password, a new one gets a random password that is shown once and stored only as a hash."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.models import Token

from audit.services import audit_record
from config.login_names import login_create
from tournaments.access import ORGANISER_GROUP
from tournaments.roles import roles_ensure

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

Role = Literal["organiser", "superuser"]


@dataclass(frozen=True)
class EnsuredLogin:
    user: User
    created: bool
    password: str | None  # only for a login created now: show it once


@transaction.atomic
def login_ensure(*, username: str, role: Role) -> EnsuredLogin:
    """The login exists with the role's rights afterwards; its password changes only if the
    login is created now."""
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    password = None
    created = user is None
    if user is None:
        # One folding of names (config.login_names): a look-alike of an existing login is
        # refused, never made beside it (nor given the role in its place).
        password = secrets.token_urlsafe(12)
        user = login_create(username=username, password=password)
    fields = []
    # The admin is the superusers' alone (config.admin): an organiser needs no staff flag.
    if role == "superuser" and not (user.is_superuser and user.is_staff):
        user.is_superuser = user.is_staff = True
        fields += ["is_superuser", "is_staff"]
    if fields:
        user.save(update_fields=fields)
    if role == "organiser":
        roles_ensure()
        user.groups.add(Group.objects.get(name=ORGANISER_GROUP))
    if created or fields:
        audit_record(
            actor=None,
            action="login_ensure",
            data={"user": user.pk, "username": username, "role": role, "created": created},
        )
    return EnsuredLogin(user=user, created=created, password=password)


@dataclass(frozen=True)
class TokenInfo:
    created: datetime
    hint: str  # the first characters, to tell tokens apart; never the whole key


def api_token_info(*, user: User) -> TokenInfo | None:
    token = Token.objects.filter(user=user).first()
    return None if token is None else TokenInfo(created=token.created, hint=token.key[:4])


@transaction.atomic
def api_token_issue(*, user: User, actor: Actor | None) -> str:
    """A new token for the user (his previous one stops working); the key is returned once."""
    Token.objects.filter(user=user).delete()
    token = Token.objects.create(user=user)
    audit_record(
        actor=actor,
        action="api_token_issue",
        data={"user": user.pk, "username": user.get_username(), "hint": token.key[:4]},
    )
    return str(token.key)


@transaction.atomic
def api_token_revoke(*, user: User, actor: Actor | None) -> bool:
    """The user's token stops working. False if he had none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    if deleted:
        audit_record(
            actor=actor,
            action="api_token_revoke",
            data={"user": user.pk, "username": user.get_username()},
        )
    return bool(deleted)
