"""The tournament's referees: the organiser names them by login and takes them off again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.login_names import fold_login, shape_login
from tournaments import access
from tournaments.access import REFEREE_GROUP
from tournaments.errors import BAD_REQUEST, TournamentError
from tournaments.models import Tournament
from tournaments.roles import roles_ensure

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor


@transaction.atomic
def tournament_referee_add(*, tournament: Tournament, username: str, actor: Actor | None) -> User:
    """Make a login the organiser may name (access.can_name_as_referee: one he made, or one
    that referees his tournaments; the name folded as every login's) a referee of the
    tournament: he may then score its matches and sees its panel's tables. Already a referee:
    nothing changes. Any other name, existing or not, gets the same refusal."""
    login = shape_login(username)
    user = (
        get_user_model()
        .objects.filter(Q(username__iexact=login) | Q(username__iexact=fold_login(login)))
        .filter(is_active=True)
        .order_by("pk")
        .first()
        if login
        else None
    )
    if user is None or not access.can_name_as_referee(actor, user):
        raise TournamentError(
            "unknown_user",
            _(
                "No login “%(login)s” among those you made or that referee your tournaments. "
                "Create a new referee login below (“New referee login”)."
            )
            % {"login": login},
            status=BAD_REQUEST,
            params={"field": "username"},
        )
    if tournament.referees.filter(pk=user.pk).exists():
        return user
    tournament.referees.add(user)
    roles_ensure()
    user.groups.add(Group.objects.get(name=REFEREE_GROUP))
    audit_record(
        actor=actor,
        action="tournament_referee_add",
        tournament=tournament,
        data={"user": user.pk, "username": user.get_username()},
    )
    return user


@transaction.atomic
def tournament_referee_remove(*, tournament: Tournament, user_id: int, actor: Actor | None) -> None:
    """He no longer referees this tournament (his other tournaments keep him; with none left
    he leaves the referee group). Not a referee of it: nothing changes."""
    user = tournament.referees.filter(pk=user_id).first()
    if user is None:
        return
    tournament.referees.remove(user)
    if not user.refereed_tournaments.exists():
        # The last tournament let him go: the role goes too (it opened the referee's pages).
        user.groups.remove(*Group.objects.filter(name=REFEREE_GROUP))
    audit_record(
        actor=actor,
        action="tournament_referee_remove",
        tournament=tournament,
        data={"user": user.pk, "username": user.get_username()},
    )
