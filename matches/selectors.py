"""Match reads: one match, its log, the clock as the API shows it, and the table board."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from django.db.models import QuerySet
from django.utils import timezone

import rules
from matches import clock, wording
from matches.models import Match, MatchEvent, Table, TournamentRow
from matches.querycache import CompiledQuery
from rules.registry import find

LAST_EVENTS = 10
# The statuses by what a reader asks of them, defined once for every app.
NOT_STARTED = (Match.Status.READY, Match.Status.ON_TABLE)  # may start now: players known
LIVE = (Match.Status.ON_TABLE, Match.Status.RUNNING, Match.Status.PAUSED)  # at a table
CLOSED = (Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.VOID)  # takes no more
WITH_RESULT = (Match.Status.FINISHED, Match.Status.WALKOVER)  # a winner and a loser
QUEUE_ORDER = ("schedule_round", "stage", "round", "order", "pk")


def match_queryset() -> QuerySet[Match]:
    """Matches with what their representation shows, in one query each."""
    return Match.objects.select_related("tournament", "player_a", "player_b", "table")


# Tournament columns neither the reads of one match (tablets, scoreboards, answers) nor its
# writes read: its texts, entry and prize settings (a finished match's progression locks and
# reads the tournament itself). Left out, they are not loaded and parsed on every ball and
# every poll, and the SQL stays short enough for psycopg to keep it converted
# (tests/matches/test_statement_limits.py); a deferred column read all the same costs a query.
UNREAD_TOURNAMENT_COLUMNS = tuple(
    f"tournament__{name}"
    for name in (
        "description",
        "regulation_text",
        "venue",
        "chief_judge",
        "stage_rules",
        "fee_bands",
        "place_shares",
        "preset",
        "entry_fee",
        "pool_percent",
        "prize_unit",
        "added_money",
        "max_players",
        "draw_method",
        "random_seed",
        "withdrawn_prize",
        "withdrawal_fee",
        "table_hour_price",
        "lateness_step_minutes",
        "lateness_penalty_balls",
        "lateness_penalty_unit",
        "lateness_walkover_minutes",
        "table_time_payer",
        "table_time_discount",
        "table_time_breaks",
        "registration_closed_at",
        "registration_reopened_at",
        "no_show_rule",
        "archived",
        "organiser_name",
        "organiser_logo",  # an image, up to 280 KB of text
        "diploma_places",
        "diploma_language",
        "diploma_amount",
        "diploma_degree",
        "online_entry",
        "entry_opens_at",
        "entry_closes_at",
        "entry_min_rating",
        "entry_max_rating",
    )
)

# Every read of a match (tablets, scoreboards, answers) loads it so: its SQL is built once.
_MATCH = CompiledQuery(
    lambda pk: match_queryset().defer(*UNREAD_TOURNAMENT_COLUMNS).filter(pk=pk).order_by()[:1]
)


def match_get(*, match_id: int) -> Match:
    """The match with its tournament, players and table; Match.DoesNotExist if none."""
    found = _MATCH.fetch(match_id)
    if not found:
        raise Match.DoesNotExist(f"no match {match_id}")
    return found[0]


def match_last_events(*, match: Match, limit: int = LAST_EVENTS) -> list[MatchEvent]:
    """The newest log entries (events and undos), oldest first."""
    entries = list(MatchEvent.objects.filter(match=match).order_by("-seq")[:limit])
    entries.reverse()
    return entries


def timestamp(value: datetime | None) -> str | None:
    """A date and time as the API writes it: what DRF's DateTimeField gives there (ISO 8601
    in UTC with "Z", config.middleware.ApiInUtc), without building a field for every value of
    every answer. Always UTC: the match keeps these in its recent log, written by workers
    too. tests/matches/test_representation.py holds the two equal."""
    if value is None:
        return None
    text = value.astimezone(UTC).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def log_entry_data(entry: MatchEvent) -> dict[str, Any]:
    """One log entry as the API shows it (MatchEventSerializer declares the same fields)."""
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "event": entry.payload,
        "undone": entry.undone,
        "undoes": entry.payload.get("seq") if entry.kind == MatchEvent.Kind.UNDO else None,
        "source": entry.source,
        "created_at": timestamp(entry.created_at),
    }


def log_entry_words(kind: str, payload: dict[str, Any], match: Match | None) -> rules.Text:
    """A log entry's sentence as data, worded by the match's discipline (an undo's by the
    log): players as references, the caller fills in their names."""
    state = (match.state if match is not None else None) or {}
    ruleset = state.get("ruleset") or (match.ruleset if match is not None else None) or {}
    return wording.entry_words(
        kind, payload, discipline=discipline_of(state, ruleset), ruleset=ruleset
    )


def log_entry_kept(entry: MatchEvent, match: Match) -> dict[str, Any]:
    """One log entry as Match.recent_log keeps it: as the API shows it (log_entry_data) with
    its sentence in every language of the site (`texts`), rendered once, here."""
    words = log_entry_words(entry.kind, entry.payload, match)
    names = wording.LazyNames(lambda: match_player_names(match=match))
    return {**log_entry_data(entry), "texts": wording.sentences(words, names)}


def match_recent_log(*, match: Match) -> list[dict[str, Any]]:
    """The match's newest log entries as Match.recent_log keeps them, from its log (used to
    rebuild it after an import)."""
    return [log_entry_kept(entry, match) for entry in match_last_events(match=match)]


def table_now(*, table: Table) -> Match | None:
    """The match on the table now, else None."""
    return match_queryset().filter(table=table, status__in=LIVE).first()


def table_last_finished(*, table: Table) -> Match | None:
    return (
        match_queryset()
        .filter(table=table, status=Match.Status.FINISHED)
        .order_by("-finished_at", "-pk")
        .first()
    )


def match_events(*, match: Match, after_seq: int = 0) -> QuerySet[MatchEvent]:
    """The log from entry `after_seq + 1` on (the whole log by default)."""
    return MatchEvent.objects.filter(match=match, seq__gt=after_seq).order_by("seq")


def match_clock(*, match: Match, now: datetime | None = None) -> clock.ClockReading:
    return clock.read(
        limit_seconds=match.clock_limit_seconds,
        elapsed_ms=match.clock_elapsed_ms,
        running_since=match.clock_running_since,
        expired=match.clock_expired_at is not None,
        now=now or timezone.now(),
    )


def match_player_names(*, match: Match) -> dict[str, str]:
    """ "a"/"b" -> name, for messages; a pending slot is left out."""
    names = {}
    for slot, player in (("a", match.player_a), ("b", match.player_b)):
        if player is not None:
            names[slot] = player.name
    return names


# --- the result: one record that every reader shows -------------------------------------------


def winning_slot(match: Match) -> str | None:
    """The slot of the match's winner (its stored result), or None."""
    if match.winner_id is None:
        return None
    if match.winner_id == match.player_a_id:
        return "a"
    return "b" if match.winner_id == match.player_b_id else None


def has_time_rule(match: Match) -> bool:
    """Whether the match's discipline has a time-limit rule (without one, its clock only
    shows the time: Duplex)."""
    ruleset = match.ruleset or match.tournament.ruleset
    return discipline_of(match.state or {}, ruleset).has_time_limit


def discipline_of(state: dict[str, Any], ruleset: dict[str, Any] | None = None) -> rules.Discipline:
    """The discipline of a match's state, else of its ruleset; the default one when neither
    names a registered discipline (a page shows every match, whatever it holds)."""
    name = state.get("discipline") or (state.get("ruleset") or ruleset or {}).get("discipline")
    return find(name) or rules.default()


def _score_key(state: dict[str, Any], ruleset: dict[str, Any]) -> str:
    """Where the state keeps the figures of the final score (as services.final_score reads
    them): the discipline says (Duplex's final points, frames won, the frame's score)."""
    return discipline_of(state, ruleset).result_field(state, ruleset)


def result_state(match: Match) -> dict[str, Any]:
    """The engine's state as readers show it. Until there is a result, the state itself; once
    there is one, the stored result (winner, score) laid over it, so that nothing shown can
    disagree with it: a walkover or a corrected result is not what the table's log folds to.
    The stored state and the log stay what was played. The state is not copied when it already
    says the same (every ball of a live match is answered through here)."""
    state = match.state or {}
    slot = winning_slot(match) if match.status in WITH_RESULT else None
    if slot is None:
        return state
    corrected_or_walkover = match.result in (Match.Result.CORRECTED, Match.Result.WALKOVER)
    figures = (
        None
        if match.score_a is None or match.score_b is None
        else {"a": match.score_a, "b": match.score_b}
    )
    key = _score_key(state, match.ruleset)
    if (
        not corrected_or_walkover
        and state.get("finished")
        and state.get("winner") == slot
        and (figures is None or state.get(key) == figures)
    ):
        return state
    shown = dict(state)
    shown["finished"] = True
    shown["winner"] = slot
    shown["awaiting"] = None
    if corrected_or_walkover:
        shown["end_reason"] = str(match.result)
    if figures is not None:
        shown[key] = figures
    return shown


def score_summary(state: dict[str, Any]) -> dict[str, Any]:
    """The figures a scoreboard shows, whatever the discipline."""
    if not state:
        return {"score": None, "frames": None}
    return dict(discipline_of(state).score_summary(state))


def match_score_summary(match: Match, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """score_summary of the state readers are shown (result_state, passed when already
    built); a result without a score (a walkover) shows none."""
    if match.status in WITH_RESULT and match.winner_id is not None and match.score_a is None:
        return {"score": None, "frames": None}
    return score_summary(result_state(match) if state is None else state)


def result_mark(
    *, result: str, end_reason: str | None = None, corrected: bool = False
) -> str | None:
    """How a match ended, as the pages mark it: "walkover", "forfeit", "time", "golden_ball",
    "corrected"; None for a race won (or no result yet)."""
    if corrected or result == Match.Result.CORRECTED:
        return "corrected"
    if result == Match.Result.TIME and end_reason == "golden_ball":
        return "golden_ball"
    if result in (Match.Result.WALKOVER, Match.Result.FORFEIT, Match.Result.TIME):
        return str(result)
    return None


def match_result_mark(match: Match) -> str | None:
    if match.status not in WITH_RESULT:
        return None
    return result_mark(
        result=match.result,
        end_reason=(match.state or {}).get("end_reason"),
        corrected=match.corrected_at is not None,
    )


def correction_data(match: Match) -> dict[str, Any] | None:
    """The last correction of the result as the API shows it: when, why, and the result it
    replaced. Who corrected it is in the organisers' audit log."""
    if match.corrected_at is None:
        return None
    return {
        "at": timestamp(match.corrected_at),
        "reason": str(match.correction_reason),
        "previous": dict(match.corrected_from or {}),
    }


def group_results(*, tournament_id: int) -> dict[int, list[dict[str, Any]]]:
    """The group matches with a result, by group, each with how it ended (one query); its
    words are tournaments.presentation.group_results_shown's."""
    rows = (
        Match.objects.filter(tournament_id=tournament_id, stage="group", status__in=WITH_RESULT)
        .order_by("group", "round", "order", "pk")
        .values(
            "pk",
            "group",
            "player_a_id",
            "player_a__name",
            "player_b__name",
            "winner_id",
            "score_a",
            "score_b",
            "result",
            "state__end_reason",
            "corrected_at",
            "corrected_from",
        )
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        mark = result_mark(
            result=row["result"],
            end_reason=row["state__end_reason"],
            corrected=row["corrected_at"] is not None,
        )
        # A group match has its group number from the draw on.
        out.setdefault(cast(int, row["group"]), []).append(
            {
                "id": row["pk"],
                "a": row["player_a__name"],
                "b": row["player_b__name"],
                "winner": "a" if row["winner_id"] == row["player_a_id"] else "b",
                "score_a": row["score_a"],
                "score_b": row["score_b"],
                "mark": mark,
                "corrected_from": row["corrected_from"],
            }
        )
    return out


@dataclass
class BoardRow:
    table: Table
    match: Match | None


@dataclass
class TableBoard:
    tournament: TournamentRow
    tables: list[BoardRow]
    queue: list[Match]  # ready matches in the order they are called (held ones included)
    playing_elsewhere: list[Match] = field(default_factory=list)  # started without a table
    judge_calls: list[Match] = field(default_factory=list)
    now: datetime = field(default_factory=timezone.now)


def table_board(*, tournament: TournamentRow) -> TableBoard:
    """Every table with its match (score, clock), the queue of ready matches and the open
    judge calls, in three queries whatever the size of the tournament."""
    tables = list(Table.objects.filter(tournament=tournament.pk).order_by("number"))
    live = list(
        match_queryset().filter(tournament=tournament.pk, status__in=LIVE).order_by(*QUEUE_ORDER)
    )
    queue = list(
        match_queryset()
        .filter(tournament=tournament.pk, status=Match.Status.READY)
        .order_by(*QUEUE_ORDER)
    )
    on_table = {m.table_id: m for m in live if m.table_id is not None}
    return TableBoard(
        tournament=tournament,
        tables=[BoardRow(table=t, match=on_table.get(t.pk)) for t in tables],
        queue=queue,
        playing_elsewhere=[m for m in live if m.table_id is None],
        judge_calls=sorted(
            (m for m in [*live, *queue] if m.judge_called_at is not None),
            key=lambda m: cast(datetime, m.judge_called_at),  # the ones with a call
        ),
    )


def live_figures(*, match_id: int) -> dict[str, Any]:
    """A match's status and score now, for the push channel's events (config.push): the
    bracket's cell follows a ball from the event alone. One query by primary key."""
    row = Match.objects.filter(pk=match_id).order_by().values_list("status", "state")[:1]
    if not row:
        return {}
    status, state = row[0]
    return {"status": status, **score_summary(state or {})}


def live_figures_of(match: Match) -> dict[str, Any]:
    """live_figures from a match row in hand (the writer's, at its commit): no query."""
    return {"status": match.status, **score_summary(match.state or {})}
