"""Reads of the tournaments app, shared by the API and the web pages. Selectors return
querysets or plain dicts (JSON-able apart from Decimal money) with a constant number of queries.
They return data: the words a reader is shown (titles, labels) are added by
tournaments.presentation (bracket_shown, standings_shown)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from django.db.models import (
    Case,
    CharField,
    Count,
    DecimalField,
    F,
    IntegerField,
    JSONField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from audit.models import AuditEntry
from matches.models import Match, MatchEvent
from matches.querycache import CompiledQuery
from matches.selectors import WITH_RESULT, result_mark
from matches.services.base import SOURCE_CLOCK
from tournaments.algorithms import prizes
from tournaments.algorithms import table_time as tt
from tournaments.algorithms.groups import GroupResult, group_table
from tournaments.algorithms.model import Bracket, MatchSpec, Source
from tournaments.algorithms.standings import final_standings
from tournaments.draw_plan import DrawPlan, generate_bracket
from tournaments.errors import TournamentError
from tournaments.match_labels import match_label
from tournaments.match_setup import effective_ruleset
from tournaments.models import Player, RatingChange, Registration, TableTimePayment, Tournament
from tournaments.names import fold_words

if TYPE_CHECKING:
    from config.types import Actor

ACTIVE = Registration.Status.ACTIVE
WITHDRAWN = Registration.Status.WITHDRAWN
DISQUALIFIED = Registration.Status.DISQUALIFIED
STAGE_ORDER = (
    "single",
    "group",
    "upper",
    "lower",
    "playoff",
    "third_place",
    "grand_final",
    "grand_final_reset",
)


# --- players -------------------------------------------------------------------------------


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players, by name. Every word of ``search`` must match the start of a word of the name,
    in any order, folded (case, ё/е and spaces do not matter: tournaments.names)."""
    players = Player.objects.all()
    for word in fold_words(search):
        players = players.filter(
            Q(name_folded__startswith=word) | Q(name_folded__contains=f" {word}")
        )
    # Russian alphabetical order: the folded name puts «Ё» among the «Е» (tournaments.names).
    return players.order_by("name_folded", "name", "pk")


def player_rating_history(*, player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes, newest first, with tournament and opponent."""
    return (
        RatingChange.objects.filter(player=player)
        .select_related("tournament", "opponent")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class RatingHistory:
    """A player's rating history as one reader may see it: the changes of tournaments he may
    see (and manual ones), newest first, and the sum and count of all the others."""

    visible: list[RatingChange]
    private_delta: int
    private_count: int


def player_rating_history_for(*, player: Player, user: Actor) -> RatingHistory:
    changes = player_rating_history(player=player)
    hidden = Q(tournament__isnull=False) & ~Q(tournament__in=tournament_list(user=user))
    totals = changes.filter(hidden).aggregate(delta=Sum("delta"), count=Count("pk"))
    return RatingHistory(
        visible=list(changes.exclude(hidden)),
        private_delta=totals["delta"] or 0,
        private_count=totals["count"],
    )


def match_rating_changes(*, match: Match) -> dict[str, dict[str, int]]:
    """The match's current Elo change per slot: {"a": {"before", "after", "delta"}, ...};
    empty when the match was not rated (walkover, unrated tournament, not finished)."""
    out: dict[str, dict[str, int]] = {}
    slots = {match.player_a_id: "a", match.player_b_id: "b"}
    for change in RatingChange.objects.filter(match=match, reason="match"):
        slot = slots.get(change.player_id)
        if slot is not None:
            out[slot] = {
                "before": change.rating_before,
                "after": change.rating_after,
                "delta": change.delta,
            }
    return out


# --- tournaments and registrations -----------------------------------------------------------


# Every public page and poll starts by loading its tournament: its SQL is built once.
_TOURNAMENT = CompiledQuery(lambda pk: Tournament.objects.filter(pk=pk).order_by()[:1])


def tournament_get(*, tournament_id: int) -> Tournament:
    """The tournament; Tournament.DoesNotExist if there is none."""
    found = _TOURNAMENT.fetch(tournament_id)
    if not found:
        raise Tournament.DoesNotExist
    return found[0]


def tournament_list(*, user: Actor) -> QuerySet[Tournament]:
    """Public tournaments, plus those the user organises or referees (all for a superuser)."""
    tournaments = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return tournaments
    visible = Q(is_public=True, archived=False)
    if getattr(user, "is_authenticated", False):
        visible |= Q(organisers=user) | Q(referees=user)
    ids = Tournament.objects.filter(visible).values("pk")
    return tournaments.filter(pk__in=ids)


def registration_list(*, tournament: Tournament) -> QuerySet[Registration]:
    """The desk's list: seeded order after the draw, registration order before it."""
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("seed", "created_at", "pk")
    )


def registration_totals(*, tournament: Tournament) -> dict[str, Any]:
    """Running totals of the desk: players, fees due (active players), the money: collected
    (every payment taken), refunded (given back to players who left) and kept (collected less
    refunded: the fees the pool is a share of; ``fees_paid`` is the same figure under its
    older name), what is still to collect, and the pool. One query."""
    active = Q(status=ACTIVE)
    zero = Value(Decimal(0), output_field=DecimalField())
    row = Registration.objects.filter(tournament=tournament).aggregate(
        players=Count("pk", filter=active),
        paid_players=Count("pk", filter=active & Q(paid=True)),
        withdrawn=Count("pk", filter=Q(status=WITHDRAWN)),
        disqualified=Count("pk", filter=Q(status=DISQUALIFIED)),
        refunds=Count("pk", filter=Q(fee_refunded__gt=0)),
        fees_due=Coalesce(Sum("fee_due", filter=active), zero),
        fees_collected=Coalesce(Sum("fee_collected"), zero),
        fees_refunded=Coalesce(Sum("fee_refunded"), zero),
        fees_kept=Coalesce(Sum("fee_paid"), zero),
        fees_outstanding=Coalesce(Sum("fee_due", filter=active & Q(paid=False)), zero),
    )
    row["fees_paid"] = row["fees_kept"]
    return {**row, "pool": _pool(tournament, row["fees_kept"])}


def _pool(tournament: Tournament, paid: Decimal) -> Decimal:
    return prizes.prize_pool(
        paid_fees=paid,
        percent=tournament.pool_percent,
        added=tournament.added_money,
        unit=tournament.prize_unit,
    )


# --- the audit log ------------------------------------------------------------------------------

# The actions the match's event log stands for: a ball (or any engine event) and an undo write
# no audit entry, their log entry is their record (docs/architecture.md, "The audit log").
EVENT_ACTIONS = {MatchEvent.Kind.EVENT: "match.event", MatchEvent.Kind.UNDO: "match.undo"}
_COLUMNS = (
    "log_id",
    "log_tournament",
    "log_match",
    "log_actor",
    "log_actor_name",
    "log_player",
    "log_action",
    "log_data",
    "log_imported",
    "log_created",
    # A log entry's own columns (null for an audit entry): its data is made from them here,
    # not in SQL, where SQLite would take a JSON column for a string.
    "log_seq",
    "log_event",
    "log_undone_seq",
    "log_undone_event",
)


class AuditLog:
    """The audit log as its readers see it: the audit entries and the match log's entries
    (events and undos), newest first, as AuditEntry instances.

    One UNION ALL of the two, ordered and sliced by the database, so an offset page
    (Paginator, the API's limit/offset) is a page of the merged log and count() counts both.
    A log entry reads as the audit entry it used to write: action "match.event" or
    "match.undo", data {"seq", "event", "version"} (an undo's "event" is the entry it undid,
    with "undone_seq"), and a negative id (minus the log entry's), so ids stay unique. The
    clock's own time_expired is left out: its audit entry (match.clock_expired) says it.
    Each page loads its matches with their players in one query."""

    def __init__(self, entries: QuerySet[AuditEntry], events: QuerySet[MatchEvent] | None):
        self._entries = entries
        self._events = events

    def _union(self) -> QuerySet[Any]:
        entries = (
            self._entries.order_by()
            .annotate(
                log_id=F("id"),
                log_tournament=F("tournament_id"),
                log_match=F("match_id"),
                log_actor=F("actor_id"),
                log_actor_name=F("actor_name"),
                log_player=F("player_id"),
                log_action=F("action"),
                log_data=F("data"),
                log_imported=F("imported"),
                log_created=F("created_at"),
                log_seq=Value(None, output_field=IntegerField()),
                log_event=Value(None, output_field=JSONField()),
                log_undone_seq=Value(None, output_field=IntegerField()),
                log_undone_event=Value(None, output_field=JSONField()),
            )
            .values_list(*_COLUMNS)
        )
        if self._events is not None:
            undo = Q(kind=MatchEvent.Kind.UNDO)
            events = (
                self._events.order_by()
                .annotate(
                    log_id=F("id") * -1,
                    log_tournament=F("match__tournament_id"),
                    log_match=F("match_id"),
                    log_actor=F("actor_id"),
                    log_actor_name=Case(
                        When(actor_name="", then=Value("system")), default=F("actor_name")
                    ),
                    log_player=Value(None, output_field=IntegerField()),
                    log_action=Case(
                        When(undo, then=Value(EVENT_ACTIONS[MatchEvent.Kind.UNDO])),
                        default=Value(EVENT_ACTIONS[MatchEvent.Kind.EVENT]),
                        output_field=CharField(),
                    ),
                    log_data=Value(None, output_field=JSONField()),
                    log_imported=F("imported"),
                    log_created=F("created_at"),
                    log_seq=F("seq"),
                    log_event=F("payload"),
                    log_undone_seq=F("undoes__seq"),
                    log_undone_event=F("undoes__payload"),
                )
                .values_list(*_COLUMNS)
            )
            entries = entries.union(events, all=True)
        return entries.order_by("-log_created", "-log_id")

    def count(self) -> int:
        return self._union().count()

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[AuditEntry]:
        return iter(self[:])

    @overload
    def __getitem__(self, item: int) -> AuditEntry: ...
    @overload
    def __getitem__(self, item: slice) -> list[AuditEntry]: ...
    def __getitem__(self, item: int | slice) -> AuditEntry | list[AuditEntry]:
        if isinstance(item, int):
            found = self[item : item + 1]
            if not found:
                raise IndexError(item)
            return found[0]
        return self._build(list(self._union()[item]))

    def _build(self, rows: list[tuple[Any, ...]]) -> list[AuditEntry]:
        matches = Match.objects.select_related("player_a", "player_b").in_bulk(
            {row[2] for row in rows if row[2] is not None}
        )
        built = []
        for row in rows:
            values = dict(zip(_COLUMNS, row, strict=True))
            data = _json(values["log_data"])
            if values["log_id"] < 0:  # a log entry: the data its audit entry used to hold
                data = {"seq": values["log_seq"], "version": values["log_seq"]}
                if values["log_action"] == EVENT_ACTIONS[MatchEvent.Kind.UNDO]:
                    data["undone_seq"] = values["log_undone_seq"]
                    data["event"] = _json(values["log_undone_event"])
                else:
                    data["event"] = _json(values["log_event"])
            entry = AuditEntry(
                id=values["log_id"],
                tournament_id=values["log_tournament"],
                match_id=values["log_match"],
                actor_id=values["log_actor"],
                actor_name=values["log_actor_name"],
                player_id=values["log_player"],
                action=values["log_action"],
                data=data,
                imported=values["log_imported"],
                created_at=values["log_created"],
            )
            entry._state.adding, entry._state.db = False, self._entries.db
            if entry.match_id is not None:
                entry.match = matches.get(entry.match_id)
            built.append(entry)
        return built


def _json(value: Any) -> Any:
    """A union's JSON column comes back decoded on PostgreSQL, possibly as text elsewhere."""
    return json.loads(value) if isinstance(value, str) else value


def _audit_events(tournament: Tournament) -> QuerySet[MatchEvent]:
    return MatchEvent.objects.filter(match__tournament=tournament).exclude(source=SOURCE_CLOCK)


def tournament_audit(*, tournament: Tournament, match_id: int | None = None) -> AuditLog:
    """The tournament's audit log (or one match's), newest first: entries and balls merged."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    events = _audit_events(tournament)
    if match_id is not None:
        entries, events = entries.filter(match_id=match_id), events.filter(match_id=match_id)
    return AuditLog(entries, events)


def tournament_audit_filtered(
    *,
    tournament: Tournament,
    actions: tuple[str, ...] | None = None,
    match_key: str = "",
    person: str = "",
) -> AuditLog:
    """The log filtered by kind (a set of actions), match number and person (who acted, or
    the player it is about, by a part of the name or login)."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    events: QuerySet[MatchEvent] | None = _audit_events(tournament)
    if actions is not None:
        entries = entries.filter(action__in=actions)
        kinds = [kind for kind, action in EVENT_ACTIONS.items() if action in actions]
        events = events.filter(kind__in=kinds) if kinds and events is not None else None
    if match_key:
        entries = entries.filter(match__key__iexact=match_key)
        if events is not None:
            events = events.filter(match__key__iexact=match_key)
    if person:
        entries = entries.filter(
            Q(actor_name__icontains=person)
            | Q(actor__first_name__icontains=person)
            | Q(actor__last_name__icontains=person)
            | Q(player__name__icontains=person)
            | Q(match__player_a__name__icontains=person)
            | Q(match__player_b__name__icontains=person)
        )
        if events is not None:
            events = events.filter(
                Q(actor_name__icontains=person)
                | Q(actor__first_name__icontains=person)
                | Q(actor__last_name__icontains=person)
                | Q(match__player_a__name__icontains=person)
                | Q(match__player_b__name__icontains=person)
            )
    return AuditLog(entries, events)


# --- the bracket -------------------------------------------------------------------------------


def _group_rounds(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Matches grouped by stage (each group its own stage entry) and round, in play order."""
    stages: dict[tuple[int, int], dict[str, Any]] = {}
    for m in matches:
        rank = STAGE_ORDER.index(m["stage"]) if m["stage"] in STAGE_ORDER else len(STAGE_ORDER)
        skey = (rank, m["group"] or 0)
        if skey not in stages:
            stages[skey] = {
                "stage": m["stage"],
                "group": m["group"],
                "rounds": {},
            }
        stages[skey]["rounds"].setdefault(m["round"], []).append(m)
    out = []
    for skey in sorted(stages):
        stage = stages[skey]
        rounds = stage["rounds"]
        stage["rounds"] = [
            {"round": r, "matches": sorted(rounds[r], key=lambda m: m["order"])}
            for r in sorted(rounds)
        ]
        out.append(stage)
    return out


def _link(target: tuple[str, str] | None) -> dict[str, str] | None:
    return {"key": target[0], "slot": target[1]} if target else None


def _source(src: Source | None) -> dict[str, Any] | None:
    """Where an empty slot's player comes from: a seed, a group's place [group, rank], or the
    winner or loser of a match (its key)."""
    if src is None:
        return None
    ref: Any = list(src.group_rank()) if src.kind == "group" else src.ref
    return {"kind": src.kind, "ref": ref}


def _specs(tournament: Tournament, entrants: int) -> dict[str, MatchSpec]:
    """The pure bracket's specs by key (for the slots' sources); empty before the draw."""
    if entrants < 2:
        return {}
    try:
        return {m.key: m for m in generate_bracket(tournament, entrants).matches}
    except TournamentError:
        return {}


_BRACKET_FIELDS = (
    "pk",
    "key",
    "stage",
    "round",
    "order",
    "group",
    "schedule_round",
    "conditional",
    "status",
    "player_a_id",
    "player_a__name",
    "player_a__rating",
    "player_b_id",
    "player_b__name",
    "player_b__rating",
    "score_a",
    "score_b",
    "ruleset",
    "head_start_overridden",
    "winner_id",
    "result",
    "state__end_reason",  # one key of the state: the golden ball's mark
    "corrected_from",
    "corrected_at",
    "table__number",
    "winner_to_id",
    "winner_slot",
    "loser_to_id",
    "loser_slot",
)


def tournament_bracket(*, tournament: Tournament) -> dict[str, Any]:
    """Every match of the drawn bracket as plain dicts grouped by stage and round: key, players
    (with seed and rating), where unknown players come from, score, race and head start,
    status, winner, table, links, and the Elo change. Three queries whatever the size."""
    # Plain values with the players and table joined: no model instances, and not the engine
    # state, the bulk of a row.
    rows = list(Match.objects.filter(tournament=tournament).order_by("pk").values(*_BRACKET_FIELDS))
    regs = {
        r["player_id"]: r
        for r in Registration.objects.filter(tournament=tournament).values(
            "player_id", "seed", "rating_at_entry", "status"
        )
    }
    changes: dict[int, dict[int, int]] = {}
    for match_id, player_id, change in RatingChange.objects.filter(
        tournament=tournament, reason="match"
    ).values_list("match_id", "player_id", "delta"):
        changes.setdefault(match_id, {})[player_id] = change
    specs = _specs(tournament, sum(1 for r in regs.values() if r["seed"] is not None))
    key_of = {row["pk"]: row["key"] for row in rows}

    def person(row: Mapping[str, Any], slot: str) -> dict[str, Any] | None:
        player_id = row[f"player_{slot}_id"]
        if player_id is None:
            return None
        reg: Mapping[str, Any] = regs.get(player_id, {})
        return {
            "id": player_id,
            "name": row[f"player_{slot}__name"],
            "seed": reg.get("seed"),
            "rating": reg.get("rating_at_entry", row[f"player_{slot}__rating"]),
            "withdrawn": reg.get("status") == WITHDRAWN,
            "disqualified": reg.get("status") == DISQUALIFIED,
        }

    def link(target_id: int | None, slot: str) -> dict[str, str] | None:
        return _link((key_of[target_id], slot)) if target_id else None

    matches = []
    for row in rows:
        spec = specs.get(row["key"])
        ruleset = row["ruleset"] or {}
        winner = None
        if row["winner_id"] is not None:
            winner = "a" if row["winner_id"] == row["player_a_id"] else "b"
        delta = changes.get(row["pk"])
        mark = (
            result_mark(
                result=row["result"],
                end_reason=row["state__end_reason"],
                corrected=row["corrected_at"] is not None,
            )
            if row["status"] in WITH_RESULT
            else None
        )
        matches.append(
            {
                "id": row["pk"],
                "key": row["key"],
                "stage": row["stage"],
                "round": row["round"],
                "order": row["order"],
                "group": row["group"],
                "schedule_round": row["schedule_round"],
                "conditional": row["conditional"],
                "status": row["status"],
                "player_a": person(row, "a"),
                "player_b": person(row, "b"),
                "source_a": _source(spec.a) if spec else None,
                "source_b": _source(spec.b) if spec else None,
                "score_a": row["score_a"],
                "score_b": row["score_b"],
                "balls_to_win": ruleset.get("balls_to_win"),
                "frames_to_win": ruleset.get("frames_to_win"),
                "head_start": ruleset.get("head_start"),
                "head_start_overridden": row["head_start_overridden"],
                "winner": winner,
                "result": row["result"],
                "mark": mark,
                "corrected_from": row["corrected_from"],
                "table": row["table__number"],
                "winner_to": link(row["winner_to_id"], row["winner_slot"]),
                "loser_to": link(row["loser_to_id"], row["loser_slot"]),
                "rating_change": {
                    "a": delta.get(row["player_a_id"]),
                    "b": delta.get(row["player_b_id"]),
                }
                if delta
                else None,
            }
        )
    return {
        "tournament": tournament.pk,
        "format": tournament.format,
        "status": tournament.status,
        "version": tournament.public_version,
        "preview": False,
        "draw_method": tournament.draw_method,
        "random_seed": tournament.random_seed,
        "stages": _group_rounds(matches),
    }


def bracket_from_plan(tournament: Tournament, plan: DrawPlan) -> dict[str, Any]:
    """A draw preview in the shape of ``tournament_bracket`` (no ids, nothing played)."""
    by_seed = dict(enumerate(plan.order, start=1))

    def person(src: Source | None) -> dict[str, Any] | None:
        if src is None or src.kind != "seed":
            return None
        reg = by_seed[src.seed()]
        return {
            "id": reg.player_id,
            "name": reg.player.name,
            "seed": src.ref,
            "rating": reg.rating_at_entry,
            "withdrawn": False,
            "disqualified": False,
        }

    matches = []
    for spec in plan.bracket.matches:
        a, b = person(spec.a), person(spec.b)
        ruleset: dict[str, Any] = {}
        if a and b:
            ruleset = effective_ruleset(
                tournament, spec.stage, rating_a=a["rating"], rating_b=b["rating"]
            )
        matches.append(
            {
                "id": None,
                "key": spec.key,
                "stage": spec.stage,
                "round": spec.round,
                "order": spec.order,
                "group": spec.group,
                "schedule_round": spec.schedule_round,
                "conditional": spec.conditional,
                "status": Match.Status.READY if a and b else Match.Status.SCHEDULED,
                "player_a": a,
                "player_b": b,
                "source_a": _source(spec.a),
                "source_b": _source(spec.b),
                "score_a": None,
                "score_b": None,
                "balls_to_win": ruleset.get("balls_to_win"),
                "frames_to_win": ruleset.get("frames_to_win"),
                "head_start": ruleset.get("head_start"),
                "head_start_overridden": False,
                "winner": None,
                "result": "",
                "mark": None,
                "corrected_from": None,
                "table": None,
                "winner_to": _link(spec.winner_to),
                "loser_to": _link(spec.loser_to),
                "rating_change": None,
            }
        )
    return {
        "tournament": tournament.pk,
        "format": tournament.format,
        "status": tournament.status,
        "version": tournament.public_version,
        "preview": True,
        "draw_method": plan.method,
        "random_seed": plan.random_seed,
        "unpaid": [{"id": r.player_id, "name": r.player.name} for r in plan.unpaid],
        "stages": _group_rounds(matches),
    }


# --- standings and prizes ----------------------------------------------------------------------


class _Results:
    """The finished matches and seeds of a tournament, read once (two queries)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.regs = {
            r.player_id: r
            for r in Registration.objects.filter(tournament=tournament, seed__isnull=False)
            .select_related("player")
            .order_by("seed")
        }
        self.by_seed = {r.seed: r for r in self.regs.values()}
        self.matches = list(
            Match.objects.filter(tournament=tournament).values(
                "key",
                "stage",
                "group",
                "status",
                "player_a_id",
                "player_b_id",
                "winner_id",
                "loser_id",
                "score_a",
                "score_b",
            )
        )

    def seed(self, player_id: int) -> int:
        return cast(int, self.regs[player_id].seed)  # the regs read are the seeded ones

    def outcomes(self) -> dict[str, tuple[int, int]]:
        return {
            m["key"]: (self.seed(m["winner_id"]), self.seed(m["loser_id"]))
            for m in self.matches
            if m["status"] in WITH_RESULT and m["winner_id"] and m["loser_id"]
        }

    def groups(self, bracket: Bracket | None) -> dict[int, dict[str, Any]]:
        """Per group: its table (rows of GroupRow) and whether every match is done."""
        members: dict[int, list[int]] = {}
        if bracket is not None and bracket.format == "groups_playoff":
            group_members = cast("Sequence[Sequence[int]]", bracket.options.get("members", ()))
            for g, seeds in enumerate(group_members, start=1):
                members[g] = list(seeds)
        results: dict[int, list[GroupResult]] = {}
        complete: dict[int, bool] = {}
        for m in self.matches:
            if m["stage"] != "group" or m["group"] is None:
                continue
            g = m["group"]
            complete.setdefault(g, True)
            if m["status"] not in WITH_RESULT or not m["winner_id"]:
                complete[g] = False
                continue
            results.setdefault(g, []).append(
                GroupResult(
                    self.seed(m["player_a_id"]),
                    self.seed(m["player_b_id"]),
                    m["score_a"] or 0,
                    m["score_b"] or 0,
                    self.seed(m["winner_id"]),
                )
            )
        return {
            g: {
                "rows": group_table(results.get(g, []), players=members.get(g, ())),
                "complete": done,
            }
            for g, done in sorted(complete.items())
        }

    def person(self, seed: int) -> dict[str, Any]:
        reg = self.by_seed[seed]
        return {
            "id": reg.player_id,
            "name": reg.player.name,
            "city": reg.player.city,
            "club": reg.player.club,
            "seed": seed,
            "withdrawn": reg.status == WITHDRAWN,
            "disqualified": reg.status == DISQUALIFIED,
        }


def _bracket(results: _Results) -> Bracket | None:
    if len(results.regs) < 2:
        return None
    try:
        return generate_bracket(results.tournament, len(results.regs))
    except TournamentError:
        return None


def _place_label(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def tournament_standings(*, tournament: Tournament) -> dict[str, Any]:
    """Final places decided so far, best first; players knocked out at the same point share
    places (e.g. 5–8), and a shared place is listed as soon as one of its players is known
    (``pending``: how many of its players are not). ``pending`` lists the places nobody has
    yet; ``all_places`` both, in order. Group tables ranked by wins, head-to-head, then ball difference."""
    results = _Results(tournament)
    bracket = _bracket(results)
    groups = results.groups(bracket)
    places: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    if bracket is not None:
        ranks = {
            g: [row.seed for row in data["rows"]] for g, data in groups.items() if data["complete"]
        }
        outcomes = results.outcomes()
        for place in final_standings(bracket, outcomes, group_ranks=ranks, include_pending=True):
            entry = {
                "first": place.first,
                "last": place.last,
                "shared": place.first != place.last,
                "label": _place_label(place.first, place.last),
                "players": [results.person(s) for s in place.seeds],
                "pending": place.last - place.first + 1 - len(place.seeds),
            }
            (places if place.seeds else pending).append(entry)
    return {
        "tournament": tournament.pk,
        "status": tournament.status,
        "complete": tournament.status == Tournament.Status.FINISHED,
        "version": tournament.public_version,
        "places": places,
        "pending": pending,
        "all_places": sorted(places + pending, key=lambda p: p["first"]),
        "groups": [
            {
                "group": g,
                "complete": data["complete"],
                "rows": [
                    {
                        "rank": row.rank,
                        "player": results.person(row.seed),
                        "played": row.played,
                        "wins": row.wins,
                        "losses": row.losses,
                        "balls_for": row.balls_for,
                        "balls_against": row.balls_against,
                        "ball_difference": row.ball_difference,
                    }
                    for row in data["rows"]
                ],
            }
            for g, data in groups.items()
        ],
    }


def tournament_prizes(
    *, tournament: Tournament, standings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The prize fund: pool percent of the fees kept (rounded down to the unit) plus added
    money, split by the place shares; the awards add up exactly to the pool at every moment.
    Players sharing places pool those places' money and split it evenly. Players appear as
    places are decided; a place (or part of a shared place) not decided yet is ``pending``:
    its money reserved, no names. A withdrawn or disqualified player keeps his place; with
    ``withdrawn_prize = "withhold"`` his money is ``withheld`` (shown as not paid). Once the
    tournament is finished a place nobody took (fewer players than paid places) is withheld
    too, so then ``paid + withheld == pool``. ``standings``: ``tournament_standings``'s answer,
    when the caller has it already."""
    # The fees kept: a refunded fee is not in the pool, a forfeited one is.
    paid = Registration.objects.filter(tournament=tournament).aggregate(total=Sum("fee_paid"))[
        "total"
    ] or Decimal(0)
    pool = _pool(tournament, paid)
    shares = [Decimal(s) for s in tournament.place_shares]
    if standings is None:
        standings = tournament_standings(tournament=tournament)
    complete = standings["complete"]
    entries = [
        (p["first"], p["last"], [pl["id"] for pl in p["players"]])
        for p in standings["places"]
        if p["first"] <= len(shares)
    ]
    people = {pl["id"]: pl for p in standings["places"] for pl in p["players"]}
    withhold = tournament.withdrawn_prize == Tournament.WithdrawnPrize.WITHHOLD
    withheld_players = {
        pid for pid, pl in people.items() if withhold and (pl["withdrawn"] or pl["disqualified"])
    }
    split = prizes.split_prizes(
        pool=pool,
        shares=shares,
        unit=tournament.prize_unit,
        places=entries,
        withheld=withheld_players,
    )
    awards: list[dict[str, Any]] = []
    for award in split.awards:
        pending, withheld = award.pending, award.withheld
        if complete:
            # Finished: nobody is left to take it.
            pending, withheld = Decimal(0), withheld + pending
        awards.append(
            {
                "first": award.first,
                "last": award.last,
                "label": _place_label(award.first, award.last),
                "share_percent": sum(shares[award.first - 1 : award.last], Decimal(0)),
                "total": award.total,
                "amount_each": award.amount_each,
                "pending": pending,
                "pending_places": award.last - award.first + 1 - len(award.players),
                "withheld": withheld,
                "paid_total": award.paid_total,
                "players": [
                    {
                        "id": pid,
                        "name": people[pid]["name"],
                        "amount": amount if is_paid else Decimal(0),
                        "due": amount,
                        "paid": is_paid,
                        "withdrawn": people[pid]["withdrawn"],
                        "disqualified": people[pid]["disqualified"],
                    }
                    for pid, amount, is_paid in zip(
                        award.players, award.amounts, award.paid, strict=True
                    )
                ],
            }
        )
    return {
        "tournament": tournament.pk,
        "complete": complete,
        "paid_fees": paid,
        "pool_percent": tournament.pool_percent,
        "added_money": tournament.added_money,
        "unit": tournament.prize_unit,
        "pool": pool,
        "withdrawn_prize": tournament.withdrawn_prize,
        "awarded": sum((a["paid_total"] for a in awards), Decimal(0)),
        "pending": sum((a["pending"] for a in awards), Decimal(0)),
        "withheld": sum((a["withheld"] for a in awards), Decimal(0)),
        "awards": awards,
    }


# --- table time ---------------------------------------------------------------------------------


def table_time(*, tournament: Tournament) -> dict[str, Any]:
    """Table time by the tournament's settings: each played match (walkovers took no table)
    with its minutes, cost and what each player owes and has paid; per player totals; and
    the totals (`due`, `paid`, `owed`). `enabled` is False while the price is 0 or nobody
    pays. Three queries."""
    enabled = tournament.table_hour_price > 0 and tournament.table_time_payer != "nobody"
    zero = Decimal("0.00")
    out: dict[str, Any] = {
        "enabled": enabled,
        "rows": [],
        "players": [],
        "due": zero,
        "paid": zero,
        "owed": zero,
    }
    if not enabled:
        return out
    paid = {
        (p.match_id, p.player_id): p
        for p in TableTimePayment.objects.filter(tournament=tournament).select_related("paid_by")
    }
    matches = (
        Match.objects.filter(
            tournament=tournament,
            status=Match.Status.FINISHED,
            started_at__isnull=False,
            player_a__isnull=False,
            player_b__isnull=False,
        )
        .select_related("player_a", "player_b", "table")
        .order_by("finished_at", "pk")
    )
    people: dict[int, dict[str, Any]] = {}
    for match in matches:
        minutes = tt.table_minutes(
            called_at=match.called_at,
            started_at=match.started_at,
            finished_at=match.finished_at,
            net_ms=match.clock_elapsed_ms,
            breaks_included=tournament.table_time_breaks == "included",
        )
        winner: Literal["a", "b"] | None = None
        if match.winner_id is not None and match.winner_id == match.player_a_id:
            winner = "a"
        elif match.winner_id is not None and match.winner_id == match.player_b_id:
            winner = "b"
        bill = tt.charge(
            minutes=minutes,
            price_per_hour=tournament.table_hour_price,
            payer=tournament.table_time_payer,
            discount_percent=tournament.table_time_discount,
            winner=winner,
        )
        sides = []
        for slot in ("a", "b"):
            player = getattr(match, f"player_{slot}")
            payment = paid.get((match.pk, player.pk))
            due = bill.due[slot]
            sides.append(
                {
                    "slot": slot,
                    "player": player,
                    "due": due,
                    "paid": payment.amount if payment else zero,
                    "payment": payment,
                }
            )
            person = people.setdefault(
                player.pk, {"player": player, "due": zero, "paid": zero, "owed": zero}
            )
            person["due"] += due
            if payment:
                person["paid"] += payment.amount
            elif due:
                person["owed"] += due
        out["rows"].append(
            {
                "match": match,
                "label": match_label(match.key),
                "minutes": minutes,
                "cost": bill.cost,
                "sides": [s for s in sides if s["due"] or s["payment"]],
            }
        )
    out["players"] = sorted(people.values(), key=lambda p: (-p["owed"], p["player"].name))
    out["due"] = sum((p["due"] for p in people.values()), zero)
    out["paid"] = sum((p["paid"] for p in people.values()), zero)
    out["owed"] = sum((p["owed"] for p in people.values()), zero)
    return out
