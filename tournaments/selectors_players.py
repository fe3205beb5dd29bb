"""Reads of the players' side: the rating list, a player's page, head-to-head, "my match".

Everything a user reads about a player's games passes through tournament_list(user): a
private tournament he may not see leaves no trace (no match, no place, no point on the chart).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.cache import cache
from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from matches import selectors as match_selectors
from matches.models import Match
from matches.selectors import WITH_RESULT
from tournaments.algorithms.chart import Chart, ChartPoint, rating_chart
from tournaments.algorithms.series import StagePlace, series_standings
from tournaments.diplomas import diploma_entries
from tournaments.models import (
    Player,
    PlayerRequest,
    RatingChange,
    Registration,
    Series,
    SeriesStage,
    Tournament,
)
from tournaments.selectors.players import player_list
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings
from tournaments.selectors.tournament import tournament_list

if TYPE_CHECKING:
    from config.types import Actor

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

CHANGE_DAYS = 30
SORTS = {
    "rating": ("-rating", "name", "pk"),
    "-rating": ("rating", "name", "pk"),
    "name": ("name", "pk"),
    "-name": ("-name", "-pk"),
    "change": ("-change", "-rating", "pk"),
    "-change": ("change", "-rating", "pk"),
    "city": ("city", "-rating", "pk"),
    "club": ("club", "-rating", "pk"),
}
UPCOMING = (
    Match.Status.ON_TABLE,
    Match.Status.RUNNING,
    Match.Status.PAUSED,
    Match.Status.READY,
    Match.Status.SCHEDULED,
)


# --- the rating list -------------------------------------------------------------------------


def rating_list(
    *, search: str = "", city: str = "", club: str = "", sort: str = "rating"
) -> QuerySet[Player]:
    """Every player with his rating, his place in the whole list (equal ratings share it) and
    his change over the last 30 days; filtered by city and club (exact, any case) and by the
    folded name search of the registry (tournaments.selectors.players.player_list)."""
    since = timezone.now() - timedelta(days=CHANGE_DAYS)
    change = (
        RatingChange.objects.filter(player=OuterRef("pk"), created_at__gte=since)
        .order_by()
        .values("player")
        .annotate(total=Sum("delta"))
        .values("total")
    )
    above = (
        Player.objects.filter(rating__gt=OuterRef("rating"))
        .order_by()
        .values(group=F("rating") * 0)
        .annotate(n=Count("pk"))
        .values("n")
    )
    players = player_list(search=search)
    if city:
        players = players.filter(city__iexact=city.strip())
    if club:
        players = players.filter(club__iexact=club.strip())
    return players.annotate(
        change=Coalesce(Subquery(change, output_field=IntegerField()), 0),
        place=Coalesce(Subquery(above, output_field=IntegerField()), 0) + 1,
    ).order_by(*SORTS.get(sort, SORTS["rating"]))


def rating_filters() -> dict[str, list[str]]:
    """The cities and clubs to filter by (those some player has)."""
    return {
        "cities": sorted(set(Player.objects.exclude(city="").values_list("city", flat=True))),
        "clubs": sorted(set(Player.objects.exclude(club="").values_list("club", flat=True))),
    }


def rating_place(*, player: Player) -> int:
    return Player.objects.filter(rating__gt=player.rating).count() + 1


# --- a player's page -------------------------------------------------------------------------


def _visible(user: Actor) -> QuerySet[Tournament]:
    return tournament_list(user=user)


def player_chart(*, player: Player, user: Actor) -> Chart | None:
    """His rating over time: one point per tournament (its net change) and per adjustment,
    from the changes in tournaments `user` may see."""
    changes = list(
        RatingChange.objects.filter(player=player)
        .filter(Q(tournament__isnull=True) | Q(tournament__in=_visible(user).values("pk")))
        .select_related("tournament")
        .order_by("created_at", "pk")
    )
    if not changes:
        return None
    points: list[ChartPoint] = []
    last_tournament: int | None = None
    for change in changes:
        if change.tournament_id is not None and change.tournament_id == last_tournament:
            previous = points[-1]
            points[-1] = ChartPoint(
                change.rating_after, previous.delta + change.delta, previous.label
            )
            continue
        if change.tournament is not None:
            label = f"{change.tournament.name}, {change.tournament.date:%d.%m.%Y}"
        else:
            label = f"{change.created_at:%d.%m.%Y}"
        points.append(ChartPoint(change.rating_after, change.delta, label))
        last_tournament = change.tournament_id
    return rating_chart(start=changes[0].rating_before, points=points)


def _cached(tournament: Tournament, kind: str, compute: Callable[[], _T]) -> _T:
    """`compute()` of a tournament, kept per version of it (its standings come from its
    bracket; a new result makes a new key)."""
    # created_at: a database rebuilt from scratch (tests, a restore) reuses ids and versions.
    born = int(tournament.created_at.timestamp() * 1_000_000) if tournament.created_at else 0
    key = f"{kind}:{tournament.pk}:{tournament.public_version}:{born}"
    try:
        found: _T | None = cache.get(key)  # what compute() gave under this key
    except Exception:  # a cache outage costs time, not the page
        logger.warning("page cache unavailable", exc_info=True)
        found = None
    if found is not None:
        return found
    value = compute()
    try:
        cache.set(key, value, 3600)
    except Exception:
        logger.warning("page cache unavailable", exc_info=True)
    return value


def _places_and_prizes(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """{player id: {"place": "5–8", "first": 5, "prize": Decimal | None}} of a tournament."""

    def compute() -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        for first, last, ids in stage_places(tournament):
            label = str(first) if first == last else f"{first}–{last}"
            for pid in ids:
                out[pid] = {"place": label, "first": first, "prize": None}
        for award in tournament_prizes(tournament=tournament)["awards"]:
            for person in award["players"]:
                if person["id"] in out:
                    out[person["id"]]["prize"] = person["amount"]
        return out

    return dict(_cached(tournament, "places-prizes", compute))


def stage_places(tournament: Tournament) -> list[tuple[int, int, tuple[int, ...]]]:
    """The places decided in a tournament: (first, last, player ids), best first."""

    def compute() -> list[tuple[int, int, tuple[int, ...]]]:
        standings = tournament_standings(tournament=tournament)
        return [
            (p["first"], p["last"], tuple(pl["id"] for pl in p["players"]))
            for p in standings["places"]
        ]

    return list(_cached(tournament, "places", compute))


def player_tournaments(*, player: Player, user: Actor) -> list[dict[str, Any]]:
    """The tournaments he entered that `user` may see, newest first, each with his status,
    his place and prize once decided."""
    regs = (
        Registration.objects.filter(player=player, tournament__in=_visible(user).values("pk"))
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    rows = []
    for reg in regs:
        tournament = reg.tournament
        result: dict[str, Any] = {}
        if reg.seed is not None and tournament.status in (
            Tournament.Status.RUNNING,
            Tournament.Status.FINISHED,
        ):
            result = _places_and_prizes(tournament).get(player.pk, {})
        rows.append(
            {
                "tournament": tournament,
                "registration": reg,
                "place": result.get("place"),
                "prize": result.get("prize"),
            }
        )
    return rows


@dataclass(frozen=True)
class MatchLine:
    match: Match
    opponent: Player | None
    won: bool | None
    score_for: int | None
    score_against: int | None
    mark: str | None  # how it ended: matches.selectors.result_mark


def _line(match: Match, player_id: int) -> MatchLine:
    mine = "a" if match.player_a_id == player_id else "b"
    other = "b" if mine == "a" else "a"
    slot = match_selectors.winning_slot(match)
    scores = {"a": match.score_a, "b": match.score_b}
    return MatchLine(
        match=match,
        opponent=getattr(match, f"player_{other}"),
        won=None if slot is None else slot == mine,
        score_for=scores[mine],
        score_against=scores[other],
        mark=match_selectors.match_result_mark(match),
    )


def _played(player: Player, user: Actor) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .filter(status__in=WITH_RESULT, tournament__in=_visible(user).values("pk"))
        .select_related("tournament", "player_a", "player_b")
        .order_by("-finished_at", "-pk")
    )


def player_matches(*, player: Player, user: Actor) -> QuerySet[Match]:
    """His matches with a result, newest first (the page turns them into MatchLine)."""
    return _played(player, user)


def match_lines(matches: Iterable[Match], player: Player) -> list[MatchLine]:
    return [_line(m, player.pk) for m in matches]


def head_to_head(*, player: Player, other: Player, user: Actor) -> dict[str, Any]:
    """Their matches against each other, the record (wins, losses) and the ball difference
    (balls for minus against over the matches with a score; walkovers have none)."""
    matches = list(
        _played(player, user).filter(
            Q(player_a=player, player_b=other) | Q(player_a=other, player_b=player)
        )
    )
    lines = match_lines(matches, player)
    with_score = [ln for ln in lines if ln.score_for is not None and ln.score_against is not None]
    balls_for = sum(ln.score_for or 0 for ln in with_score)
    balls_against = sum(ln.score_against or 0 for ln in with_score)
    return {
        "matches": lines,
        "played": len(lines),
        "wins": sum(1 for ln in lines if ln.won),
        "losses": sum(1 for ln in lines if ln.won is False),
        "balls_for": balls_for,
        "balls_against": balls_against,
        "ball_difference": balls_for - balls_against,
    }


def opponents(*, player: Player, user: Actor) -> list[Player]:
    """Everyone he has played (for the head-to-head picker), by name."""
    ids = set()
    for a, b in _played(player, user).values_list("player_a_id", "player_b_id"):
        ids.add(b if a == player.pk else a)
    ids.discard(None)
    return list(Player.objects.filter(pk__in=ids).order_by("name_folded", "name"))


# --- "my match" ------------------------------------------------------------------------------


def my_next_match(*, player: Player, user: Actor) -> Match | None:
    """His next match in a tournament under way that `user` may see: the one called to a
    table or being played first, else the next one with both players known."""
    candidates = list(
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .filter(tournament__in=_visible(user).values("pk"))
        .filter(status__in=UPCOMING, held=False)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament", "player_a", "player_b", "table")
        .order_by("schedule_round", "pk")
    )
    if not candidates:
        return None
    rank: dict[str, int] = {status: i for i, status in enumerate(UPCOMING)}
    return min(candidates, key=lambda m: rank[m.status])


def my_registrations(*, player: Player, user: Actor) -> list[Registration]:
    """His entries in tournaments not finished that `user` may see, soonest first (a private
    tournament is for its organisers and referees, as everywhere)."""
    return list(
        Registration.objects.filter(player=player, tournament__in=_visible(user).values("pk"))
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id")
    )


MY_FINISHED = 20  # the latest finished tournaments /me/ lists


def my_finished(*, player: Player, user: Actor) -> list[dict[str, Any]]:
    """His latest finished tournaments that `user` may see, newest first, each with his
    place, his prize and whether he has a diploma (all three cached per public version)."""
    regs = (
        Registration.objects.filter(
            player=player,
            tournament__in=_visible(user).values("pk"),
            tournament__status=Tournament.Status.FINISHED,
            seed__isnull=False,
        )
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")[:MY_FINISHED]
    )
    rows = []
    for reg in regs:
        tournament = reg.tournament
        result = _places_and_prizes(tournament).get(player.pk, {})
        rows.append(
            {
                "tournament": tournament,
                "registration": reg,
                "place": result.get("place"),
                "prize": result.get("prize"),
                "diploma": player.pk in diploma_holders(tournament),
            }
        )
    return rows


def diploma_holders(tournament: Tournament) -> frozenset[int]:
    """The ids of the players with a diploma in the tournament."""

    def compute() -> frozenset[int]:
        return frozenset(e["player_id"] for e in diploma_entries(tournament))

    return frozenset(_cached(tournament, "diploma-holders", compute))


def my_etag(*, player: Player, user: Actor) -> str:
    """Changes with anything /me/ shows: his matches (table called, score, status) and his
    tournaments' public versions (entries, promotions, the draw). Two small queries."""
    visible = _visible(user).values("pk")
    latest = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .filter(tournament__in=visible)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .aggregate(m=Max("updated_at"), n=Count("pk"))
    )
    versions = Registration.objects.filter(player=player, tournament__in=visible).aggregate(
        v=Sum("tournament__public_version"), n=Count("pk")
    )
    stamp = int(latest["m"].timestamp() * 1000) if latest["m"] else 0
    return f"me{player.pk}-{stamp}-{latest['n']}-{versions['v'] or 0}-{versions['n']}"


def prize_total(rows: list[dict[str, Any]]) -> Decimal:
    return sum((r["prize"] or Decimal(0) for r in rows), Decimal(0))


# --- club cups -------------------------------------------------------------------------------


def series_visible(*, user: Actor) -> QuerySet[Series]:
    if getattr(user, "is_superuser", False):
        return Series.objects.all()
    visible = Q(is_public=True)
    if getattr(user, "is_authenticated", False):
        visible |= Q(organisers=user)
    return Series.objects.filter(pk__in=Series.objects.filter(visible).values("pk"))


def series_stages(*, series: Series, user: Actor) -> list[SeriesStage]:
    """Its stages whose tournament `user` may see, in order (a hidden one is left out, and
    its results with it), numbered as `user` sees them: "Stage 2" alone would tell that a
    stage 1 exists. Read-only rows: the numbers are the reader's, never saved."""
    visible = _visible(user).values("pk")
    stages = list(
        series.stages.filter(tournament__in=visible).select_related("tournament").order_by("number")
    )
    for shown, stage in enumerate(stages, start=1):
        stage.number = shown
    return stages


def series_table(*, series: Series, user: Actor, after: int | None = None) -> dict[str, Any]:
    """The standings after the finished stages (up to stage number `after`), with each
    stage's points per player (tournaments.algorithms.series)."""
    stages = series_stages(series=series, user=user)
    finished = [s for s in stages if s.tournament.status == Tournament.Status.FINISHED]
    if after is not None:
        finished = [s for s in finished if s.number <= after]
    places = []
    for stage in finished:
        places.append(
            [StagePlace(first, last, ids) for first, last, ids in stage_places(stage.tournament)]
        )
    rows = series_standings(
        stages=places,
        table=series.points_table,
        best_of=series.best_of,
        participation=series.participation_points,
    )
    people = Player.objects.in_bulk([r.player for r in rows])
    return {
        "stages": stages,
        "counted_stages": finished,
        "rows": [
            {
                "place": row.place,
                "shared": row.shared,
                "player": people.get(row.player),
                "total": row.total,
                "all_total": row.all_total,
                "stages": [row.stages.get(i) for i in range(len(finished))],
            }
            for row in rows
        ],
    }


def player_series(*, player: Player, user: Actor) -> list[dict[str, Any]]:
    """The series of the tournaments he played that `user` may see, with his place and total
    in each (a series he played only in a hidden stage of is not his here)."""
    regs = Registration.objects.filter(
        player=player, seed__isnull=False, tournament__in=_visible(user).values("pk")
    ).values("tournament")
    out = []
    for series in series_visible(user=user).filter(tournaments__in=regs).distinct():
        table = series_table(series=series, user=user)
        mine = next((r for r in table["rows"] if r["player"] and r["player"].pk == player.pk), None)
        out.append({"series": series, "row": mine})
    return out


def desk_entry(*, tournament: Tournament) -> dict[str, Any]:
    """What the registration desk shows of online entry: the reserve list, the check-ins and
    the pending requests to be added."""
    return {
        "reserves": list(
            Registration.objects.filter(tournament=tournament, status=Registration.Status.RESERVE)
            .select_related("player")
            .order_by("reserve_since", "pk")
        ),
        "checked_in": Registration.objects.filter(
            tournament=tournament,
            status=Registration.Status.ACTIVE,
            checked_in_at__isnull=False,
        ).count(),
        "requests": list(
            PlayerRequest.objects.filter(
                tournament=tournament, status=PlayerRequest.Status.PENDING
            ).select_related("user")
        ),
    }
