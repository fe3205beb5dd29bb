"""Who may do what: the one place where roles are turned into decisions.

Views declare what they need through the DRF permission classes and the view mixins below;
every check ends in one of these functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from matches.models import Match
    from tournaments.models import Tournament

    User = AbstractBaseUser | AnonymousUser

ORGANISER_GROUP = "organiser"
REFEREE_GROUP = "referee"


def _in_group(user: Any, name: str) -> bool:
    cache = getattr(user, "_luza_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._luza_groups = cache
    return name in cache


def is_organiser_role(user: Any) -> bool:
    """May create tournaments (the organiser group) or is a superuser."""
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, ORGANISER_GROUP)))


def is_referee_role(user: Any) -> bool:
    """In the referee group (a login made for refereeing)."""
    return bool(user.is_authenticated and _in_group(user, REFEREE_GROUP))


def can_manage_tournament(user: Any, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def is_tournament_referee(user: Any, tournament: Tournament) -> bool:
    return bool(user.is_authenticated and tournament.referees.filter(pk=user.pk).exists())


def can_view_tournament(user: Any, tournament: Tournament) -> bool:
    if tournament.is_public:
        return True
    return can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament)


def is_match_player(user: Any, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    player_id = getattr(getattr(user, "player", None), "pk", None)
    return player_id is not None and player_id in (match.player_a_id, match.player_b_id)


def can_score_match(user: Any, match: Match) -> bool:
    """Organisers of the tournament, its referees, the match's referees, and with self-scoring
    the two players of the match."""
    return match_scoring_role(user, match) is not None


def can_view_match(user: Any, match: Match) -> bool:
    # A private tournament is seen by its organisers and referees, who all score its matches:
    # the scoring role answers both questions with one cached check.
    return match.tournament.is_public or match_scoring_role(user, match) is not None


def can_see_player_login(user: Any, player: Any) -> bool:
    """Which login a player is linked to is nobody else's business: the player himself, the
    organisers (who link players to logins) and superusers see it; anonymous readers never."""
    if not user or not user.is_authenticated:
        return False
    return bool(user.is_superuser or player.user_id == user.pk or is_organiser_role(user))


def managed_tournaments(user: Any) -> Any:
    """The tournaments `user` organises (all for a superuser), as a queryset to scope by."""
    from tournaments.models import Tournament

    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(organisers=user)


def _can_view_object(user: Any, obj: Any) -> bool:
    from matches.models import Match

    if isinstance(obj, Match):
        return can_view_match(user, obj)
    return can_view_tournament(user, _tournament_of(obj))


def require_visible(user: Any, obj: Any) -> None:
    """An object of a tournament the user may not see does not exist for him: 404, the answer
    to an unknown id, for reads and writes alike, so that guessing ids confirms nothing."""
    if not _can_view_object(user, obj):
        raise NotFound


# --- Declarations for views -----------------------------------------------------------------


def _tournament_of(obj: Any) -> Tournament:
    from matches.models import Match, Table
    from tournaments.models import Registration, Tournament

    if isinstance(obj, Tournament):
        return obj
    if isinstance(obj, Match | Registration | Table):
        return obj.tournament
    raise TypeError(f"no tournament for {type(obj).__name__}")


class TournamentPermission(BasePermission):
    """Read: anyone who may see the tournament. Write: its organisers."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", None) == "create" and getattr(view, "creates_tournament", False):
            return is_organiser_role(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return can_manage_tournament(request.user, _tournament_of(obj))


class MatchScoringPermission(BasePermission):
    """Read: anyone who may see the match. Write: organisers, referees, self-scoring players."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Match) -> bool:
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return can_score_match(request.user, obj)


class OrganiserRequiredMixin(AccessMixin):
    """Panel views: the user must organise `self.get_tournament()` (or be a superuser). A
    tournament he may not even see is a 404, as on the public pages; one he sees is a 403."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        tournament = self.get_tournament()  # type: ignore[attr-defined]
        if not can_manage_tournament(request.user, tournament):
            if not can_view_tournament(request.user, tournament):
                raise Http404
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


def require_manage(user: Any, tournament: Tournament) -> None:
    if not can_manage_tournament(user, tournament):
        raise PermissionDenied


def require_score(user: Any, match: Match) -> None:
    if not can_score_match(user, match):
        raise PermissionDenied


# --- Matches: scoring roles, clock corrections, judge calls ---------------------------------

MATCH_ORGANISER = "organiser"
MATCH_REFEREE = "referee"
MATCH_PLAYER = "player"


def match_scoring_role(user: Any, match: Match) -> str | None:
    """Who `user` is for writes to `match`: "organiser", "referee", "player" (self-scoring) or
    None. Same rule as can_score_match; cached on the user per match so that a view's permission
    check and the service behind it share one set of queries."""
    if not user or not user.is_authenticated:
        return None
    cache = getattr(user, "_luza_match_roles", None)
    if cache is None:
        cache = {}
        user._luza_match_roles = cache
    if match.pk in cache:
        return cache[match.pk]
    tournament = match.tournament
    role: str | None = None
    if user.is_superuser:
        role = MATCH_ORGANISER
    else:
        organiser, referee, match_referee = _role_flags(user, match)
        if organiser:
            role = MATCH_ORGANISER
        elif referee or match_referee:
            role = MATCH_REFEREE
        elif tournament.self_scoring and is_match_player(user, match):
            role = MATCH_PLAYER
    cache[match.pk] = role
    return role


ROLE_FLAGS = ("role_organiser", "role_referee", "role_match_referee")


def _role_links() -> tuple[tuple[Any, str, str], ...]:
    """The link tables of the three flags: (through model, its column, the match's attribute
    that column holds). One definition for the plain SQL and the annotations below."""
    from matches.models import Match
    from tournaments.models import Tournament

    return (
        (Tournament.organisers.through, "tournament_id", "tournament_id"),
        (Tournament.referees.through, "tournament_id", "tournament_id"),
        (Match.referees.through, "match_id", "pk"),
    )


def role_flag_annotations(user_id: Any) -> dict[str, Any]:
    """The flags of _role_flags for `user_id`, as annotations of a Match queryset: for a
    query that loads the match anyway (the scoring writes' row lock, whose SQL is built once),
    so that the role costs no query of its own. Record them with role_flags_loaded."""
    from django.db.models import Exists, OuterRef

    flags = (
        Exists(through.objects.filter(**{column: OuterRef(attribute), "user_id": user_id}))
        for through, column, attribute in _role_links()
    )
    return dict(zip(ROLE_FLAGS, flags, strict=True))


def role_flags_loaded(match: Match, user_id: int) -> None:
    """The match was loaded with role_flag_annotations(user_id)."""
    match._luza_role_flags = (user_id, tuple(bool(getattr(match, f)) for f in ROLE_FLAGS))  # type: ignore[attr-defined]


def _role_flags(user: Any, match: Match) -> tuple[bool, bool, bool]:
    """(organiser of the tournament, referee of the tournament, referee of the match) in one
    round trip, unless they came with the match (role_flags_loaded). Plain SQL over the three
    link tables: it runs on every scoring write, and the ORM's Exists() version costs several
    times more to build than the database takes to answer it."""
    loaded = getattr(match, "_luza_role_flags", None)
    if loaded is not None and loaded[0] == user.pk:
        return loaded[1]
    from django.db import connection

    links = _role_links()
    sql = _ROLE_FLAGS_SQL.get(connection.vendor)
    if sql is None:
        qn = connection.ops.quote_name

        def exists(model: Any, column: str) -> str:
            # Names from the models' metadata, values as parameters: nothing from the request.
            table, column, user = qn(model._meta.db_table), qn(column), qn("user_id")
            return f"EXISTS (SELECT 1 FROM {table} WHERE {column} = %s AND {user} = %s)"  # noqa: S608

        sql = _ROLE_FLAGS_SQL[connection.vendor] = "SELECT " + ", ".join(
            exists(through, column) for through, column, _ in links
        )
    params = [value for _, _, attribute in links for value in (getattr(match, attribute), user.pk)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        organiser, referee, match_referee = cursor.fetchone()
    return bool(organiser), bool(referee), bool(match_referee)


_ROLE_FLAGS_SQL: dict[str, str] = {}


def can_correct_match_clock(user: Any, match: Match) -> bool:
    """Undo or enter the clock's time_expired, or set the remaining time: organisers only."""
    return match_scoring_role(user, match) == MATCH_ORGANISER


def can_resolve_judge_call(user: Any, match: Match) -> bool:
    """A judge call is resolved by a judge (a referee of the tournament) or an organiser."""
    if not user or not user.is_authenticated:
        return False
    tournament = match.tournament
    return can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament)


class MatchWritePermission(BasePermission):
    """MatchScoringPermission with the role cached for the service that does the write."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Match) -> bool:
        require_visible(request.user, obj)
        if request.method in SAFE_METHODS:
            return True
        return match_scoring_role(request.user, obj) is not None


# --- People: players of the shared registry, logins the panel issues -------------------------


def _organised_registrations(user: Any, player: Any, *, unfinished: bool) -> bool:
    from tournaments.models import Registration, Tournament

    rows = Registration.objects.filter(player=player, tournament__organisers=user)
    if unfinished:
        rows = rows.exclude(tournament__status=Tournament.Status.FINISHED)
    return rows.exists()


def can_edit_player(user: Any, player: Any) -> bool:
    """Name, city and club: a superuser, or an organiser of a tournament the player is
    registered in that is not finished (he may be fixing its standings and diplomas)."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or _organised_registrations(user, player, unfinished=True)


def can_issue_claim(user: Any, player: Any) -> bool:
    """A claim code (the player's slip): a superuser, or an organiser of any of his
    tournaments (the one who has met him at the desk)."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or _organised_registrations(user, player, unfinished=False)


def can_adjust_rating(user: Any) -> bool:
    """Ratings move by rated results; a hand adjustment is a superuser's (audited)."""
    return bool(user.is_authenticated and user.is_superuser)


def can_link_login_directly(user: Any) -> bool:
    """Link or unlink a login without a claim code: superusers only."""
    return bool(user.is_authenticated and user.is_superuser)


def can_merge_players(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_superuser)


def can_view_player_history(user: Any, player: Any) -> bool:
    """The changes to a player: every organiser (players are shared), and the player."""
    if not user.is_authenticated:
        return False
    return is_organiser_role(user) or getattr(player, "user_id", None) == user.pk


def can_reset_login_password(user: Any, login: Any, tournament: Tournament) -> bool:
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
    from tournaments.models import IssuedLogin

    issued = IssuedLogin.objects.filter(user=login).first()
    if issued is None:
        return False
    if issued.created_by_id == user.pk:
        return True
    return issued.tournament_id is not None and (
        managed_tournaments(user).filter(pk=issued.tournament_id).exists()
    )


# --- Logins of the organiser role (API tokens) -----------------------------------------------


class OrganiserRolePermission(BasePermission):
    """API: members of the organiser group and superusers, for every method."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return is_organiser_role(request.user)


class OrganiserRoleRequiredMixin(AccessMixin):
    """Pages of the organiser role not tied to one tournament: anonymous → login, others 403."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not is_organiser_role(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)
