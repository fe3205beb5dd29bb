"""The tournament's referees: the organiser names them by login and takes them off again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments.errors import BAD_REQUEST, TournamentError
from tournaments.models import Tournament
from tournaments.roles import roles_ensure

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor


@transaction.atomic
def tournament_referee_add(*, tournament: Tournament, username: str, actor: Actor | None) -> User:
    """Make the active user with this login (any letter case) a referee of the tournament: he
    may then score its matches and sees its panel's tables. Already a referee: nothing
    changes."""
    login = (username or "").strip()
    user = (
        get_user_model().objects.filter(username__iexact=login, is_active=True).first()
        if login
        else None
    )
    if user is None:
        raise TournamentError(
            "unknown_user",
            _(
                "No active login “%(login)s”. Create a new referee login below "
                "(“New referee login”)."
            )
            % {"login": login},
            status=BAD_REQUEST,
            params={"field": "username"},
        )
    if tournament.referees.filter(pk=user.pk).exists():
        return user
    tournament.referees.add(user)
    roles_ensure()
    user.groups.add(Group.objects.get(name="referee"))
    audit_record(
        actor=actor,
        action="tournament_referee_add",
        tournament=tournament,
        data={"user": user.pk, "username": user.get_username()},
    )
    return user


@transaction.atomic
def tournament_referee_remove(*, tournament: Tournament, user_id: int, actor: Actor | None) -> None:
    """He no longer referees this tournament (his other tournaments keep him). Not a referee
    of it: nothing changes."""
    user = tournament.referees.filter(pk=user_id).first()
    if user is None:
        return
    tournament.referees.remove(user)
    audit_record(
        actor=actor,
        action="tournament_referee_remove",
        tournament=tournament,
        data={"user": user.pk, "username": user.get_username()},
    )
