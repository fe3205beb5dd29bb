"""Who may do what: the one place where roles are turned into decisions.

Views declare what they need through the DRF permission classes and the view mixins of
tournaments.web.shared.permissions, and every check ends in one of these functions. The
decisions about one match (who scores it, who corrects its clock or resolves a judge call) are
matches.access's, which the match writes use and which these build on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet

from audit.models import AuditEntry
from matches.access import can_manage_tournament as can_manage_tournament
from matches.access import is_tournament_referee as is_tournament_referee
from tournaments.models import IssuedLogin, Player, Registration, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

# can_manage_tournament and is_tournament_referee are decided in matches.access (the match
# writes need them there, below this app) and asked here too, as tournaments.access.*.

ORGANISER_GROUP = "organiser"
REFEREE_GROUP = "referee"


def _in_group(user: Actor, name: str) -> bool:
    cache: set[str] | None = getattr(user, "_luza_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._luza_groups = cache  # type: ignore[union-attr]
    return name in cache


def is_organiser_role(user: Actor) -> TypeGuard[User]:
    """May create tournaments (the organiser group) or is a superuser."""
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, ORGANISER_GROUP)))


def is_referee_role(user: Actor) -> TypeGuard[User]:
    """In the referee group (a login made for refereeing)."""
    return bool(user.is_authenticated and _in_group(user, REFEREE_GROUP))


def can_view_tournament(user: Actor, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament)


def can_see_player_login(user: Actor | None, player: Player) -> bool:
    """Which login a player is linked to is nobody else's business: the player himself, the
    organisers (who link players to logins) and superusers see it; anonymous readers never."""
    if not user or not user.is_authenticated:
        return False
    return bool(user.is_superuser or player.user_id == user.pk or is_organiser_role(user))


def managed_tournaments(user: Actor) -> QuerySet[Tournament]:
    """The tournaments `user` organises (all for a superuser), as a queryset to scope by."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(organisers=user)


# --- Declarations for views -----------------------------------------------------------------


def require_manage(user: Actor, tournament: Tournament) -> None:
    if not can_manage_tournament(user, tournament):
        raise PermissionDenied


# --- People: players of the shared registry, logins the panel issues -------------------------


def _created_by(user: User, player: Player) -> bool:
    return AuditEntry.objects.filter(player=player, action="player_create", actor=user).exists()


def can_edit_player_identity(user: Actor, player: Player) -> bool:
    """THE rule of a player's identity (name, city, club, his login's link, his claim code).

    A player's identity is his own: a superuser, the player himself (his linked login), or an
    organiser while the record is his alone: no login yet, and no tournament of another
    organiser shows the player (registering him gives rights over that registration only).
    Such an organiser must have met the record: registered him or created him. Everything
    that changes who a player is (the API's and the panel's edit, a claim code, a merge)
    asks this function; a login is linked only by a claim code or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if player.user_id is not None:
        return bool(player.user_id == user.pk)
    if not is_organiser_role(user):
        return False
    registrations = Registration.objects.filter(player=player)
    if registrations.exclude(tournament__organisers=user).exists():
        return False
    return registrations.exists() or _created_by(user, player)


def can_propose_player_change(user: Actor, player: Player) -> bool:
    """Who may ask for a change of a player's identity: an organiser who met the record (it is
    in one of his tournaments, or he created it), or a superuser. The request changes nothing
    until can_decide_player_change's person approves it."""
    if not is_organiser_role(user):
        return False
    if user.is_superuser:
        return True
    mine = Registration.objects.filter(player=player, tournament__organisers=user)
    return mine.exists() or _created_by(user, player)


def can_decide_player_change(user: Actor, player: Player) -> bool:
    """Who approves a proposed change of a player's identity: the player himself (his linked
    login) or a superuser, never the organiser who asked."""
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser or (player.user_id is not None and player.user_id == user.pk))


def can_adjust_rating(user: Actor) -> bool:
    """Ratings move by rated results; a hand adjustment is a superuser's (audited)."""
    return bool(user.is_authenticated and user.is_superuser)


def can_link_login_directly(user: Actor) -> bool:
    """Link or unlink a login without a claim code: superusers only."""
    return bool(user.is_authenticated and user.is_superuser)


def can_merge_players(user: Actor, keep: Player, drop: Player) -> bool:
    """A merge moves one person's records onto another's: a superuser's task (who passes the
    identity rule for both records by definition)."""
    return bool(
        user.is_authenticated
        and user.is_superuser
        and can_edit_player_identity(user, keep)
        and can_edit_player_identity(user, drop)
    )


def can_view_player_history(user: Actor, player: Player) -> bool:
    """The changes to a player: every organiser (players are shared), and the player."""
    if not user.is_authenticated:
        return False
    return is_organiser_role(user) or getattr(player, "user_id", None) == user.pk


def can_name_as_referee(user: Actor | None, login: User) -> bool:
    """Whom an organiser may name as his tournament's referee: a login he (or a fellow
    organiser of his tournaments) made in the panel, or one that referees or refereed one of
    his tournaments (it accepted once). Never a superuser's or staff login; anyone for a
    superuser; anyone for the system (an import names its own). Names outside are refused
    with the one answer an unknown name gets, so the form confirms no login."""
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if login.is_superuser or login.is_staff:
        return False
    mine = managed_tournaments(user)
    made = IssuedLogin.objects.filter(user=login).filter(
        Q(created_by=user) | Q(tournament__in=mine)
    )
    return made.exists() or login.refereed_tournaments.filter(pk__in=mine).exists()


def can_reset_login_password(user: Actor, login: User, tournament: Tournament) -> bool:
    """A referee's password: a superuser, or an organiser of `tournament` when the login was
    issued in the panel (by him or for a tournament he organises) and is a plain login (never
    an organiser's, staff's or superuser's). The referee must referee `tournament`."""
    if not can_manage_tournament(user, tournament):
        return False
    if not tournament.referees.filter(pk=login.pk).exists():
        return False
    if user.is_superuser:
        return True
    if login.is_superuser or login.is_staff or _in_group(login, ORGANISER_GROUP):
        return False
    issued = IssuedLogin.objects.filter(user=login).first()
    if issued is None:
        return False
    if issued.created_by_id == user.pk:
        return True
    return issued.tournament_id is not None and (
        managed_tournaments(user).filter(pk=issued.tournament_id).exists()
    )


# --- Logins of the organiser role (API tokens) -----------------------------------------------
