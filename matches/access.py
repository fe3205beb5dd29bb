"""Who may act on a match: the decisions the match writes make themselves.

The tournament of a match is read through the match's foreign key (its organisers, referees and
self-scoring setting), so these decisions need nothing of the tournaments app, which sits above.
The tournament-level decisions (who sees or manages a tournament, the people of the registry)
are tournaments.access's; it builds on these.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, TypeGuard

from django.db import connection
from django.db.models import Exists, Model, OuterRef

from matches.models import Match, TournamentRow

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

MATCH_ORGANISER = "organiser"
MATCH_REFEREE = "referee"
MATCH_PLAYER = "player"


def can_manage_tournament(user: Actor, tournament: TournamentRow) -> TypeGuard[User]:
    """Organises the tournament (or is a superuser): a signed-in user. Here rather than in
    tournaments.access, which uses it too: the match decisions below need it, and matches sits
    below tournaments."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return bool(tournament.organisers.filter(pk=user.pk).exists())  # type: ignore[attr-defined]


def is_tournament_referee(user: Actor, tournament: TournamentRow) -> bool:
    return bool(
        user.is_authenticated and tournament.referees.filter(pk=user.pk).exists()  # type: ignore[attr-defined]
    )


def is_match_player(user: Actor, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    player_id = getattr(getattr(user, "player", None), "pk", None)
    return player_id is not None and player_id in (match.player_a_id, match.player_b_id)


def can_score_match(user: Actor, match: Match) -> bool:
    """Organisers of the tournament, its referees, the match's referees, and with self-scoring
    the two players of the match."""
    return match_scoring_role(user, match) is not None


def can_view_match(user: Actor, match: Match) -> bool:
    # A private tournament is seen by its organisers and referees, who all score its matches:
    # the scoring role answers both questions with one cached check.
    return match.tournament.is_public or match_scoring_role(user, match) is not None


def match_scoring_role(user: Actor | None, match: Match) -> str | None:
    """Who `user` is for writes to `match`: "organiser", "referee", "player" (self-scoring) or
    None. Same rule as can_score_match; cached on the user per match so that a view's permission
    check and the service behind it share one set of queries."""
    if not user or not user.is_authenticated:
        return None
    roles: dict[int, str | None] | None = getattr(user, "_luza_match_roles", None)
    if roles is None:
        roles = {}
        user._luza_match_roles = roles  # type: ignore[attr-defined]
    if match.pk in roles:
        return roles[match.pk]
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
    roles[match.pk] = role
    return role


ROLE_FLAGS = ("role_organiser", "role_referee", "role_match_referee")


@cache
def _role_links() -> tuple[tuple[type[Model], str, str], ...]:
    """The link tables of the three flags: (through model, its column, the match's attribute
    that column holds). One definition for the plain SQL and the annotations below. The
    tournament's model is the one the match's foreign key names."""
    tournament: Any = Match._meta.get_field("tournament").related_model
    return (
        (tournament.organisers.through, "tournament_id", "tournament_id"),
        (tournament.referees.through, "tournament_id", "tournament_id"),
        (Match.referees.through, "match_id", "pk"),
    )


def role_flag_annotations(user_id: int) -> dict[str, Exists]:
    """The flags of _role_flags for `user_id`, as annotations of a Match queryset: for a
    query that loads the match anyway (the scoring writes' row lock, whose SQL is built once),
    so that the role costs no query of its own. Record them with role_flags_loaded."""
    flags = (
        Exists(through._default_manager.filter(**{column: OuterRef(attribute), "user_id": user_id}))
        for through, column, attribute in _role_links()
    )
    return dict(zip(ROLE_FLAGS, flags, strict=True))


def role_flags_loaded(match: Match, user_id: int) -> None:
    """The match was loaded with role_flag_annotations(user_id)."""
    match._luza_role_flags = (user_id, tuple(bool(getattr(match, f)) for f in ROLE_FLAGS))  # type: ignore[attr-defined]


def _role_flags(user: Actor, match: Match) -> tuple[bool, bool, bool]:
    """(organiser of the tournament, referee of the tournament, referee of the match) in one
    round trip, unless they came with the match (role_flags_loaded). Plain SQL over the three
    link tables: it runs on every scoring write, and the ORM's Exists() version costs several
    times more to build than the database takes to answer it."""
    loaded: tuple[int, tuple[bool, bool, bool]] | None = getattr(match, "_luza_role_flags", None)
    if loaded is not None and loaded[0] == user.pk:
        return loaded[1]
    links = _role_links()
    sql = _ROLE_FLAGS_SQL.get(connection.vendor)
    if sql is None:
        qn = connection.ops.quote_name

        def exists(model: type[Model], column: str) -> str:
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


def can_correct_match_clock(user: Actor | None, match: Match) -> bool:
    """Undo or enter the clock's time_expired, or set the remaining time: organisers only."""
    return match_scoring_role(user, match) == MATCH_ORGANISER


def can_resolve_judge_call(user: Actor | None, match: Match) -> bool:
    """A judge call is resolved by a judge (a referee of the tournament) or an organiser."""
    if not user or not user.is_authenticated:
        return False
    tournament = match.tournament
    return can_manage_tournament(user, tournament) or is_tournament_referee(user, tournament)
